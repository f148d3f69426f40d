# Models: a numerical PDE course notebook: the 1-d wave equation with a leapfrog finite-difference
# scheme (CFL condition, energy, reflection at fixed ends), the 2-d heat equation with an explicit
# 5-point Laplacian via conv2d, Crank-Nicolson in 1-d with a tridiagonal solve, and comparison
# with analytic solutions.
import math

import torch
import torch.nn.functional as F

nx = 101
L = 1.0
dx = L / (nx - 1)
c = 1.0
x = torch.linspace(0, L, nx, dtype=torch.float64)
for cfl in [0.5, 1.0]:
    dt = cfl * dx / c
    u_prev = torch.sin(math.pi * x)
    u = u_prev.clone()
    u[1:-1] = u_prev[1:-1] + 0.5 * cfl**2 * (u_prev[2:] - 2 * u_prev[1:-1] + u_prev[:-2])
    steps = int(round(0.5 / dt))
    for _ in range(steps - 1):
        nxt = torch.zeros_like(u)
        nxt[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + cfl**2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, nxt
    t = steps * dt
    exact = torch.sin(math.pi * x) * math.cos(math.pi * c * t)
    print(f"wave CFL={cfl} t={t:.3f} max error {(u - exact).abs().max().item():.3e}")
pulse = torch.exp(-(((x - 0.3) / 0.05) ** 2))
cfl = 0.9
dt = cfl * dx
u_prev, u = pulse.clone(), pulse.clone()
for step in range(1, 300):
    nxt = torch.zeros_like(u)
    nxt[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + cfl**2 * (u[2:] - 2 * u[1:-1] + u[:-2])
    u_prev, u = u, nxt
    if step % 100 == 0:
        print(
            f"pulse step {step}: peak {u.max().item():+.4f} at x={x[u.argmax()].item():.2f}, "
            f"trough {u.min().item():+.4f} at x={x[u.argmin()].item():.2f}"
        )
n = 32
h = 1.0 / (n - 1)
alpha = 1.0
dt = 0.2 * h * h / alpha
g = torch.linspace(0, 1, n, dtype=torch.float64)
T = (torch.sin(math.pi * g)[:, None] * torch.sin(math.pi * g)[None, :]).view(1, 1, n, n)
lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]], dtype=torch.float64).view(
    1, 1, 3, 3
)
steps = 200
for _ in range(steps):
    interior = T[..., 1:-1, 1:-1] + alpha * dt / h**2 * F.conv2d(T, lap)
    T = F.pad(interior, (1, 1, 1, 1))
exact_peak = math.exp(-2 * math.pi**2 * alpha * steps * dt)
print(f"heat 2-d peak {T.max().item():.6f} exact {exact_peak:.6f}")
N = 50
hx = 1.0 / (N + 1)
xi = torch.linspace(hx, 1 - hx, N, dtype=torch.float64)
u = torch.sin(math.pi * xi) + 0.5 * torch.sin(3 * math.pi * xi)
dt = 0.01
r = dt / hx**2
main = torch.full((N,), 1 + r, dtype=torch.float64)
off = torch.full((N - 1,), -r / 2, dtype=torch.float64)
A = torch.diag(main) + torch.diag(off, 1) + torch.diag(off, -1)
B = (
    torch.diag(torch.full((N,), 1 - r, dtype=torch.float64))
    - torch.diag(off, 1)
    - torch.diag(off, -1)
)
LU = torch.linalg.lu_factor(A)
for _ in range(10):
    u = torch.linalg.lu_solve(*LU, (B @ u).unsqueeze(1)).squeeze(1)
t = 10 * dt
exact = math.exp(-(math.pi**2) * t) * torch.sin(math.pi * xi) + 0.5 * math.exp(
    -9 * math.pi**2 * t
) * torch.sin(3 * math.pi * xi)
print(f"Crank-Nicolson t={t} max error {(u - exact).abs().max().item():.3e}")
