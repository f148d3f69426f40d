# Models: CTR-prediction recipes (Wide & Deep, DCN-v2): categorical features through one
# nn.Embedding with per-field offsets, numeric features standardised, an explicit cross
# network x_{l+1} = x0 * (W x_l + b) + x_l, a parallel deep tower, a wide (linear) part over
# hashed cross features, BCE-with-logits training, and AUC / logloss on a held-out split.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N = 2000
FIELD_SIZES = [5, 8, 3, 6]
cats = torch.stack([torch.randint(0, s, (N,)) for s in FIELD_SIZES], 1)
nums = torch.randn(N, 3) * torch.tensor([1.0, 5.0, 0.2]) + torch.tensor([0.0, 10.0, 1.0])
logit = (0.8 * (cats[:, 0] == 2).float() - 0.6 * (cats[:, 1] % 3 == 0).float()
         + 1.2 * ((cats[:, 0] == 1) & (cats[:, 2] == 2)).float()
         + 0.3 * (nums[:, 1] - 10) / 5 - 0.5)
y = torch.bernoulli(torch.sigmoid(logit))
print("click rate:", y.mean().item(), "field cardinalities:", FIELD_SIZES)
train, test = torch.arange(1600), torch.arange(1600, N)
mu, sd = nums[train].mean(0), nums[train].std(0)
nums = (nums - mu) / sd
offsets = torch.tensor([0] + FIELD_SIZES[:-1]).cumsum(0)
print("offsets:", offsets)
N_HASH = 64
cross_ids = (cats[:, 0] * 31 + cats[:, 2] * 7 + cats[:, 1]) % N_HASH


class CrossLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x0, x):
        return x0 * self.lin(x) + x


class DCN(nn.Module):
    def __init__(self, emb_dim=4, n_cross=2):
        super().__init__()
        self.emb = nn.Embedding(sum(FIELD_SIZES), emb_dim)
        d = emb_dim * len(FIELD_SIZES) + 3
        self.cross = nn.ModuleList(CrossLayer(d) for _ in range(n_cross))
        self.deep = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.1),
                                  nn.Linear(32, 16), nn.ReLU())
        self.wide = nn.EmbeddingBag(N_HASH + sum(FIELD_SIZES), 1, mode="sum")
        self.out = nn.Linear(d + 16, 1)
        nn.init.zeros_(self.wide.weight)

    def forward(self, cats, nums, cross_ids):
        ids = cats + offsets
        x0 = torch.cat([self.emb(ids).flatten(1), nums], 1)
        x = x0
        for layer in self.cross:
            x = layer(x0, x)
        wide = self.wide(torch.cat([ids, cross_ids[:, None] + sum(FIELD_SIZES)], 1))
        return (self.out(torch.cat([x, self.deep(x0)], 1)) + wide).squeeze(1)


def auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels.sum()
    return ((ranks[labels == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(labels) - pos))).item()


model = DCN()
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-4)
for epoch in range(5):
    model.train()
    total = 0.0
    for idx in train[torch.randperm(len(train))].split(128):
        logits = model(cats[idx], nums[idx], cross_ids[idx])
        loss = F.binary_cross_entropy_with_logits(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        s = model(cats[test], nums[test], cross_ids[test])
        te = F.binary_cross_entropy_with_logits(s, y[test])
    print(f"epoch {epoch + 1} train logloss {total / len(train):.4f} test logloss {te:.4f} "
          f"AUC {auc(s, y[test]):.4f}")
print("cross layer 0 weight norm:", model.cross[0].lin.weight.norm().item())
print("predicted CTR (first 6):", torch.sigmoid(s[:6]))
