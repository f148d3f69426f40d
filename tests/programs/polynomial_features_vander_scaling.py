# Models: an ML course's polynomial regression lab: torch.vander features, feature
# standardisation, closed-form least squares versus Adam on the scaled features, train/test
# error per degree (overfitting), and the condition numbers with and without scaling.
import torch

torch.manual_seed(21)
x = torch.linspace(-1, 1, 30, dtype=torch.float64)
y = torch.sin(3 * x) + 0.1 * torch.randn(30, dtype=torch.float64)
perm = torch.randperm(30)
tr, te = perm[:20], perm[20:]
for degree in [1, 3, 5, 9, 12]:
    V = torch.vander(x, degree + 1, increasing=True)
    mu, sd = V[tr, 1:].mean(0), V[tr, 1:].std(0)
    Vs = torch.cat([V[:, :1], (V[:, 1:] - mu) / sd], 1)
    w = torch.linalg.lstsq(Vs[tr], y[tr].unsqueeze(1)).solution
    pred = (Vs @ w).squeeze(1)
    tr_err = ((pred[tr] - y[tr]) ** 2).mean().item()
    te_err = ((pred[te] - y[te]) ** 2).mean().item()
    c_raw, c_scaled = torch.linalg.cond(V[tr]).item(), torch.linalg.cond(Vs[tr]).item()
    print(f"degree {degree:2d} train {tr_err:.6f} test {te_err:.6f} "
          f"cond raw {c_raw:.3e} scaled {c_scaled:.3e}")
V = torch.vander(x, 4, increasing=True)
mu, sd = V[tr, 1:].mean(0), V[tr, 1:].std(0)
Vs = torch.cat([V[:, :1], (V[:, 1:] - mu) / sd], 1)
w = torch.zeros(4, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for step in range(300):
    loss = ((Vs[tr] @ w - y[tr]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
closed = torch.linalg.lstsq(Vs[tr], y[tr].unsqueeze(1)).solution.squeeze(1)
print("adam", w.detach())
print("closed", closed)
print("vander default order", torch.vander(torch.tensor([1, 2, 3]), 3))
