# Models: anomaly-detection scoring scripts: robust z-scores with median/MAD, Mahalanobis
# distance with a covariance estimate (torch.cov, linalg.solve / cholesky_solve), autoencoder
# reconstruction error thresholds at a percentile, and precision/recall of the flagged points.
import torch
import torch.nn as nn

torch.manual_seed(0)
normal = torch.randn(200, 3) @ torch.tensor([[1.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 0.5]])
anom = torch.randn(10, 3) * 3 + torch.tensor([4.0, -4.0, 2.0])
X = torch.cat([normal, anom])
labels = torch.cat([torch.zeros(200), torch.ones(10)]).bool()
med = X.median(dim=0).values
mad = (X - med).abs().median(dim=0).values
robust_z = 0.6745 * (X - med) / mad
print(med, mad)
rz = robust_z.abs().max(1).values
print(rz[-10:])
mu = normal.mean(0)
cov = torch.cov(normal.T)
print(cov)
diff = X - mu
m1 = (diff @ torch.linalg.inv(cov) * diff).sum(1)
L = torch.linalg.cholesky(cov)
m2 = (diff * torch.cholesky_solve(diff.T, L).T).sum(1)
m3 = (diff * torch.linalg.solve(cov, diff.T).T).sum(1)
print(torch.allclose(m1, m2, rtol=1e-4), torch.allclose(m2, m3, rtol=1e-4))
print(m2[-10:].sqrt())
thr = torch.quantile(m2[:200], 0.99)
flag = m2 > thr
tp = (flag & labels).sum().item()
print("threshold", thr.item(), "flagged", flag.sum().item(), "tp", tp)
print("precision", tp / flag.sum().item(), "recall", tp / labels.sum().item())
ae = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 3))
opt = torch.optim.Adam(ae.parameters(), lr=0.02)
Xn = (X - mu) / normal.std(0)
for ep in range(60):
    loss = (ae(Xn[:200]) - Xn[:200]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("ae loss", loss.item())
with torch.no_grad():
    rec = (ae(Xn) - Xn).pow(2).sum(1)
t95 = rec[:200].kthvalue(int(0.95 * 200)).values
print("t95", t95.item(), "flagged anomalies", (rec[200:] > t95).sum().item())
print(rec.topk(5).indices)
auc_pairs = (rec[200:, None] > rec[None, :200]).float().mean()
print("AUC", auc_pairs.item())
