# Models: a numerical-analysis homework in torch: fixed-point iteration x = cos(x) with its
# linear convergence rate, Aitken's delta-squared acceleration, Newton's method for a system of
# nonlinear equations with the Jacobian from torch.autograd.functional.jacobian, batched Newton
# over many starting points with torch.linalg.solve, and a damped (line-search) Newton variant.
import torch
from torch.autograd.functional import jacobian

torch.set_default_dtype(torch.float64)

x = torch.tensor(1.0)
errs = []
for k in range(30):
    x_new = torch.cos(x)
    errs.append((x_new - x).abs().item())
    x = x_new
print(f"fixed point of cos: {x.item():.12f}")
print("successive error ratios:", [round(errs[i + 1] / errs[i], 4) for i in range(20, 25)])

# Aitken acceleration on the same sequence
seq = [torch.tensor(1.0)]
for _ in range(6):
    seq.append(torch.cos(seq[-1]))
s = torch.stack(seq)
aitken = s[:-2] - (s[1:-1] - s[:-2]) ** 2 / (s[2:] - 2 * s[1:-1] + s[:-2])
print("aitken:", aitken)
print("plain :", s[2:])


def F(v):
    x, y = v[0], v[1]
    return torch.stack([x ** 2 + y ** 2 - 4, torch.exp(x) + y - 1])


v = torch.tensor([1.0, -1.0])
for it in range(8):
    J = jacobian(F, v)
    step = torch.linalg.solve(J, -F(v))
    v = v + step
    print(f"newton it {it}: v = {v.tolist()}, |F| = {torch.linalg.vector_norm(F(v)).item():.3e}")


def F_batched(V):
    x, y = V[:, 0], V[:, 1]
    return torch.stack([x ** 2 + y ** 2 - 4, torch.exp(x) + y - 1], 1)


def J_batched(V):
    x = V[:, 0]
    row0 = torch.stack([2 * V[:, 0], 2 * V[:, 1]], 1)
    row1 = torch.stack([torch.exp(x), torch.ones_like(x)], 1)
    return torch.stack([row0, row1], 1)


starts = torch.tensor([[1.0, -1.0], [-2.0, 1.0], [-1.5, 2.0], [0.5, -2.5], [-0.1, 3.0]])
V = starts.clone()
for _ in range(12):
    V = V - torch.linalg.solve(J_batched(V), F_batched(V).unsqueeze(-1)).squeeze(-1)
print("batched roots:\n", V)
print("residuals:", torch.linalg.vector_norm(F_batched(V), dim=1))
roots = torch.unique(V.round(decimals=6), dim=0)
print("distinct roots:", roots)


# damped Newton on Rosenbrock's gradient
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


p = torch.tensor([-1.2, 1.0])
for it in range(25):
    g = torch.autograd.functional.jacobian(rosen, p)
    H = torch.autograd.functional.hessian(rosen, p)
    d = -torch.linalg.solve(H, g)
    t = 1.0
    while rosen(p + t * d) > rosen(p) + 1e-4 * t * (g @ d):
        t *= 0.5
    p = p + t * d
    if it % 5 == 4 or rosen(p) < 1e-20:
        print(f"it {it}: f = {rosen(p).item():.6e} step {t}")
    if rosen(p) < 1e-20:
        break
print("minimiser:", p)
