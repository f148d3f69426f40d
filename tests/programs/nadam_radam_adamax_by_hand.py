# Models: a study group's optimizer notes: Adamax, NAdam (momentum decay) and RAdam (variance
# rectification) implemented from the papers' equations and compared with torch.optim on a
# quadratic bowl, plus the decoupled_weight_decay options.
import math

import torch

torch.manual_seed(6)
Q = torch.randn(4, 4, dtype=torch.float64)
Q = Q @ Q.T + torch.eye(4, dtype=torch.float64)
c = torch.randn(4, dtype=torch.float64)


def grad(w):
    return Q @ w - c


def run_torch(cls, steps=8, **kw):
    w = torch.zeros(4, dtype=torch.float64, requires_grad=True)
    opt = cls([w], **kw)
    for _ in range(steps):
        opt.zero_grad()
        (0.5 * w @ Q @ w - c @ w).backward()
        opt.step()
    return w.detach()


def adamax(lr=0.02, b1=0.9, b2=0.999, eps=1e-8, steps=8):
    w = torch.zeros(4, dtype=torch.float64)
    m = torch.zeros_like(w)
    u = torch.zeros_like(w)
    for t in range(1, steps + 1):
        g = grad(w)
        m = b1 * m + (1 - b1) * g
        u = torch.maximum(b2 * u, g.abs() + eps)
        w = w - lr / (1 - b1 ** t) * m / u
    return w


def nadam(lr=0.02, b1=0.9, b2=0.999, eps=1e-8, psi=0.004, steps=8):
    w = torch.zeros(4, dtype=torch.float64)
    m = torch.zeros_like(w)
    v = torch.zeros_like(w)
    mu_prod = 1.0
    for t in range(1, steps + 1):
        g = grad(w)
        mu = b1 * (1 - 0.5 * 0.96 ** (t * psi))
        mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi))
        mu_prod *= mu
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        denom = (v / (1 - b2 ** t)).sqrt() + eps
        w = w - lr * (1 - mu) / (1 - mu_prod) * g / denom
        w = w - lr * mu_next / (1 - mu_prod * mu_next) * m / denom
    return w


def radam(lr=0.02, b1=0.9, b2=0.999, eps=1e-8, steps=8):
    w = torch.zeros(4, dtype=torch.float64)
    m = torch.zeros_like(w)
    v = torch.zeros_like(w)
    rho_inf = 2 / (1 - b2) - 1
    for t in range(1, steps + 1):
        g = grad(w)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        rho_t = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
        if rho_t > 5:
            l_t = math.sqrt(1 - b2 ** t) / (v.sqrt() + eps)
            r_t = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            w = w - lr * m_hat * l_t * r_t
        else:
            w = w - lr * m_hat
    return w


for name, cls, hand in [("Adamax", torch.optim.Adamax, adamax), ("NAdam", torch.optim.NAdam, nadam),
                        ("RAdam", torch.optim.RAdam, radam)]:
    wt, wh = run_torch(cls, lr=0.02), hand()
    print(name, wt, "matches", (wt - wh).abs().max().item() < 1e-10)
print("RAdam 10 steps", run_torch(torch.optim.RAdam, steps=10, lr=0.02))
print("NAdam decoupled", run_torch(torch.optim.NAdam, lr=0.02, weight_decay=0.1,
                                   decoupled_weight_decay=True))
print("RAdam decoupled", run_torch(torch.optim.RAdam, lr=0.02, weight_decay=0.1,
                                   decoupled_weight_decay=True))
print("NAdam L2", run_torch(torch.optim.NAdam, lr=0.02, weight_decay=0.1))
