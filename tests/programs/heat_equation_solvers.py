# Models: scientific-computing notebooks that use PyTorch as an array library: the 2-D heat
# equation by explicit finite differences (a 5-point Laplacian as conv2d with replicate
# padding, the CFL stability limit), the 1-D implicit (backward Euler) scheme with a
# tridiagonal matrix and linalg.solve / lu_factor + lu_solve, Crank-Nicolson, matrix_exp for
# the exact semi-discrete solution, and an inverse problem recovering the diffusivity by
# autograd through the solver.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

N = 16
h = 1.0 / (N - 1)
lap_kernel = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
yy, xx = torch.meshgrid(torch.linspace(0, 1, N), torch.linspace(0, 1, N), indexing="ij")
u0 = torch.exp(-((xx - 0.5) ** 2 + (yy - 0.5) ** 2) / 0.02).view(1, 1, N, N)
print("initial mass:", u0.sum() * h * h, "peak:", u0.max())


def explicit_step(u, alpha, dt):
    lap = F.conv2d(F.pad(u, (1, 1, 1, 1), mode="replicate"), lap_kernel) / h**2
    return u + alpha * dt * lap


alpha = 0.1
dt_max = h**2 / (4 * alpha)
print(f"CFL limit dt <= {dt_max:.6f}")
for factor, label in [(0.9, "stable"), (1.5, "unstable")]:
    u = u0.clone()
    for _ in range(60):
        u = explicit_step(u, alpha, factor * dt_max)
    print(
        f"{label}: max {u.max().item():.6f} min {u.min().item():.6f} "
        f"mass {(u.sum() * h * h).item():.6f}"
    )

# ---- 1-D implicit schemes ----------------------------------------------------------------------
n = 20
dx = 1.0 / (n + 1)
x = torch.linspace(dx, 1 - dx, n)
v0 = torch.sin(math.pi * x) + 0.5 * torch.sin(3 * math.pi * x)
L = (
    torch.diag(torch.full((n,), -2.0))
    + torch.diag(torch.ones(n - 1), 1)
    + torch.diag(torch.ones(n - 1), -1)
) / dx**2
print("Laplacian eigenvalue range:", torch.linalg.eigvalsh(L)[[0, -1]])
dt, steps, k = 0.01, 10, 0.05
A_be = torch.eye(n) - dt * k * L
LU, pivots = torch.linalg.lu_factor(A_be)
v_be = v0.clone()
v_be2 = v0.clone()
for _ in range(steps):
    v_be = torch.linalg.solve(A_be, v_be)
    v_be2 = torch.linalg.lu_solve(LU, pivots, v_be2.unsqueeze(1)).squeeze(1)
print("backward Euler: solve vs lu_solve equal:", torch.allclose(v_be, v_be2))
A_cn = torch.eye(n) - 0.5 * dt * k * L
B_cn = torch.eye(n) + 0.5 * dt * k * L
v_cn = v0.clone()
for _ in range(steps):
    v_cn = torch.linalg.solve(A_cn, B_cn @ v_cn)
v_exact = torch.linalg.matrix_exp(dt * steps * k * L) @ v0
v_analytic = torch.exp(torch.tensor(-k * math.pi**2 * dt * steps)) * torch.sin(
    math.pi * x
) + 0.5 * torch.exp(torch.tensor(-9 * k * math.pi**2 * dt * steps)) * torch.sin(3 * math.pi * x)
for name, v in [("backward Euler", v_be), ("Crank-Nicolson", v_cn), ("matrix_exp", v_exact)]:
    print(f"{name:15s} error vs analytic {(v - v_analytic).abs().max().item():.3e}")
print("lu pivots:", pivots[:6].tolist(), pivots.dtype)
P, Lf, U = torch.linalg.lu(A_be)
print("P L U reconstructs:", torch.allclose(P @ Lf @ U, A_be), "cond:", torch.linalg.cond(A_be))

# ---- inverse problem: recover the diffusivity -------------------------------------------------
k_true = 0.08
obs = torch.linalg.matrix_exp(0.1 * k_true * L) @ v0 + 1e-3 * torch.randn(n)
log_k = torch.tensor(math.log(0.02), requires_grad=True)
opt = torch.optim.Adam([log_k], lr=0.1)
for it in range(60):
    kk = log_k.exp()
    v = v0
    A = torch.eye(n) - 0.01 * kk * L
    for _ in range(10):
        v = torch.linalg.solve(A, v)
    loss = (v - obs).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 20 == 19:
        print(f"inverse it {it + 1} loss {loss.item():.3e} k {log_k.exp().item():.5f}")
