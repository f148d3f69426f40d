# Models: CMA-ES (covariance matrix adaptation evolution strategy) with rank-one and rank-mu
# updates and cumulative step-size adaptation, minimising an ill-conditioned ellipsoid.
import math

import torch

torch.manual_seed(0)
dt = torch.float64
dim = 6
scales = 10 ** torch.linspace(0, 3, dim, dtype=dt)


def ellipsoid(x):
    return ((scales * x) ** 2).sum(-1)


lam = 4 + int(3 * math.log(dim))
mu = lam // 2
weights = math.log(mu + 0.5) - torch.log(torch.arange(1, mu + 1, dtype=dt))
weights = weights / weights.sum()
mueff = 1 / (weights**2).sum()
cc = (4 + mueff / dim) / (dim + 4 + 2 * mueff / dim)
cs = (mueff + 2) / (dim + mueff + 5)
c1 = 2 / ((dim + 1.3) ** 2 + mueff)
cmu = min(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((dim + 2) ** 2 + mueff))
damps = 1 + 2 * max(0.0, math.sqrt((mueff - 1) / (dim + 1)) - 1) + cs
chiN = math.sqrt(dim) * (1 - 1 / (4 * dim) + 1 / (21 * dim**2))
print(f"lambda={lam} mu={mu} mueff={mueff:.4f} cc={cc:.4f} cs={cs:.4f} c1={c1:.5f} cmu={cmu:.5f}")

mean = torch.ones(dim, dtype=dt)
sigma = 0.5
C = torch.eye(dim, dtype=dt)
pc = torch.zeros(dim, dtype=dt)
ps = torch.zeros(dim, dtype=dt)
evals = 0
for gen in range(1, 161):
    eigvals, B = torch.linalg.eigh(C)
    Dg = eigvals.clamp_min(1e-20).sqrt()
    z = torch.randn(lam, dim, dtype=dt)
    y = (z * Dg) @ B.T
    x = mean + sigma * y
    f = ellipsoid(x)
    evals += lam
    idx = torch.argsort(f)[:mu]
    y_sel = y[idx]
    y_w = weights @ y_sel
    mean = mean + sigma * y_w
    C_inv_sqrt = B @ torch.diag(1 / Dg) @ B.T
    ps = (1 - cs) * ps + math.sqrt(cs * (2 - cs) * mueff) * (C_inv_sqrt @ y_w)
    hsig = float(ps.norm() / math.sqrt(1 - (1 - cs) ** (2 * gen)) / chiN < 1.4 + 2 / (dim + 1))
    pc = (1 - cc) * pc + hsig * math.sqrt(cc * (2 - cc) * mueff) * y_w
    rank_mu = (weights[:, None] * y_sel).T @ y_sel
    C = (
        (1 - c1 - cmu) * C
        + c1 * (torch.outer(pc, pc) + (1 - hsig) * cc * (2 - cc) * C)
        + cmu * rank_mu
    )
    C = (C + C.T) / 2
    sigma *= math.exp((cs / damps) * (ps.norm().item() / chiN - 1))
    if gen % 20 == 0:
        print(
            f"gen {gen:3d} evals {evals:4d} best {f.min().item():.4e} sigma {sigma:.4e} "
            f"cond(C) {torch.linalg.cond(C).item():.3e}"
        )
print("final mean", mean)
print(
    "axis ratio learned",
    (torch.linalg.eigvalsh(C).sqrt().max() / torch.linalg.eigvalsh(C).sqrt().min()).item(),
)
