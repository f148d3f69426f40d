# Models: explainability tutorials (Captum-style, written by hand): vanilla saliency,
# gradient x input, integrated gradients with a Riemann trapezoid path and its completeness
# check, SmoothGrad with Gaussian noise, occlusion by feature masking, permutation feature
# importance, and a comparison of the rankings each method gives on a tabular model whose
# true relevant features are known.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D = 512, 8
X = torch.randn(N, D)
# features 0, 1 and 2 matter (with an interaction); the rest are noise
logit = 2.0 * X[:, 0] - 1.5 * X[:, 1] + X[:, 0] * X[:, 2]
y = (logit + 0.3 * torch.randn(N) > 0).float()
model = nn.Sequential(nn.Linear(D, 32), nn.Tanh(), nn.Linear(32, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(150):
    loss = F.binary_cross_entropy_with_logits(model(X).squeeze(1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        acc = ((model(X).squeeze(1) > 0).float() == y).float().mean()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.4f}")
model.eval()
for p in model.parameters():
    p.requires_grad_(False)
f = lambda x: model(x).squeeze(-1)  # noqa: E731

x = X[:4].clone()
baseline = torch.zeros_like(x)


def saliency(x):
    x = x.clone().requires_grad_()
    f(x).sum().backward()
    return x.grad


def integrated_gradients(x, baseline, steps=32):
    alphas = torch.linspace(0, 1, steps + 1)
    path = baseline[None] + alphas[:, None, None] * (x - baseline)[None]
    path.requires_grad_()
    f(path).sum().backward()
    grads = path.grad
    avg = (grads[:-1] + grads[1:]).mean(0) / 2
    return (x - baseline) * avg


def smoothgrad(x, n=25, sigma=0.2, gen=None):
    noisy = x[None] + sigma * torch.randn(n, *x.shape, generator=gen)
    noisy.requires_grad_()
    f(noisy).sum().backward()
    return noisy.grad.mean(0)


def occlusion(x, baseline):
    base = f(x)
    out = torch.zeros_like(x)
    for j in range(D):
        xo = x.clone()
        xo[:, j] = baseline[:, j]
        out[:, j] = base - f(xo)
    return out


sal = saliency(x)
ig = integrated_gradients(x, baseline)
sg = smoothgrad(x, gen=torch.Generator().manual_seed(1))
occ = occlusion(x, baseline)
torch.set_printoptions(precision=3, sci_mode=False)
print("saliency:\n", sal)
print("gradient x input:\n", sal * x)
print("integrated gradients:\n", ig)
print("completeness: sum IG", ig.sum(1), "vs f(x)-f(0)", f(x) - f(baseline))
print("smoothgrad:\n", sg)
print("occlusion:\n", occ)

gen = torch.Generator().manual_seed(2)
base_acc = ((f(X) > 0).float() == y).float().mean()
importance = torch.zeros(D)
for j in range(D):
    drops = []
    for _ in range(5):
        Xp = X.clone()
        Xp[:, j] = X[torch.randperm(N, generator=gen), j]
        drops.append(base_acc - ((f(Xp) > 0).float() == y).float().mean())
    importance[j] = torch.stack(drops).mean()
print("permutation importance:", importance)
global_ig = integrated_gradients(X[:64], torch.zeros(64, D)).abs().mean(0)
print("mean |IG|:", global_ig)
for name, score in [("saliency", sal.abs().mean(0)), ("IG", global_ig),
                    ("permutation", importance)]:
    print(f"{name:12s} top-3 features:", score.argsort(descending=True)[:3].tolist())
