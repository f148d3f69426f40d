# Models: a regularization recipe combining mixup with label smoothing: Beta-distributed mixing
# weights, permuted partners, soft targets built with one_hot and lerp, cross_entropy with
# probability targets vs the two-term mixup loss, and a short training loop.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(10)
X = torch.randn(32, 6)
y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
beta = torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4))
eps = 0.1
for epoch in range(6):
    lam = beta.sample()
    perm = torch.randperm(32)
    xm = lam * X + (1 - lam) * X[perm]
    soft = F.one_hot(y, 3).float().lerp(torch.full((32, 3), 1 / 3), eps)
    target = lam * soft + (1 - lam) * soft[perm]
    logits = model(xm)
    loss = F.cross_entropy(logits, target)
    two_term = lam * F.cross_entropy(logits, y, label_smoothing=eps) + (1 - lam) * \
        F.cross_entropy(logits, y[perm], label_smoothing=eps)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} lam {lam.item():.4f} loss {loss.item():.6f} two-term "
          f"{two_term.item():.6f}")
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean()
print("train acc", acc.item(), "class counts", torch.bincount(y).tolist())
