# Models: out-of-distribution detection baselines: maximum softmax probability (Hendrycks &
# Gimpel), the energy score (Liu et al.), ODIN's temperature scaling with input perturbation,
# class-conditional Mahalanobis distance with a shared covariance, and AUROC / FPR@95%TPR
# computed from sorted scores, on a classifier trained on three Gaussian classes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D, C = 6, 3
means = torch.randn(C, D) * 2.5
ytr = torch.randint(0, C, (600,))
Xtr = means[ytr] + torch.randn(600, D)
yin = torch.randint(0, C, (200,))
Xin = means[yin] + torch.randn(200, D)
Xout = torch.randn(200, D) * 1.5 + torch.tensor([4.0, -4.0, 0.0, 3.0, 0.0, -2.0])

feat = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, C)
opt = torch.optim.SGD([*feat.parameters(), *head.parameters()], lr=0.1, momentum=0.9)
for epoch in range(20):
    for idx in torch.randperm(600).split(50):
        loss = F.cross_entropy(head(feat(Xtr[idx])), ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")
with torch.no_grad():
    acc = (head(feat(Xin)).argmax(1) == yin).float().mean()
print("in-distribution accuracy:", acc.item())


def auroc(score_in, score_out):
    scores = torch.cat([score_in, score_out])
    labels = torch.cat([torch.ones_like(score_in), torch.zeros_like(score_out)])
    order = scores.argsort(descending=True)
    lab = labels[order]
    tpr = lab.cumsum(0) / lab.sum()
    fpr = (1 - lab).cumsum(0) / (1 - lab).sum()
    tpr = torch.cat([torch.zeros(1), tpr])
    fpr = torch.cat([torch.zeros(1), fpr])
    area = torch.trapezoid(tpr, fpr)
    fpr95 = fpr[(tpr >= 0.95).nonzero()[0, 0]]
    return area.item(), fpr95.item()


def msp(x):
    return F.softmax(head(feat(x)), 1).max(1).values


def energy(x, T=1.0):
    return T * torch.logsumexp(head(feat(x)) / T, 1)


def odin(x, T=1000.0, eps=0.01):
    x = x.clone().requires_grad_()
    logits = head(feat(x)) / T
    loss = F.cross_entropy(logits, logits.argmax(1))
    (g,) = torch.autograd.grad(loss, x)
    with torch.no_grad():
        return F.softmax(head(feat(x - eps * g.sign())) / T, 1).max(1).values


with torch.no_grad():
    ftr = feat(Xtr)
    class_means = torch.stack([ftr[ytr == c].mean(0) for c in range(C)])
    centered = ftr - class_means[ytr]
    cov = centered.T @ centered / len(ftr)
    precision = torch.linalg.pinv(cov, hermitian=True)


def mahalanobis(x):
    with torch.no_grad():
        d = feat(x)[:, None] - class_means[None]
        m = torch.einsum("ncd,de,nce->nc", d, precision, d)
    return -m.min(1).values


with torch.no_grad():
    scores = {"MSP": (msp(Xin), msp(Xout)), "energy": (energy(Xin), energy(Xout))}
scores["ODIN"] = (odin(Xin), odin(Xout))
scores["Mahalanobis"] = (mahalanobis(Xin), mahalanobis(Xout))
for name, (s_in, s_out) in scores.items():
    auc, fpr = auroc(s_in, s_out)
    print(f"{name:12s} AUROC {auc:.4f} FPR@95TPR {fpr:.4f} "
          f"in-mean {s_in.mean():.4f} out-mean {s_out.mean():.4f}")
print("energy scores (in):", scores["energy"][0][:5])
print("energy scores (out):", scores["energy"][1][:5])
print("covariance diag:", cov.diagonal()[:6])
