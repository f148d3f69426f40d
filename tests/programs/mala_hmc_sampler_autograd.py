# Models: an MCMC lecture's samplers written with autograd: random-walk Metropolis, MALA
# (Langevin proposals with a Metropolis correction) and HMC with a leapfrog integrator on a
# banana-shaped 2-d target, reporting acceptance rates, moments and effective step behaviour.
import torch

torch.manual_seed(42)


def log_target(z):
    x, y = z[..., 0], z[..., 1]
    return -0.5 * x**2 / 4 - 0.5 * (y - 0.5 * x**2 + 1) ** 2


def grad_log(z):
    z = z.detach().requires_grad_(True)
    lp = log_target(z)
    (g,) = torch.autograd.grad(lp.sum(), z)
    return lp.detach(), g


def rwm(n, step):
    z = torch.zeros(2)
    lp = log_target(z)
    out, acc = [], 0
    for _ in range(n):
        prop = z + step * torch.randn(2)
        lp_p = log_target(prop)
        if torch.log(torch.rand(())) < lp_p - lp:
            z, lp = prop, lp_p
            acc += 1
        out.append(z)
    return torch.stack(out), acc / n


def mala(n, eps):
    z = torch.zeros(2)
    lp, g = grad_log(z)
    out, acc = [], 0
    for _ in range(n):
        prop = z + 0.5 * eps**2 * g + eps * torch.randn(2)
        lp_p, g_p = grad_log(prop)
        fwd = -((prop - z - 0.5 * eps**2 * g) ** 2).sum() / (2 * eps**2)
        bwd = -((z - prop - 0.5 * eps**2 * g_p) ** 2).sum() / (2 * eps**2)
        if torch.log(torch.rand(())) < lp_p - lp + bwd - fwd:
            z, lp, g = prop, lp_p, g_p
            acc += 1
        out.append(z)
    return torch.stack(out), acc / n


def hmc(n, eps, L):
    z = torch.zeros(2)
    out, acc = [], 0
    for _ in range(n):
        p = torch.randn(2)
        lp0, g = grad_log(z)
        h0 = -lp0 + 0.5 * (p**2).sum()
        q = z.clone()
        p = p + 0.5 * eps * g
        for i in range(L):
            q = q + eps * p
            lp, g = grad_log(q)
            if i < L - 1:
                p = p + eps * g
        p = p + 0.5 * eps * g
        h1 = -lp + 0.5 * (p**2).sum()
        if torch.log(torch.rand(())) < h0 - h1:
            z = q
            acc += 1
        out.append(z)
    return torch.stack(out), acc / n


for name, (chain, rate) in [
    ("RWM", rwm(1500, 1.0)),
    ("MALA", mala(1500, 0.6)),
    ("HMC", hmc(400, 0.3, 10)),
]:
    burn = chain[len(chain) // 5 :]
    print(
        f"{name:4s} acceptance {rate:.3f} mean {burn.mean(0).numpy().round(3)} "
        f"var {burn.var(0).numpy().round(3)}"
    )
    lag1 = torch.corrcoef(torch.stack([burn[:-1, 0], burn[1:, 0]]))[0, 1]
    print(f"     lag-1 autocorrelation of x {lag1.item():.3f}")
print("true mean of x 0, var of x 4, mean of y", 0.5 * 4 - 1)
