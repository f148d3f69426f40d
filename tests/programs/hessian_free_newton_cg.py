# Models: second-order optimisation notebooks: torch.autograd.functional.hvp / vhp / hessian /
# jacobian on a logistic-regression loss, conjugate gradient with Hessian-vector products
# (truncated Newton / Hessian-free optimisation), damped Newton steps with torch.linalg.solve,
# a Gauss-Newton fit of a nonlinear least-squares curve, and an empirical-Fisher natural-gradient
# step, compared with plain gradient descent.
import torch
import torch.nn.functional as F
from torch.autograd.functional import hessian, hvp, jacobian, vhp

torch.manual_seed(0)
N, D = 200, 5
X = torch.randn(N, D, dtype=torch.float64)
w_true = torch.tensor([1.5, -2.0, 0.5, 0.0, 1.0], dtype=torch.float64)
y = torch.bernoulli(torch.sigmoid(X @ w_true))


def loss_fn(w):
    return F.binary_cross_entropy_with_logits(X @ w, y) + 0.01 * (w * w).sum()


w0 = torch.zeros(D, dtype=torch.float64)
H = hessian(loss_fn, w0)
v = torch.randn(D, dtype=torch.float64)
_, Hv = hvp(loss_fn, w0, v)
_, vH = vhp(loss_fn, w0, v)
print("Hessian at 0:\n", H)
print("hvp == H @ v:", torch.allclose(Hv, H @ v), "vhp == hvp (symmetric):", torch.allclose(vH, Hv))
p = torch.sigmoid(X @ w0)
H_exact = X.T @ (X * (p * (1 - p))[:, None]) / N + 0.02 * torch.eye(D, dtype=torch.float64)
print("matches X^T S X / N + 2 lambda I:", torch.allclose(H, H_exact))


def conjugate_gradient(Av, b, iters=10, tol=1e-10):
    x = torch.zeros_like(b)
    r = b.clone()
    p = r.clone()
    rs = r @ r
    for i in range(iters):
        Ap = Av(p)
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if rs_new.sqrt() < tol:
            return x, i + 1
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, iters


w = w0.clone()
for it in range(6):
    g = jacobian(loss_fn, w)
    step, n_cg = conjugate_gradient(lambda u, w=w: hvp(loss_fn, w, u)[1], -g)
    w = w + step
    print(f"Newton-CG iter {it + 1} loss {loss_fn(w).item():.10f} |g| {g.norm():.3e} "
          f"CG steps {n_cg}")
print("Newton-CG solution:", w)

w_gd = w0.clone().requires_grad_()
opt = torch.optim.SGD([w_gd], lr=1.0)
for it in range(200):
    loss = loss_fn(w_gd)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"gradient descent after 200 steps: loss {loss_fn(w_gd).item():.10f} "
      f"distance to Newton {(w_gd.detach() - w).norm():.3e}")

# Gauss-Newton / Levenberg-Marquardt for y = a * exp(-b t) + c
t = torch.linspace(0, 4, 40, dtype=torch.float64)
obs = 2.5 * torch.exp(-1.3 * t) + 0.5 + 0.02 * torch.randn(40, dtype=torch.float64)


def residuals(theta):
    a, b, c = theta
    return a * torch.exp(-b * t) + c - obs


theta = torch.tensor([1.0, 0.5, 0.0], dtype=torch.float64)
mu = 1e-2
for it in range(10):
    r = residuals(theta)
    J = jacobian(residuals, theta)
    A = J.T @ J + mu * torch.eye(3, dtype=torch.float64)
    delta = torch.linalg.solve(A, -J.T @ r)
    new_cost = residuals(theta + delta).pow(2).sum()
    if new_cost < r.pow(2).sum():
        theta, mu = theta + delta, mu / 3
    else:
        mu = mu * 5
    if it % 3 == 2:
        print(f"LM iter {it + 1} cost {residuals(theta).pow(2).sum().item():.8f} mu {mu:.2e}")
print("fitted (a, b, c):", theta)

# natural gradient with the empirical Fisher
w_ng = w0.clone()
for it in range(5):
    per_sample = jacobian(
        lambda w: F.binary_cross_entropy_with_logits(X @ w, y, reduction="none"), w_ng)
    fisher = per_sample.T @ per_sample / N + 1e-3 * torch.eye(D, dtype=torch.float64)
    g = per_sample.mean(0) + 0.02 * w_ng
    w_ng = w_ng - torch.linalg.solve(fisher, g)
    print(f"natural gradient iter {it + 1} loss {loss_fn(w_ng).item():.10f}")
print("condition number of the Fisher:", torch.linalg.cond(fisher).item())
