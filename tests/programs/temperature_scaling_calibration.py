# Models: post-hoc calibration of a classifier (Guo et al. 2017, gpleiss/temperature_scaling):
# an overconfident MLP, the expected calibration error over 10 confidence bins
# (torch.bucketize on linspace boundaries), one temperature fitted on held-out logits with
# torch.optim.LBFGS and a closure, then vector scaling, NLL and ECE before and after,
# and a reliability table.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
C = 4
centers = torch.randn(C, 8) * 1.2
labels = torch.randint(0, C, (600,))
X = centers[labels] + torch.randn(600, 8)
flip = torch.rand(600) < 0.1
labels = torch.where(flip, torch.randint(0, C, (600,)), labels)
Xtr, ytr = X[:300], labels[:300]
Xval, yval = X[300:450], labels[300:450]
Xte, yte = X[450:], labels[450:]

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, C))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(150):
    loss = F.cross_entropy(model(Xtr), ytr)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("train loss", round(loss.item(), 6))


def ece(logits, y, n_bins=10):
    probs = logits.softmax(1)
    conf, pred = probs.max(1)
    acc = (pred == y).float()
    bounds = torch.linspace(0, 1, n_bins + 1)
    bins = torch.bucketize(conf, bounds[1:-1], right=False)
    total = torch.zeros(())
    rows = []
    for b in range(n_bins):
        m = bins == b
        if m.any():
            gap = (conf[m].mean() - acc[m].mean()).abs()
            total += m.float().mean() * gap
            rows.append((b, int(m.sum()), round(conf[m].mean().item(), 4),
                         round(acc[m].mean().item(), 4)))
    return total, rows


with torch.no_grad():
    val_logits, test_logits = model(Xval), model(Xte)
e, rows = ece(test_logits, yte)
print(f"before: test NLL {F.cross_entropy(test_logits, yte).item():.5f} ECE {e.item():.5f} "
      f"acc {(test_logits.argmax(1) == yte).float().mean().item():.4f}")
for r in rows:
    print("  bin", r)

temperature = nn.Parameter(torch.ones(1) * 1.5)
lbfgs = torch.optim.LBFGS([temperature], lr=0.01, max_iter=50)


def closure():
    lbfgs.zero_grad()
    loss = F.cross_entropy(val_logits / temperature, yval)
    loss.backward()
    return loss


first = lbfgs.step(closure)
state = lbfgs.state[temperature]
print(f"LBFGS first loss {first.item():.6f} iterations {state['n_iter']} "
      f"evals {state['func_evals']} T {temperature.item():.5f}")
lbfgs2 = torch.optim.LBFGS([temperature], lr=1, max_iter=20, line_search_fn="strong_wolfe")
lbfgs = lbfgs2
lbfgs2.step(closure)
print(f"strong Wolfe T {temperature.item():.5f} val NLL "
      f"{F.cross_entropy(val_logits / temperature, yval).item():.6f}")

with torch.no_grad():
    scaled = test_logits / temperature
e2, rows = ece(scaled, yte)
print(f"after: test NLL {F.cross_entropy(scaled, yte).item():.5f} ECE {e2.item():.5f} "
      f"acc unchanged {torch.equal(scaled.argmax(1), test_logits.argmax(1))}")

w = nn.Parameter(torch.ones(C))
b = nn.Parameter(torch.zeros(C))
vs = torch.optim.LBFGS([w, b], lr=0.5, max_iter=30, line_search_fn="strong_wolfe")


def vs_closure():
    vs.zero_grad()
    penalty = (w - 1).pow(2).sum() + b.pow(2).sum()
    loss = F.cross_entropy(val_logits * w + b, yval) + 1e-3 * penalty
    loss.backward()
    return loss


vs.step(vs_closure)
with torch.no_grad():
    e3, _ = ece(test_logits * w + b, yte)
    print("vector scaling w", w, "b", b)
    print(f"vector scaling test NLL {F.cross_entropy(test_logits * w + b, yte).item():.5f} "
          f"ECE {e3.item():.5f}")
print("bucketize demo", torch.bucketize(torch.tensor([0.0, 0.1, 0.15, 0.99, 1.0]),
                                        torch.linspace(0, 1, 11)[1:-1]).tolist())
