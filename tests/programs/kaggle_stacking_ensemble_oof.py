# Models: a Kaggle "stacking" notebook: three level-1 models (ridge regression in closed form
# with torch.linalg.solve, a small MLP, and k-nearest-neighbours with torch.cdist and topk)
# trained on 5 folds to produce out-of-fold predictions, a level-2 non-negative blend fitted by
# projected gradient descent on the OOF matrix, and the RMSE of each model and of the blend.
import torch
from torch import nn

torch.manual_seed(2)
n, d = 400, 6
X = torch.randn(n, d)
y = X[:, 0] * 2 - X[:, 1] + torch.sin(3 * X[:, 2]) + 0.5 * X[:, 3] * X[:, 4] + 0.3 * torch.randn(n)
X_test = torch.randn(100, d)
y_test = (X_test[:, 0] * 2 - X_test[:, 1] + torch.sin(3 * X_test[:, 2])
          + 0.5 * X_test[:, 3] * X_test[:, 4])


def ridge(Xtr, ytr, Xte, lam=1.0):
    A = torch.cat([Xtr, torch.ones(len(Xtr), 1)], 1)
    w = torch.linalg.solve(A.T @ A + lam * torch.eye(A.shape[1]), A.T @ ytr)
    return torch.cat([Xte, torch.ones(len(Xte), 1)], 1) @ w


def mlp(Xtr, ytr, Xte):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(d, 32), nn.SiLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for _ in range(150):
        loss = nn.functional.mse_loss(net(Xtr).squeeze(1), ytr)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return net(Xte).squeeze(1)


def knn(Xtr, ytr, Xte, k=7):
    dist = torch.cdist(Xte, Xtr)
    d_k, idx = dist.topk(k, largest=False)
    w = 1 / (d_k + 1e-6)
    return (ytr[idx] * w).sum(1) / w.sum(1)


models = {"ridge": ridge, "mlp": mlp, "knn": knn}
folds = torch.randperm(n).chunk(5)
oof = torch.zeros(n, len(models))
test_preds = torch.zeros(len(X_test), len(models))
for k, va in enumerate(folds):
    tr = torch.cat([f for j, f in enumerate(folds) if j != k])
    for m, fn in enumerate(models.values()):
        pred = fn(X[tr], y[tr], torch.cat([X[va], X_test]))
        oof[va, m] = pred[:len(va)]
        test_preds[:, m] += pred[len(va):] / len(folds)


def rmse(a, b):
    return ((a - b) ** 2).mean().sqrt().item()


for m, name in enumerate(models):
    print(f"{name:<6} OOF RMSE {rmse(oof[:, m], y):.4f} "
          f"test RMSE {rmse(test_preds[:, m], y_test):.4f}")
print("OOF correlation\n", torch.corrcoef(oof.T))

w = torch.full((len(models),), 1 / len(models))
lr = 0.05
for it in range(300):
    grad = 2 * oof.T @ (oof @ w - y) / n
    w = (w - lr * grad).clamp(min=0)
print("blend weights", w, "sum", w.sum().item())
print(f"blend OOF RMSE {rmse(oof @ w, y):.4f} test RMSE {rmse(test_preds @ w, y_test):.4f}")
print(f"simple average test RMSE {rmse(test_preds.mean(1), y_test):.4f}")
lstsq = torch.linalg.lstsq(oof, y.unsqueeze(1)).solution.squeeze(1)
print("unconstrained least-squares weights", lstsq)
