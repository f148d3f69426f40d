# Models: isotonic regression by pool-adjacent-violators, used to calibrate a classifier's
# scores, with piecewise-linear interpolation through torch.searchsorted.
import torch

torch.manual_seed(0)


def pav(y, w=None):
    y = y.double()
    w = torch.ones_like(y) if w is None else w.double()
    vals, wts, counts = [], [], []
    for yi, wi in zip(y.tolist(), w.tolist()):
        vals.append(yi)
        wts.append(wi)
        counts.append(1)
        while len(vals) > 1 and vals[-2] > vals[-1]:
            v2, w2, c2 = vals.pop(), wts.pop(), counts.pop()
            v1, w1, c1 = vals.pop(), wts.pop(), counts.pop()
            vals.append((v1 * w1 + v2 * w2) / (w1 + w2))
            wts.append(w1 + w2)
            counts.append(c1 + c2)
    return torch.repeat_interleave(torch.tensor(vals), torch.tensor(counts))


y = torch.tensor([1.0, 3.0, 2.0, 4.0, 3.5, 5.0, 4.0, 4.0, 6.0])
fit = pav(y)
print(fit)
print("monotone:", bool((fit.diff() >= 0).all()), "sse", ((fit - y.double()) ** 2).sum().item())
print(pav(torch.tensor([3.0, 2.0, 1.0]), torch.tensor([1.0, 2.0, 3.0])))

# Calibrating a miscalibrated score.
n = 400
x = torch.rand(n)
true_p = x**3
labels = torch.bernoulli(true_p)
order = torch.argsort(x)
xs, ys = x[order], labels[order]
calib = pav(ys).float()
knots_x, inverse = torch.unique_consecutive(calib, return_inverse=True)
print("distinct calibrated levels", knots_x.numel(), inverse[:10])


def interp(q, xp, fp):
    idx = torch.searchsorted(xp, q).clamp(1, xp.numel() - 1)
    x0, x1 = xp[idx - 1], xp[idx]
    f0, f1 = fp[idx - 1], fp[idx]
    t = ((q - x0) / (x1 - x0).clamp_min(1e-12)).clamp(0, 1)
    return f0 + t * (f1 - f0)


q = torch.linspace(0, 1, 11)
print(interp(q, xs, calib))
print("true", true_p[order][torch.searchsorted(xs, q).clamp(max=n - 1)])
bins = torch.bucketize(x, torch.linspace(0, 1, 6)[1:-1])
for b in range(5):
    m = bins == b
    cal = interp(x[m], xs, calib).mean()
    raw, freq = x[m].mean(), labels[m].mean()
    print(f"bin {b}: n={int(m.sum()):3d} raw={raw:.3f} calibrated={cal:.3f} freq={freq:.3f}")
brier_raw = ((x - labels) ** 2).mean()
brier_cal = ((interp(x, xs, calib) - labels) ** 2).mean()
print(f"brier raw {brier_raw:.4f} calibrated {brier_cal:.4f}")
print(torch.cummax(torch.tensor([1.0, 3.0, 2.0, 5.0, 4.0]), 0))
