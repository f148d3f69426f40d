# Models: sparse identification of nonlinear dynamics (SINDy, Brunton et al. 2016; the
# PySINDy quick-start) on the Lorenz system: a trajectory integrated with RK4 in float64,
# derivatives by central differences (torch.gradient), a polynomial feature library built with
# torch.combinations, sequentially thresholded least squares with torch.linalg.lstsq, and the
# recovered equations printed term by term; then the same fit learned with an L1 penalty.
import itertools

import torch

torch.set_default_dtype(torch.float64)
sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0


def lorenz(s):
    x, y, z = s.unbind(-1)
    return torch.stack([sigma * (y - x), x * (rho - z) - y, x * y - beta * z], -1)


def rk4(f, s, dt, n):
    out = [s]
    for _ in range(n - 1):
        k1 = f(s)
        k2 = f(s + 0.5 * dt * k1)
        k3 = f(s + 0.5 * dt * k2)
        k4 = f(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(s)
    return torch.stack(out)


dt = 0.002
traj = rk4(lorenz, torch.tensor([-8.0, 8.0, 27.0]), dt, 2500)
dX = torch.gradient(traj, spacing=dt, dim=0)[0]
print("trajectory", tuple(traj.shape), "final", traj[-1].tolist())
print("derivative error vs exact", (dX[1:-1] - lorenz(traj[1:-1])).abs().max().item())

names = ["x", "y", "z"]
cols, labels = [torch.ones(len(traj))], ["1"]
for degree in (1, 2):
    for combo in itertools.combinations_with_replacement(range(3), degree):
        cols.append(traj[:, list(combo)].prod(1))
        labels.append("*".join(names[i] for i in combo))
Theta = torch.stack(cols, 1)
pairs = torch.combinations(torch.arange(3), r=2, with_replacement=True)
print("library", labels, "pairs", pairs.tolist())
scale = Theta.norm(dim=0)
Th = Theta / scale


def stlsq(Th, dX, threshold, iters=10):
    Xi = torch.linalg.lstsq(Th, dX).solution
    for it in range(iters):
        small = (Xi / scale[:, None]).abs() < threshold
        Xi[small] = 0
        for k in range(dX.shape[1]):
            big = ~small[:, k]
            Xi[big, k] = torch.linalg.lstsq(Th[:, big], dX[:, k:k + 1]).solution.squeeze(1)
    return Xi / scale[:, None]


Xi = stlsq(Th, dX, threshold=0.1)
for k in range(3):
    terms = [f"{Xi[i, k].item():+.4f} {labels[i]}" for i in range(len(labels)) if Xi[i, k] != 0]
    print(f"d{names[k]}/dt =", " ".join(terms))
print("nonzeros per equation", (Xi != 0).sum(0).tolist())
resid = Theta @ Xi - dX
print("relative residual", (resid.norm() / dX.norm()).item())

torch.manual_seed(0)
dscale = dX.std(0)
rms = Th * len(traj) ** 0.5           # unit root-mean-square features
W = torch.zeros(len(labels), 3, requires_grad=True)
opt = torch.optim.Adam([W], lr=0.05)
for step in range(300):
    idx = torch.randint(0, len(traj), (256,))
    pred = rms[idx] @ W
    loss = (pred - dX[idx] / dscale).pow(2).mean() + 1e-3 * W.abs().sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 99:
        print(f"lasso step {step} loss {loss.item():.6f} |W|_1 {W.abs().sum().item():.4f}")
coef = W.detach() * len(traj) ** 0.5 / scale[:, None] * dscale
print("lasso x-equation", [round(c, 3) for c in coef[:, 0].tolist()])
print("largest lasso terms", [labels[i] for i in coef.abs().sum(1).topk(5).indices.tolist()])
