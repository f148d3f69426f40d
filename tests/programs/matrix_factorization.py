# Models: the collaborative-filtering / matrix-factorisation recommender of fastai-style and
# blog tutorials: user and item nn.Embedding factors plus biases, a sigmoid-scaled dot product,
# MSE on observed ratings with weight decay, and top-k recommendations for a user.
import torch
import torch.nn as nn

torch.manual_seed(11)
n_users, n_items, k_true = 30, 20, 3
U, V = torch.randn(n_users, k_true), torch.randn(n_items, k_true)
full = (U @ V.T) / 2 + 3
mask = torch.rand(n_users, n_items) < 0.4
users, items = mask.nonzero(as_tuple=True)
ratings = full[users, items].clamp(0.5, 5.5)
print(len(ratings), ratings.mean(), ratings.min(), ratings.max())


class DotProductBias(nn.Module):
    def __init__(self, n_users, n_items, n_factors, y_range=(0, 5.5)):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, n_factors)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_factors = nn.Embedding(n_items, n_factors)
        self.item_bias = nn.Embedding(n_items, 1)
        for e in (self.user_factors, self.item_factors):
            nn.init.normal_(e.weight, std=0.1)
        for e in (self.user_bias, self.item_bias):
            nn.init.zeros_(e.weight)
        self.y_range = y_range

    def forward(self, u, i):
        res = (self.user_factors(u) * self.item_factors(i)).sum(dim=1, keepdim=True)
        res = res + self.user_bias(u) + self.item_bias(i)
        lo, hi = self.y_range
        return (torch.sigmoid(res) * (hi - lo) + lo).squeeze(1)


model = DotProductBias(n_users, n_items, 5)
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
perm = torch.randperm(len(ratings))
train, valid = perm[:200], perm[200:]
for epoch in range(8):
    model.train()
    for b in train.split(40):
        loss = nn.functional.mse_loss(model(users[b], items[b]), ratings[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(users[valid], items[valid]), ratings[valid])
    print(f"epoch {epoch} train {loss.item():.4f} valid rmse {val.sqrt().item():.4f}")

with torch.no_grad():
    scores = model(torch.zeros(n_items, dtype=torch.long), torch.arange(n_items))
    scores[mask[0]] = -1
    top = scores.topk(3)
print(top.indices, top.values)
item_bias = model.item_bias.weight.squeeze()
print(item_bias.argsort(descending=True)[:5], full.mean(0).argsort(descending=True)[:5])
sim = nn.functional.cosine_similarity(model.item_factors.weight[0:1], model.item_factors.weight)
print(sim.argsort(descending=True)[:4], sim.max())
