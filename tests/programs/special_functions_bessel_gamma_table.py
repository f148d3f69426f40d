# Models: a scientific-computing reference cell printing torch.special functions on a grid:
# Bessel I0/I1 (and scaled), J0/J1/Y0/Y1, modified K0/K1, gammaln/digamma/polygamma,
# multigammaln, erfcx, ndtr/ndtri/log_ndtr, sinc, xlog1py, zeta, and a few gradients.
import torch
import torch.special as S

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 5.0, 10.0], dtype=torch.float64)
rows = {
    "i0": S.i0(x), "i0e": S.i0e(x), "i1": S.i1(x), "i1e": S.i1e(x),
    "j0": S.bessel_j0(x), "j1": S.bessel_j1(x), "y0": S.bessel_y0(x), "y1": S.bessel_y1(x),
    "k0": S.modified_bessel_k0(x), "k1": S.modified_bessel_k1(x),
    "k0e": S.scaled_modified_bessel_k0(x), "gammaln": S.gammaln(x), "digamma": S.digamma(x),
    "trigamma": S.polygamma(1, x), "erfcx": S.erfcx(x), "ndtr": S.ndtr(x - 2),
    "log_ndtr": S.log_ndtr(-x), "sinc": S.sinc(x), "xlog1py": S.xlog1py(x, x),
    "zeta": S.zeta(x + 1, torch.tensor(1.0, dtype=torch.float64)),
    "entr": S.entr(x / 10), "expit": S.expit(x - 2), "erfinv": S.erfinv(x / 11),
}
for name, v in rows.items():
    print(f"{name:9s}", v)
print("ndtri", S.ndtri(torch.tensor([0.025, 0.5, 0.975], dtype=torch.float64)))
print("multigammaln", S.multigammaln(torch.tensor([2.5, 4.0], dtype=torch.float64), 3))
print("float32 i0", S.i0(x.float()), "log1p", S.log1p(x.float()))
print("gammainc", S.gammainc(x, x / 2), S.gammaincc(x, x / 2))
xr = x.clone().requires_grad_()
(S.i0(xr) + S.gammaln(xr) + S.erfcx(xr)).sum().backward()
print("grad", xr.grad)
print("round", S.round(torch.tensor([0.5, 1.5, 2.5])), S.exp2(torch.tensor([3.0])))
