# Models: a scientific-computing notebook fitting nonlinear models with torch.optim.LBFGS: an
# exponential decay, a Michaelis-Menten curve and a damped sinusoid, with strong-Wolfe line search
# vs fixed step, closure call counts, the parameter covariance from the Gauss-Newton Hessian, and
# a Levenberg-Marquardt comparison written with torch.linalg.solve.
import torch

torch.manual_seed(47)
t = torch.linspace(0, 4, 40, dtype=torch.float64)
y_exp = 2.5 * torch.exp(-1.3 * t) + 0.4 + 0.02 * torch.randn(40, dtype=torch.float64)
s = torch.linspace(0.1, 5, 30, dtype=torch.float64)
y_mm = 3.0 * s / (0.8 + s) + 0.03 * torch.randn(30, dtype=torch.float64)
y_sin = 1.5 * torch.exp(-0.3 * t) * torch.sin(2.2 * t + 0.4) + 0.02 * torch.randn(
    40, dtype=torch.float64
)
models = {
    "exp decay": (lambda p, x: p[0] * torch.exp(-p[1] * x) + p[2], t, y_exp, [1.0, 1.0, 0.0]),
    "michaelis-menten": (lambda p, x: p[0] * x / (p[1] + x), s, y_mm, [1.0, 1.0]),
    "damped sine": (
        lambda p, x: p[0] * torch.exp(-p[1] * x) * torch.sin(p[2] * x + p[3]),
        t,
        y_sin,
        [1.0, 0.5, 2.0, 0.0],
    ),
}


def fit(f, x, y, init, ls):
    """LBFGS on half the squared residuals; the parameters, final loss and closure calls."""
    p = torch.tensor(init, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS(
        [p],
        lr=1.0 if ls else 0.1,
        max_iter=200,
        tolerance_grad=1e-10,
        tolerance_change=1e-14,
        history_size=10,
        line_search_fn=ls,
    )
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = 0.5 * ((f(p, x) - y) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return p.detach(), closure().item(), calls[0]


for name, (f, x, y, init) in models.items():
    for ls in ["strong_wolfe", None]:
        p, final, calls = fit(f, x, y, init, ls)
        print(
            f"{name:17s} line_search={ls!s:12s} params {p.numpy().round(4).tolist()} "
            f"loss {final:.6f} evals {calls}"
        )
    J = torch.autograd.functional.jacobian(lambda q, f=f, x=x: f(q, x), p)
    r = f(p, x) - y
    sigma2 = (r @ r) / (len(y) - len(init))
    cov = sigma2 * torch.linalg.inv(J.T @ J)
    print("   std errors", cov.diagonal().sqrt().numpy().round(5).tolist())
f, x, y, init = models["damped sine"]
p = torch.tensor(init, dtype=torch.float64)
lam = 1e-2
for it in range(30):
    r = f(p, x) - y
    J = torch.autograd.functional.jacobian(lambda q: f(q, x), p)
    A = J.T @ J + lam * torch.diag((J.T @ J).diagonal())
    step = torch.linalg.solve(A, -J.T @ r)
    new = p + step
    if ((f(new, x) - y) ** 2).sum() < (r**2).sum():
        p, lam = new, lam / 3
    else:
        lam = lam * 2
print(
    "Levenberg-Marquardt",
    p.numpy().round(4).tolist(),
    "loss",
    round(0.5 * ((f(p, x) - y) ** 2).sum().item(), 6),
)
