# Models: a mathematical-physics course notebook using torch.special's orthogonal polynomials
# and Bessel functions: harmonic-oscillator eigenfunctions from Hermite polynomials and their
# orthonormality by the trapezoid rule, Gauss-Legendre nodes by Golub-Welsch (eigvalsh of the
# Jacobi matrix) checked against legendre_polynomial_p, a Chebyshev interpolant of a smooth
# function, hydrogen radial functions from Laguerre polynomials, drum-mode frequencies from the
# zeros of J0 found by bisection, and a Kaiser window built from the modified Bessel I0.
import math

import torch

torch.set_default_dtype(torch.float64)
x = torch.linspace(-8, 8, 801)


def oscillator(n, x):
    norm = 1.0 / math.sqrt(2.0**n * math.factorial(n)) * math.pi**-0.25
    return norm * torch.special.hermite_polynomial_h(x, n) * torch.exp(-(x**2) / 2)


psi = torch.stack([oscillator(n, x) for n in range(6)])
gram = torch.stack([torch.trapezoid(psi[i] * psi, x, dim=-1) for i in range(6)])
print("hermite H_3 at 0.5:", torch.special.hermite_polynomial_h(torch.tensor(0.5), 3).item())
print("He_4 at [0, 1, 2]:", torch.special.hermite_polynomial_he(torch.tensor([0.0, 1.0, 2.0]), 4))
print("oscillator gram diag", gram.diagonal())
print("max off-diagonal", (gram - torch.diag(gram.diagonal())).abs().max().item() < 1e-10)
energy = [
    torch.trapezoid(
        0.5 * torch.gradient(psi[n], spacing=(x,))[0] ** 2 + 0.5 * x**2 * psi[n] ** 2, x
    ).item()
    for n in range(4)
]
print("energies", [round(e, 4) for e in energy])

N = 6
k = torch.arange(1, N, dtype=torch.float64)
beta = k / torch.sqrt(4 * k**2 - 1)
J = torch.diag(beta, 1) + torch.diag(beta, -1)
nodes, vecs = torch.linalg.eigh(J)
weights = 2 * vecs[0] ** 2
print("gauss-legendre nodes", nodes)
print("weights", weights, "sum", weights.sum().item())
print("P_6 at the nodes", torch.special.legendre_polynomial_p(nodes, N).abs().max().item() < 1e-12)
for deg in (4, 10, 11, 12):
    exact = 2.0 / (deg + 1) if deg % 2 == 0 else 0.0
    approx = (weights * nodes**deg).sum().item()
    print(f"int x^{deg} exact {exact:.6f} quadrature {approx:.6f}")
xs = torch.linspace(-1, 1, 7)
print(
    "legendre P_0..P_4\n",
    torch.stack([torch.special.legendre_polynomial_p(xs, n) for n in range(5)]),
)


def f(t):
    return torch.exp(t) * torch.sin(3 * t)


M = 12
theta = (torch.arange(M, dtype=torch.float64) + 0.5) * math.pi / M
cheb_nodes = torch.cos(theta)
fvals = f(cheb_nodes)
coef = torch.stack([2.0 / M * (fvals * torch.cos(j * theta)).sum() for j in range(M)])
coef[0] /= 2
print("chebyshev coefficients", coef[:6])
grid = torch.linspace(-1, 1, 9)
approx = sum(c * torch.special.chebyshev_polynomial_t(grid, j) for j, c in enumerate(coef))
print("interpolant error", (approx - f(grid)).abs().max().item())
print(
    "T_n via cos(n acos x):",
    torch.allclose(torch.special.chebyshev_polynomial_t(grid, 9), torch.cos(9 * torch.acos(grid))),
)
print(
    "U_3, V_3, W_3 at 0.3:",
    [
        getattr(torch.special, f"chebyshev_polynomial_{k}")(torch.tensor(0.3), 3).item()
        for k in "uvw"
    ],
)
print(
    "shifted T_3 at [0, 0.25, 1]:",
    torch.special.shifted_chebyshev_polynomial_t(torch.tensor([0.0, 0.25, 1.0]), 3),
)

r = torch.linspace(0.0, 30.0, 3001)


def hydrogen_radial(n, r):
    rho = 2 * r / n
    return (
        torch.sqrt(torch.tensor((2.0 / n) ** 3 / (2 * n)))
        * torch.exp(-rho / 2)
        * torch.special.laguerre_polynomial_l(rho, n - 1)
    )


for n in (1, 2, 3):
    R = hydrogen_radial(n, r)
    print(
        f"n={n} norm {torch.trapezoid(R**2 * r**2, r).item():.5f} <r> "
        f"{torch.trapezoid(R**2 * r**3, r).item():.4f} nodes {int(((R[1:] * R[:-1]) < 0).sum())}"
    )
print("L_3 at [0, 1, 2]:", torch.special.laguerre_polynomial_l(torch.tensor([0.0, 1.0, 2.0]), 3))


def bisect(fn, lo, hi, iters=60):
    for _ in range(iters):
        mid = (lo + hi) / 2
        flip = fn(lo) * fn(mid) <= 0
        hi = torch.where(flip, mid, hi)
        lo = torch.where(flip, lo, mid)
    return (lo + hi) / 2


grid = torch.linspace(0.1, 15, 300)
vals = torch.special.bessel_j0(grid)
idx = torch.nonzero(vals[1:] * vals[:-1] < 0).flatten()
zeros = bisect(torch.special.bessel_j0, grid[idx], grid[idx + 1])
print("zeros of J0", zeros)
print("drum frequency ratios", zeros / zeros[0])
print("J1 at those zeros", torch.special.bessel_j1(zeros))
print(
    "Y0, Y1 at [0.5, 2, 9]:",
    torch.special.bessel_y0(torch.tensor([0.5, 2.0, 9.0])),
    torch.special.bessel_y1(torch.tensor([0.5, 2.0, 9.0])),
)
print(
    "spherical j0 vs sinc:",
    torch.special.spherical_bessel_j0(torch.tensor([0.0, 0.3, 2.0, 7.5])),
    torch.sinc(torch.tensor([0.0, 0.3, 2.0, 7.5]) / math.pi),
)

Lw, beta_k = 11, 6.0
n = torch.arange(Lw, dtype=torch.float64)
arg = beta_k * torch.sqrt(1 - (2 * n / (Lw - 1) - 1) ** 2)
kaiser = torch.special.modified_bessel_i0(arg) / torch.special.modified_bessel_i0(
    torch.tensor(beta_k)
)
print("kaiser window", kaiser)
print(
    "matches torch.kaiser_window:",
    torch.allclose(kaiser, torch.kaiser_window(Lw, periodic=False, beta=beta_k)),
)
print("I1 at [-2, 0.5, 9]:", torch.special.modified_bessel_i1(torch.tensor([-2.0, 0.5, 9.0])))

x32 = torch.linspace(-1, 1, 5, dtype=torch.float32)
print(
    torch.special.chebyshev_polynomial_t(x32, 4),
    torch.special.legendre_polynomial_p(x32, torch.tensor([0, 1, 2, 3, 4])),
)
print(
    torch.special.bessel_j0(torch.arange(4)).dtype,
    torch.special.hermite_polynomial_h(x32, 2.0).dtype,
)
