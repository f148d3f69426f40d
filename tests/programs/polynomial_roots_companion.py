# Models: polynomial root finding and fitting: roots from companion-matrix eigenvalues,
# Newton and Durand-Kerner iterations on complex tensors, Vandermonde least-squares fits of
# rising degree with cross-validated error, and Chebyshev interpolation.
import math

import torch

dt = torch.float64
coeffs = torch.tensor([1.0, -6.0, 11.0, -6.0, 0.5], dtype=dt)


def companion(c):
    c = c / c[0]
    n = len(c) - 1
    C = torch.zeros(n, n, dtype=c.dtype)
    C[0] = -c[1:]
    C[1:, :-1] = torch.eye(n - 1, dtype=c.dtype)
    return C


def polyval(c, x):
    out = torch.zeros_like(x) + c[0]
    for a in c[1:]:
        out = out * x + a
    return out


roots = torch.linalg.eigvals(companion(coeffs))
roots = roots[torch.argsort(roots.real)]
print("roots", roots)
print("residuals", polyval(coeffs.to(torch.complex128), roots).abs().max().item() < 1e-9)
dcoeffs = coeffs[:-1] * torch.arange(len(coeffs) - 1, 0, -1, dtype=dt)
x = torch.tensor([0.0, 2.2, 5.0], dtype=dt)
for it in range(8):
    x = x - polyval(coeffs, x) / polyval(dcoeffs, x)
print("newton from 0, 2.2, 5:", x)

n = len(coeffs) - 1
z = (0.4 + 0.9j) ** torch.arange(n, dtype=dt).to(torch.complex128)
c = (coeffs / coeffs[0]).to(torch.complex128)
for it in range(60):
    num = polyval(c, z)
    den = torch.stack([torch.prod(z[i] - torch.cat([z[:i], z[i + 1 :]])) for i in range(n)])
    z = z - num / den
print("durand-kerner", z[torch.argsort(z.real)])
print("agree with eig", torch.allclose(z[torch.argsort(z.real)], roots))

torch.manual_seed(0)
xs = torch.linspace(-1, 1, 40, dtype=dt)
ys = torch.sin(3 * xs) + 0.1 * torch.randn(40, dtype=dt)
perm = torch.randperm(40)
folds = perm.chunk(5)
for deg in (1, 3, 5, 9, 15):
    V = torch.linalg.vander(xs, N=deg + 1)
    errs = []
    for k in range(5):
        test = folds[k]
        train = torch.cat([folds[j] for j in range(5) if j != k])
        sol = torch.linalg.lstsq(V[train], ys[train].unsqueeze(1), driver="gelsd").solution
        errs.append(((V[test] @ sol).squeeze(1) - ys[test]).pow(2).mean())
    cond = torch.linalg.cond(V).item()
    print(f"degree {deg:2d} cv mse {torch.stack(errs).mean().item():.5f} cond(V) {cond:.3e}")

m = 9
k = torch.arange(m, dtype=dt)
nodes = torch.cos(math.pi * (k + 0.5) / m)
f = torch.exp(nodes) * torch.sin(2 * nodes)
T = torch.special.chebyshev_polynomial_t(nodes[:, None], k[None, :].long())
cheb = torch.linalg.solve(T, f)
print("chebyshev coefficients", cheb)
grid = torch.linspace(-1, 1, 101, dtype=dt)
approx = torch.special.chebyshev_polynomial_t(grid[:, None], k[None, :].long()) @ cheb
print(
    "max interpolation error", (approx - torch.exp(grid) * torch.sin(2 * grid)).abs().max().item()
)
