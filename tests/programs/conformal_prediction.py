# Models: a conformal-prediction tutorial (Angelopoulos & Bates "gentle introduction" in
# PyTorch): split conformal for classification (softmax scores of the true class, the finite-
# sample-corrected quantile with torch.quantile(interpolation="higher")), prediction sets and
# their sizes, adaptive prediction sets (sorted cumsum scores), conformalised quantile
# regression intervals, and empirical coverage checks.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES = 4
means = torch.randn(N_CLASSES, 2) * 1.2


def make(n):
    y = torch.randint(0, N_CLASSES, (n,))
    return means[y] + torch.randn(n, 2), y


x_tr, y_tr = make(300)
x_cal, y_cal = make(200)
x_te, y_te = make(400)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for _ in range(80):
    loss = F.cross_entropy(model(x_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    p_cal, p_te = model(x_cal).softmax(-1), model(x_te).softmax(-1)
print(
    "train loss:",
    round(loss.item(), 4),
    "test accuracy:",
    (p_te.argmax(1) == y_te).float().mean().item(),
)

alpha = 0.1
n = len(y_cal)
scores = 1 - p_cal.gather(1, y_cal[:, None]).squeeze(1)
q_level = math.ceil((n + 1) * (1 - alpha)) / n
qhat = torch.quantile(scores, q_level, interpolation="higher")
print(f"q_level {q_level:.4f} qhat {qhat.item():.6f}")
sets = p_te >= (1 - qhat)
coverage = sets[torch.arange(len(y_te)), y_te].float().mean()
sizes = sets.sum(1)
print("LAC coverage:", coverage.item(), "mean set size:", sizes.float().mean().item())
print("set size histogram:", torch.bincount(sizes, minlength=N_CLASSES + 1).tolist())
print("first sets:", [torch.nonzero(s).flatten().tolist() for s in sets[:4]])


def aps_scores(probs, labels=None):
    srt, idx = probs.sort(dim=1, descending=True)
    cums = srt.cumsum(dim=1)
    if labels is None:
        return srt, idx, cums
    rank = (idx == labels[:, None]).float().argmax(1)
    return cums.gather(1, rank[:, None]).squeeze(1)


cal_aps = aps_scores(p_cal, y_cal)
qhat_aps = torch.quantile(cal_aps, q_level, interpolation="higher")
srt, idx, cums = aps_scores(p_te)
include = (cums - srt) < qhat_aps
aps_sets = torch.zeros_like(include).scatter(1, idx, include)
aps_cov = aps_sets[torch.arange(len(y_te)), y_te].float().mean()
print(
    f"APS qhat {qhat_aps.item():.6f} coverage {aps_cov.item():.4f} "
    f"mean size {aps_sets.sum(1).float().mean().item():.4f}"
)

# ---- conformalised quantile regression ------------------------------------------------------
torch.manual_seed(1)
x = torch.rand(600, 1) * 6
y = torch.sin(x) * 2 + (0.2 + 0.2 * x) * torch.randn_like(x)
tr, cal, te = torch.arange(0, 300), torch.arange(300, 450), torch.arange(450, 600)
qr = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
qs = torch.tensor([alpha / 2, 1 - alpha / 2])
opt = torch.optim.Adam(qr.parameters(), lr=0.01)
for epoch in range(200):
    err = y[tr] - qr(x[tr])
    loss = torch.max(qs * err, (qs - 1) * err).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"pinball loss {loss.item():.5f}")
with torch.no_grad():
    lo_hi = qr(x[cal])
    s = torch.maximum(lo_hi[:, 0] - y[cal, 0], y[cal, 0] - lo_hi[:, 1])
    n = len(cal)
    qcqr = torch.quantile(s, math.ceil((n + 1) * (1 - alpha)) / n, interpolation="higher")
    pred = qr(x[te])
    raw_cov = ((y[te, 0] >= pred[:, 0]) & (y[te, 0] <= pred[:, 1])).float().mean()
    lo, hi = pred[:, 0] - qcqr, pred[:, 1] + qcqr
    cqr_cov = ((y[te, 0] >= lo) & (y[te, 0] <= hi)).float().mean()
    print(
        f"correction {qcqr.item():.5f} raw coverage {raw_cov.item():.4f} "
        f"CQR coverage {cqr_cov.item():.4f} mean width {(hi - lo).mean().item():.4f}"
    )
    print("kthvalue check:", torch.kthvalue(s, math.ceil((n + 1) * (1 - alpha))).values, qcqr)
