# Models: certified-robustness tutorials (auto_LiRPA / IBP training, Gowal et al.): interval
# bound propagation through Linear, ReLU and Flatten layers by centre/radius arithmetic,
# certified accuracy under an L-infinity ball, the worst-case logit margin, a PGD attack with
# projection for the empirical robust accuracy, and IBP training with a ramped epsilon and a
# mixed natural/robust cross-entropy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D = 256, 10
centers = torch.randn(3, D) * 1.5
y = torch.randint(0, 3, (N,))
X = centers[y] + 0.6 * torch.randn(N, D)


def ibp(model, lo, hi):
    for layer in model:
        if isinstance(layer, nn.Linear):
            mid, rad = (hi + lo) / 2, (hi - lo) / 2
            mid = layer(mid)
            rad = rad @ layer.weight.abs().T
            lo, hi = mid - rad, mid + rad
        elif isinstance(layer, nn.ReLU):
            lo, hi = lo.relu(), hi.relu()
        else:
            lo, hi = layer(lo), layer(hi)
    return lo, hi


def worst_logits(model, x, y, eps):
    lo, hi = ibp(model, x - eps, x + eps)
    onehot = F.one_hot(y, 3).bool()
    return torch.where(onehot, lo, hi)


def pgd(model, x, y, eps, steps=10, alpha=None):
    alpha = alpha or 2.5 * eps / steps
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        (g,) = torch.autograd.grad(loss, delta)
        with torch.no_grad():
            delta += alpha * g.sign()
            delta.clamp_(-eps, eps)
    return (x + delta).detach()


def evaluate(model, eps):
    with torch.no_grad():
        clean = (model(X).argmax(1) == y).float().mean()
        cert = (worst_logits(model, X, y, eps).argmax(1) == y).float().mean()
    adv = (model(pgd(model, X, y, eps)).argmax(1) == y).float().mean()
    return clean.item(), adv.item(), cert.item()


def make():
    return nn.Sequential(nn.Flatten(), nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, 3))


EPS = 0.3
for mode in ["natural", "ibp"]:
    torch.manual_seed(1)
    model = make()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(30):
        eps = EPS * min(1.0, epoch / 15)
        kappa = max(0.5, 1 - epoch / 30)
        for idx in torch.randperm(N).split(64):
            xb, yb = X[idx], y[idx]
            loss = F.cross_entropy(model(xb), yb)
            if mode == "ibp":
                robust = F.cross_entropy(worst_logits(model, xb, yb, eps), yb)
                loss = kappa * loss + (1 - kappa) * robust
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            print(f"{mode:7s} epoch {epoch + 1} eps {eps:.2f} loss {loss.item():.4f}")
    clean, adv, cert = evaluate(model, EPS)
    print(f"{mode:7s} clean {clean:.4f} PGD {adv:.4f} certified {cert:.4f} (sound: {cert <= adv})")
    with torch.no_grad():
        lo, hi = ibp(model, X[:2] - EPS, X[:2] + EPS)
        out = model(X[:2])
    print("  logits   ", out)
    print("  lower    ", lo)
    print("  upper    ", hi)
    print("  bounds contain output:", bool(((lo <= out) & (out <= hi)).all()))
