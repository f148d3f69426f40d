# Models: a scientific-computing course exercise: the 2-D Poisson equation solved by Jacobi and
# red-black Gauss-Seidel sweeps written with conv2d stencils and slicing, a two-grid V-cycle
# with avg_pool2d restriction and bilinear interpolate prolongation, the dense solve with
# torch.linalg.solve on the Kronecker-sum Laplacian, and residual norms per iteration.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
n = 15
h = 1.0 / (n + 1)
xs = torch.linspace(h, 1 - h, n)
X, Y = torch.meshgrid(xs, xs, indexing="ij")
f = 2 * torch.pi ** 2 * torch.sin(torch.pi * X) * torch.sin(torch.pi * Y)
u_exact = torch.sin(torch.pi * X) * torch.sin(torch.pi * Y)
lap_kernel = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)


def apply_A(u):
    return -F.conv2d(F.pad(u[None, None], (1, 1, 1, 1)), lap_kernel)[0, 0] / h ** 2


def residual(u, rhs):
    return rhs - apply_A(u)


def jacobi(u, rhs, iters, omega=2 / 3):
    nb = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
    for _ in range(iters):
        s = F.conv2d(F.pad(u[None, None], (1, 1, 1, 1)), nb)[0, 0]
        u = (1 - omega) * u + omega * (s + h ** 2 * rhs) / 4
    return u


def red_black(u, rhs, iters):
    u = u.clone()
    idx = torch.arange(n)
    red = ((idx[:, None] + idx[None, :]) % 2 == 0)
    nb = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
    for _ in range(iters):
        for mask in (red, ~red):
            s = F.conv2d(F.pad(u[None, None], (1, 1, 1, 1)), nb)[0, 0]
            u = torch.where(mask, (s + h ** 2 * rhs) / 4, u)
    return u


u0 = torch.zeros(n, n)
for it in (10, 50, 200):
    uj = jacobi(u0, f, it)
    ug = red_black(u0, f, it)
    print(f"{it:4d} sweeps: jacobi res {residual(uj, f).norm():.6e} "
          f"err {(uj - u_exact).abs().max():.6e}"
          f" | gs res {residual(ug, f).norm():.6e}")

I = torch.eye(n)
T = (torch.diag(torch.full((n,), 2.0)) - torch.diag(torch.ones(n - 1), 1)
     - torch.diag(torch.ones(n - 1), -1)) / h ** 2
A = torch.kron(T, I) + torch.kron(I, T)
print("A:", A.shape, "symmetric:", torch.allclose(A, A.T), "cond:", torch.linalg.cond(A).item())
u_direct = torch.linalg.solve(A, f.reshape(-1)).reshape(n, n)
print("direct err:", (u_direct - u_exact).abs().max().item(),
      "residual:", residual(u_direct, f).norm().item())
L = torch.linalg.cholesky(A)
u_chol = torch.cholesky_solve(f.reshape(-1, 1), L).reshape(n, n)
print("cholesky agrees:", torch.allclose(u_chol, u_direct))
evals = torch.linalg.eigvalsh(A)
print("smallest eigs:", evals[:3],
      "analytic:", 8 / h ** 2 * torch.sin(torch.tensor(torch.pi * h / 2)) ** 2)


def two_grid(u, rhs):
    u = jacobi(u, rhs, 3)
    r = residual(u, rhs)
    rc = F.avg_pool2d(F.pad(r, (0, 1, 0, 1))[None, None], 2)[0, 0]
    nc = rc.shape[0]
    hc = 1.0 / (nc + 1)
    Tc = (torch.diag(torch.full((nc,), 2.0)) - torch.diag(torch.ones(nc - 1), 1)
          - torch.diag(torch.ones(nc - 1), -1)) / hc ** 2
    Ac = torch.kron(Tc, torch.eye(nc)) + torch.kron(torch.eye(nc), Tc)
    ec = torch.linalg.solve(Ac, rc.reshape(-1)).reshape(1, 1, nc, nc)
    e = F.interpolate(ec, size=(n, n), mode="bilinear", align_corners=True)[0, 0]
    return jacobi(u + e, rhs, 3)


u = torch.zeros(n, n)
for cycle in range(5):
    u = two_grid(u, f)
    print(f"V-cycle {cycle}: residual {residual(u, f).norm().item():.6e}")
torch.set_default_dtype(torch.float32)
