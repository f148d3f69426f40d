# Models: a tabular deep-learning script (fastai TabularModel style) for a retail demand problem:
# categorical embeddings sized by the rule of thumb min(50, (n+1)//2), BatchNorm on continuous
# features, dropout, and a multi-quantile pinball loss (P10/P50/P90) with crossing checks.
import torch
import torch.nn as nn

torch.manual_seed(0)
N = 64
store = torch.randint(0, 5, (N,))
dow = torch.randint(0, 7, (N,))
promo = torch.randint(0, 2, (N,))
cont = torch.randn(N, 3)
demand = (
    store.float() * 2 + (dow >= 5).float() * 3 + promo * 4 + cont[:, 0] + torch.randn(N)
).view(-1, 1)
cards = [5, 7, 2]
emb_szs = [(c, min(50, (c + 1) // 2)) for c in cards]
print(emb_szs)


class TabularModel(nn.Module):
    def __init__(self, emb_szs, n_cont, out_sz, layers, ps=0.1):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        self.emb_drop = nn.Dropout(ps)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_emb = sum(nf for _, nf in emb_szs)
        sizes = [n_emb + n_cont] + layers
        mods = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            mods += [nn.Linear(a, b), nn.ReLU(inplace=True), nn.BatchNorm1d(b)]
        mods.append(nn.Linear(sizes[-1], out_sz))
        self.layers = nn.Sequential(*mods)

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], 1)
        x = torch.cat([self.emb_drop(x), self.bn_cont(x_cont)], 1)
        return self.layers(x)


quantiles = torch.tensor([0.1, 0.5, 0.9])


def pinball(pred, target):
    err = target - pred
    return torch.max(quantiles * err, (quantiles - 1) * err).mean()


model = TabularModel(emb_szs, 3, 3, [16, 8])
print(model)
x_cat = torch.stack([store, dow, promo], 1)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for ep in range(40):
    model.train()
    loss = pinball(model(x_cat, cont), demand)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 10 == 0:
        print(f"epoch {ep} pinball {loss.item():.5f}")
model.eval()
with torch.no_grad():
    pred = model(x_cat, cont)
cover = ((demand >= pred[:, :1]) & (demand <= pred[:, 2:])).float().mean()
print("coverage P10-P90", cover.item())
print("crossings", (pred[:, 0] > pred[:, 1]).sum().item(), (pred[:, 1] > pred[:, 2]).sum().item())
print(pred[:3])
print(model.embeds[1].weight.shape, model.bn_cont.running_var)
sorted_pred, _ = pred.sort(dim=1)
print(torch.equal(sorted_pred[:, 1], pred.median(dim=1).values))
