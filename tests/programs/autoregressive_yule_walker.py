# Models: classical time-series analysis: sample autocorrelation by FFT, an AR(p) model fitted
# by Yule-Walker (Toeplitz solve), Levinson-Durbin partial autocorrelations, least squares,
# order selection by AIC and multi-step forecasts.
import math

import torch

torch.manual_seed(0)
dt = torch.float64
true_phi = torch.tensor([0.6, -0.3, 0.2], dtype=dt)
n, p_true = 600, 3
e = torch.randn(n + 100, dtype=dt) * 0.5
x = torch.zeros(n + 100, dtype=dt)
for t in range(p_true, n + 100):
    x[t] = (true_phi * x[t - p_true : t].flip(0)).sum() + e[t]
x = x[100:]
print("series mean", x.mean().item(), "var", x.var().item())


def acf_fft(x, nlags):
    xc = x - x.mean()
    nfft = 1 << (2 * len(x) - 1).bit_length()
    f = torch.fft.rfft(xc, n=nfft)
    ac = torch.fft.irfft(f * f.conj(), n=nfft)[: nlags + 1]
    return ac / ac[0]


def acf_direct(x, nlags):
    xc = x - x.mean()
    denom = (xc * xc).sum()
    return torch.stack([(xc[: len(x) - k] * xc[k:]).sum() / denom for k in range(nlags + 1)])


r = acf_fft(x, 10)
print("acf", r)
print("fft == direct:", torch.allclose(r, acf_direct(x, 10)))


def levinson_durbin(r, order):
    phi = torch.zeros(order, dtype=r.dtype)
    pacf = torch.zeros(order, dtype=r.dtype)
    sigma = r[0].item()
    for k in range(order):
        acc = r[k + 1] - (phi[:k] * r[1 : k + 1].flip(0)).sum()
        kappa = acc / sigma
        new = phi.clone()
        new[k] = kappa
        new[:k] = phi[:k] - kappa * phi[:k].flip(0)
        phi = new
        pacf[k] = kappa
        sigma *= 1 - kappa.item() ** 2
    return phi, pacf, sigma


phi_ld, pacf, s2 = levinson_durbin(r, 6)
print("pacf", pacf)
idx = torch.arange(3)
T = r[(idx[:, None] - idx[None, :]).abs()]
print("toeplitz\n", T)
phi_yw = torch.linalg.solve(T, r[1:4])
print("yule-walker phi", phi_yw, "levinson (order 3)", levinson_durbin(r, 3)[0])

for p in range(1, 7):
    X = torch.stack([x[p - k - 1 : n - k - 1] for k in range(p)], 1)
    y = x[p:]
    sol = torch.linalg.lstsq(X, y.unsqueeze(1)).solution.squeeze(1)
    resid = y - X @ sol
    sigma2 = (resid**2).mean()
    aic = len(y) * math.log(sigma2.item()) + 2 * p
    print(
        f"p={p} aic={aic:.3f} sigma2={sigma2.item():.5f} phi={[round(v, 4) for v in sol.tolist()]}"
    )

phi = phi_yw
hist = x[-3:].clone()
fc = []
for h in range(8):
    nxt = (phi * hist.flip(0)).sum()
    fc.append(nxt.item())
    hist = torch.cat([hist[1:], nxt.view(1)])
print("forecast", torch.tensor(fc, dtype=dt))
psi = torch.zeros(8, dtype=dt)
psi[0] = 1
for j in range(1, 8):
    psi[j] = sum(phi[i] * psi[j - i - 1] for i in range(min(j, 3)))
print("forecast std", (x.var() * (1 - (phi_yw * r[1:4]).sum()) * torch.cumsum(psi**2, 0)).sqrt())
roots = torch.linalg.eigvals(torch.cat([phi.view(1, 3), torch.eye(2, 3, dtype=dt)]))
print(
    "companion eigenvalue moduli",
    roots.abs().sort().values,
    "stationary:",
    bool((roots.abs() < 1).all()),
)
