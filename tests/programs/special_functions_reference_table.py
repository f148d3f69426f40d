# Models: a "special functions cheat sheet" notebook printing torch.special values on a grid and
# checking identities: gamma family (gammaln, digamma, polygamma, multigammaln), incomplete gamma,
# erf family and inverses, Bessel functions, log-sum-exp style helpers (logit, expit, xlogy,
# xlog1py, log_softmax, logsumexp), sinc, entr, zeta, ndtr/ndtri/log_ndtr, and orthogonal
# polynomials.
import math

import torch
import torch.special as sp

torch.set_printoptions(precision=6)
x = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.0], dtype=torch.float64)
print("gammaln", sp.gammaln(x))
print("digamma", sp.digamma(x))
print("polygamma 1,2", sp.polygamma(1, x), sp.polygamma(2, x))
print("multigammaln p=3", sp.multigammaln(x + 2, 3))
print("gammainc", sp.gammainc(x, torch.full_like(x, 1.5)))
print("gammaincc", sp.gammaincc(x, torch.full_like(x, 1.5)))
print(
    "identity gammainc + gammaincc = 1",
    torch.allclose(sp.gammainc(x, x) + sp.gammaincc(x, x), torch.ones_like(x)),
)
z = torch.linspace(-2, 2, 5, dtype=torch.float64)
print("erf", sp.erf(z), "\nerfc", sp.erfc(z), "\nerfcx", sp.erfcx(z))
print("erfinv(erf(z)) == z", torch.allclose(sp.erfinv(sp.erf(z)), z))
print("ndtr", sp.ndtr(z), "\nlog_ndtr", sp.log_ndtr(z))
p = torch.tensor([0.001, 0.1, 0.5, 0.9, 0.999], dtype=torch.float64)
print("ndtri", sp.ndtri(p))
print("logit/expit", sp.logit(p), sp.expit(sp.logit(p)))
print("logit eps", sp.logit(torch.tensor([0.0, 1.0], dtype=torch.float64), eps=1e-6))
print("bessel i0 i0e i1 i1e", sp.i0(x), sp.i0e(x), sp.i1(x), sp.i1e(x), sep="\n")
print("bessel_j0 j1", sp.bessel_j0(x), sp.bessel_j1(x))
print("bessel_y0 y1", sp.bessel_y0(x), sp.bessel_y1(x))
print("modified_bessel k0 k1", sp.modified_bessel_k0(x), sp.modified_bessel_k1(x))
print("scaled k0 k1", sp.scaled_modified_bessel_k0(x), sp.scaled_modified_bessel_k1(x))
print("spherical_bessel_j0", sp.spherical_bessel_j0(x))
print(
    "xlogy",
    sp.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])),
    "xlog1py",
    sp.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 3.0])),
)
print("entr", sp.entr(torch.tensor([0.0, 0.25, 1.0, -1.0])))
print("sinc", sp.sinc(torch.tensor([0.0, 0.5, 1.0, 1.5])))
print(
    "zeta", sp.zeta(torch.tensor([2.0, 4.0]), torch.tensor([1.0, 1.0])), "pi^2/6 =", math.pi**2 / 6
)
print(
    "log1p expm1 exp2 expit",
    sp.log1p(torch.tensor([1e-10])),
    sp.expm1(torch.tensor([1e-10])),
    sp.exp2(torch.tensor([10.0])),
)
v = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0]])
print(
    "logsumexp",
    sp.logsumexp(v, 1),
    "softmax",
    sp.softmax(v, 1),
    "log_softmax",
    sp.log_softmax(v, 1),
    sep="\n",
)
print("round", sp.round(torch.tensor([2.5, 3.5])))
t = torch.linspace(-1, 1, 5, dtype=torch.float64)
for n in range(4):
    print(f"n={n}", "T", sp.chebyshev_polynomial_t(t, n), "U", sp.chebyshev_polynomial_u(t, n))
    print("     H", sp.hermite_polynomial_h(t, n), "He", sp.hermite_polynomial_he(t, n))
    print("     P", sp.legendre_polynomial_p(t, n), "L", sp.laguerre_polynomial_l(t, n))
print("airy_ai", sp.airy_ai(torch.tensor([-1.0, 0.0, 1.0], dtype=torch.float64)))
g = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
(sp.gammaln(g).sum() + sp.erf(g).sum() + sp.i0(g).sum()).backward()
print("grads", g.grad)
print(
    "float32 dtype kept",
    sp.erfinv(torch.tensor([0.5])).dtype,
    sp.ndtri(torch.tensor([0.5], dtype=torch.float64)).dtype,
    sp.i0(torch.tensor([1])).dtype,
)
