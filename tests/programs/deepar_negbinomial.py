# Models: a DeepAR-style probabilistic forecasting notebook (Salinas et al. 2017, GluonTS-free):
# count series with weekly seasonality, mean scaling, lagged inputs and a time feature into a
# GRU, a NegativeBinomial output head (total_count via softplus, logits), teacher-forced
# training by negative log-likelihood, and ancestral sampling of 60 future paths summarised
# by quantiles, compared with a Poisson head.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import NegativeBinomial, Poisson

torch.manual_seed(0)
S, T, H = 6, 56, 7
t = torch.arange(T + H).float()
level = torch.rand(S, 1) * 20 + 5
season = 1 + 0.5 * torch.sin(2 * math.pi * t / 7)
rate = level * season
series = Poisson(rate).sample()
print("series shape", tuple(series.shape), "means", series.mean(1))
train, future = series[:, :T], series[:, T:]


class DeepAR(nn.Module):
    def __init__(self, hidden=16, head="nb"):
        super().__init__()
        self.rnn = nn.GRU(3, hidden, batch_first=True)
        self.head = head
        self.proj = nn.Linear(hidden, 2)

    def distribution(self, out, scale):
        a, b = self.proj(out).unbind(-1)
        if self.head == "poisson":
            return Poisson(F.softplus(a) * scale)
        total = F.softplus(b) + 1e-3
        mean = F.softplus(a) * scale
        return NegativeBinomial(total_count=total, logits=torch.log(mean) - torch.log(total))

    def features(self, lagged, steps, scale):
        tf = torch.sin(2 * math.pi * steps / 7).expand_as(lagged)
        tf2 = torch.cos(2 * math.pi * steps / 7).expand_as(lagged)
        return torch.stack([lagged / scale, tf, tf2], -1)

    def forward(self, y, steps, scale, h=None):
        lagged = F.pad(y, (1, 0))[:, :-1]
        out, h = self.rnn(self.features(lagged, steps, scale), h)
        return self.distribution(out, scale), h


d = NegativeBinomial(total_count=torch.tensor([2.0, 10.0]), probs=torch.tensor([0.3, 0.6]))
print("NB mean", d.mean, "variance", d.variance, "log_prob(3)", d.log_prob(torch.tensor(3.0)))

for head in ("nb", "poisson"):
    torch.manual_seed(1)
    model = DeepAR(head=head)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    scale = train.mean(1, keepdim=True) + 1
    for epoch in range(24):
        dist, _ = model(train, t[:T], scale)
        loss = -dist.log_prob(train).mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
        if epoch % 6 == 0:
            print(f"{head:7s} epoch {epoch:2d} nll {loss.item():.5f}")
    with torch.no_grad():
        _, h = model(train, t[:T], scale)
        n_paths = 60                       # sampled in parallel, as GluonTS does
        hh = h.repeat_interleave(n_paths, dim=1)
        last = train[:, -1:].repeat_interleave(n_paths, dim=0)
        sc = scale.repeat_interleave(n_paths, dim=0)
        path = []
        for k in range(H):
            out, hh = model.rnn(model.features(last, t[T + k:T + k + 1], sc), hh)
            last = model.distribution(out, sc).sample()
            path.append(last)
        paths = torch.cat(path, 1).view(S, n_paths, H).transpose(0, 1)
    q = torch.quantile(paths, torch.tensor([0.1, 0.5, 0.9]), dim=0)
    cover = ((future >= q[0]) & (future <= q[2])).float().mean()
    mae = (q[1] - future).abs().mean()
    print(f"{head:7s} median MAE {mae.item():.4f} 80% coverage {cover.item():.3f}")
    print("  series 0 median", q[1, 0], "truth", future[0])
