# Models: an FT-Transformer / TabTransformer style model for tabular data: per-feature
# tokenisation (numerical features scaled into learned vectors, categorical embeddings with
# offsets), a [CLS] token, nn.MultiheadAttention with need_weights and per-head weights
# (average_attn_weights=False), a key_padding_mask for missing features, and a feature-
# importance read-out from the CLS row of the attention maps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(33)
n, n_num = 160, 3
cards = [4, 3]
x_num = torch.randn(n, n_num)
x_cat = torch.stack([torch.randint(0, c, (n,)) for c in cards], 1)
missing = torch.rand(n, n_num) < 0.1
logit = 1.5 * x_num[:, 0] - x_num[:, 2] + (x_cat[:, 0] == 2).float() * 2 - 1
y = (torch.sigmoid(logit) > torch.rand(n)).float()
x_num = x_num.masked_fill(missing, 0.0)
print("missing per feature", missing.sum(0), "positives", y.sum().item())


class FTTransformer(nn.Module):
    def __init__(self, d=16, heads=4):
        super().__init__()
        self.num_w = nn.Parameter(torch.randn(n_num, d) * 0.1)
        self.num_b = nn.Parameter(torch.zeros(n_num, d))
        self.register_buffer("offsets", torch.tensor([0] + cards[:-1]).cumsum(0))
        self.cat_emb = nn.Embedding(sum(cards), d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.attn = nn.MultiheadAttention(d, heads, dropout=0.0, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, 1)

    def forward(self, x_num, x_cat, missing):
        tok_num = x_num[..., None] * self.num_w + self.num_b
        tok_cat = self.cat_emb(x_cat + self.offsets)
        b = x_num.shape[0]
        tokens = torch.cat([self.cls.expand(b, -1, -1), tok_num, tok_cat], 1)
        pad = torch.cat([torch.zeros(b, 1, dtype=torch.bool), missing,
                         torch.zeros(b, len(cards), dtype=torch.bool)], 1)
        h = self.norm1(tokens)
        a, w = self.attn(h, h, h, key_padding_mask=pad, need_weights=True,
                         average_attn_weights=False)
        tokens = tokens + a
        tokens = tokens + self.ff(self.norm2(tokens))
        return self.head(tokens[:, 0]).squeeze(1), w


model = FTTransformer()
print(model.offsets, model.attn)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-4)
for epoch in range(6):
    perm = torch.randperm(n)
    for idx in perm.split(64):
        logits, _ = model(x_num[idx], x_cat[idx], missing[idx])
        loss = F.binary_cross_entropy_with_logits(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits, w = model(x_num, x_cat, missing)
        acc = ((logits > 0).float() == y).float().mean()
    print(f"epoch {epoch} loss {loss.item():.5f} acc {acc.item():.4f}")
print("weights", w.shape, w[0, :, 0])
importance = w[:, :, 0, 1:].mean(dim=(0, 1))
print("feature importance", importance, importance.argsort(descending=True))
print("rows sum", w.sum(-1)[0, 0])
row = missing.nonzero()[0, 0].item()
print("masked row", missing[row], w[row, 0, 0])
with torch.no_grad():
    _, avg = model.attn(torch.randn(2, 4, 16), torch.randn(2, 4, 16), torch.randn(2, 4, 16))
    _, none = model.attn(torch.randn(2, 4, 16), torch.randn(2, 4, 16), torch.randn(2, 4, 16),
                         need_weights=False)
print(avg.shape, none)
