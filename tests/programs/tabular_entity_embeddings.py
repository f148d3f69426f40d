# Models: the fast.ai/Rossmann "entity embeddings" tabular recipe in plain torch: categorical
# columns through nn.Embedding sized by the min(50, (n+1)//2) rule, continuous columns
# standardised and bucketised with torch.bucketize on quantiles, BatchNorm1d and dropout MLP,
# log-target regression with OneCycleLR, and the RMSPE metric.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)
n = 600
store = torch.randint(0, 20, (n,))
dow = torch.randint(0, 7, (n,))
promo = torch.randint(0, 2, (n,))
month = torch.randint(0, 12, (n,))
competition = torch.rand(n) * 5000
temperature = torch.randn(n) * 8 + 15
store_effect = torch.randn(20) * 0.3
sales = torch.exp(8 + store_effect[store] + 0.2 * promo - 0.05 * (dow == 6).float()
                  + 0.1 * torch.sin(month / 12 * 6.283) - competition / 20000
                  + 0.05 * torch.randn(n))
print("sales", sales.min(), sales.max(), sales.median())
edges = torch.quantile(competition, torch.tensor([0.25, 0.5, 0.75]))
comp_bin = torch.bucketize(competition, edges)
print("edges", edges, "bins", torch.bincount(comp_bin))
print(torch.bucketize(torch.tensor([0.0, 2500.0, 6000.0]), edges, right=True))
cats = torch.stack([store, dow, promo, month, comp_bin], 1)
cards = [20, 7, 2, 12, 4]
emb_sizes = [(c, min(50, (c + 1) // 2)) for c in cards]
print("embedding sizes", emb_sizes)
conts = torch.stack([competition, temperature], 1)
mean, std = conts[:480].mean(0), conts[:480].std(0)
conts = (conts - mean) / std
y = sales.log()
y_range = (0.0, y.max().item() * 1.2)


class TabularModel(nn.Module):
    def __init__(self, emb_sizes, n_cont, layers=(64, 32), ps=(0.05, 0.05), emb_drop=0.04):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(c, d) for c, d in emb_sizes])
        self.emb_drop = nn.Dropout(emb_drop)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_in = sum(d for _, d in emb_sizes) + n_cont
        mods = []
        for n_out, p in zip(layers, ps):
            mods += [nn.Linear(n_in, n_out, bias=False), nn.ReLU(inplace=True),
                     nn.BatchNorm1d(n_out), nn.Dropout(p)]
            n_in = n_out
        mods.append(nn.Linear(n_in, 1))
        self.layers = nn.Sequential(*mods)

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], 1)
        x = torch.cat([self.emb_drop(x), self.bn_cont(x_cont)], 1)
        out = self.layers(x).squeeze(1)
        return torch.sigmoid(out) * (y_range[1] - y_range[0]) + y_range[0]


def rmspe(pred_log, targ_log):
    pred, targ = pred_log.exp(), targ_log.exp()
    return torch.sqrt((((targ - pred) / targ) ** 2).mean())


model = TabularModel(emb_sizes, 2)
print(model.embeds, sum(p.numel() for p in model.parameters()))
epochs, bs = 6, 48
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-2, epochs=epochs,
                                            steps_per_epoch=(480 + bs - 1) // bs)
for epoch in range(epochs):
    model.train()
    perm = torch.randperm(480)
    for idx in perm.split(bs):
        loss = F.mse_loss(model(cats[idx], conts[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    model.eval()
    with torch.no_grad():
        pv = model(cats[480:], conts[480:])
        vl = F.mse_loss(pv, y[480:])
    print(f"epoch {epoch} train {loss.item():.5f} valid {vl.item():.5f} "
          f"rmspe {rmspe(pv, y[480:]).item():.5f} lr {sched.get_last_lr()[0]:.6f}")
print(model.embeds[0].weight.norm(dim=1)[:6])
print(model.bn_cont.running_mean, model.bn_cont.running_var, model.bn_cont.num_batches_tracked)
emb = model.embeds[1].weight.detach()
sim = F.cosine_similarity(emb[:, None], emb[None], dim=-1)
print(sim)
