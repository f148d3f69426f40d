# Models: a statistics-homework notebook that evaluates distributions by hand with
# torch.special: Hurwitz zeta and polygamma for the moments of log-gamma variables,
# ndtr / ndtri / log_ndtr for Gaussian tails and quantiles, erfcx for Mills ratios, scaled
# Bessel functions for von Mises normalisers, multigammaln, entr / xlog1py for entropies,
# and the orthogonal polynomials of a Gauss–Hermite style quadrature.
import math

import torch
import torch.special as sp

torch.set_printoptions(precision=6)
x = torch.tensor([1.5, 2.0, 3.0, 10.0], dtype=torch.float64)
print("zeta(x, 1)", sp.zeta(x, 1.0))
print("zeta(2, q)", sp.zeta(2.0, torch.tensor([0.5, 1.0, 2.5, 7.0])))
print("trigamma", sp.polygamma(1, x), "tetragamma", sp.polygamma(2, x.float()))
a = torch.tensor([0.5, 1.0, 4.0])
print("log-gamma var mean/var", sp.digamma(a), sp.polygamma(1, a))
p = torch.tensor([0.001, 0.025, 0.5, 0.8, 0.975, 0.999])
z = sp.ndtri(p)
print("ndtri", z)
print("ndtr(ndtri)", sp.ndtr(z))
t = torch.tensor([-40.0, -10.0, -3.0, 0.0, 3.0, 10.0])
print("log_ndtr", sp.log_ndtr(t))
print("log_ndtr f64", sp.log_ndtr(t.double()))
mills = torch.sqrt(torch.tensor(math.pi / 2)) * sp.erfcx(t[3:] / math.sqrt(2))
print("mills", mills)
print("erfcx negative", sp.erfcx(torch.tensor([-3.0, -0.5, 0.0, 0.5, 30.0, 1e4])))
kappa = torch.tensor([0.1, 1.0, 5.0, 50.0, 500.0])
log_norm = math.log(2 * math.pi) + torch.log(sp.i0e(kappa)) + kappa
print("von Mises log normaliser", log_norm)
print("i1/i0 ratio", sp.i1e(kappa) / sp.i0e(kappa))
print("i1, i0 raw", sp.i1(kappa[:3]), sp.i0(kappa[:3]))
print("modified bessel k0/k1", sp.modified_bessel_k0(kappa[:4]), sp.modified_bessel_k1(kappa[:4]))
print("scaled k0/k1", sp.scaled_modified_bessel_k0(kappa), sp.scaled_modified_bessel_k1(kappa))
print("bessel j0/j1/y0/y1", sp.bessel_j0(kappa[:4]), sp.bessel_j1(kappa[:4]),
      sp.bessel_y0(kappa[:4]), sp.bessel_y1(kappa[:4]))
print("multigammaln", sp.multigammaln(torch.tensor([2.5, 3.0, 10.0]), 3))
probs = torch.tensor([0.0, 0.1, 0.25, 0.5, 1.0])
print("entr", sp.entr(probs), "sum", sp.entr(probs).sum())
print("xlog1py", sp.xlog1py(probs, probs - 0.5), "xlogy", sp.xlogy(probs, probs))
print("sinc", sp.sinc(torch.tensor([0.0, 0.25, 0.5, 1.0, 2.5])))
print("expit/logit", sp.expit(t), sp.logit(probs, eps=1e-6))
small = torch.tensor([1e-10, 1e-3, 1.0])
print("log1p/expm1", sp.log1p(small), sp.expm1(small))
print("exp2", sp.exp2(torch.tensor([-1.5, 0.0, 10.0])))
print("gammaln", sp.gammaln(torch.tensor([0.1, 0.5, 20.0, 171.5])))
print("gammainc/gammaincc", sp.gammainc(a.double(), torch.tensor([0.5, 1.0, 3.0]).double()),
      sp.gammaincc(a, torch.tensor([0.5, 1.0, 3.0])))
nodes = torch.linspace(-2, 2, 5)
for n in range(5):
    print(f"H{n}", sp.hermite_polynomial_h(nodes, n), sp.hermite_polynomial_he(nodes, n))
print("laguerre", sp.laguerre_polynomial_l(torch.tensor([0.5, 2.0]), 3))
print("legendre", sp.legendre_polynomial_p(torch.tensor([-0.5, 0.3, 0.9]), 4))
print("chebyshev T/U", sp.chebyshev_polynomial_t(torch.tensor([0.3, 0.9]), 5),
      sp.chebyshev_polynomial_u(torch.tensor([0.3, 0.9]), 5))
print("airy", sp.airy_ai(torch.tensor([-2.0, 0.0, 1.0, 3.0])))
print("spherical j0", sp.spherical_bessel_j0(torch.tensor([0.0, 0.5, 3.0, 20.0])))
print("softmax/log_softmax", sp.softmax(t[:4], 0), sp.log_softmax(t[:4], 0))
print("logsumexp", sp.logsumexp(t, 0), "round", sp.round(torch.tensor([0.5, 1.5, 2.5, -0.5])))
