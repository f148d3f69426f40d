# Models: deep Koopman operator learning (Lusch et al. style): an encoder to a latent space
# where dynamics are linear, a learned Koopman matrix K advancing latents by one step,
# losses for reconstruction, one-step and multi-step latent linearity and prediction,
# trained on a nonlinear pendulum simulated with RK4; then long rollouts and the
# eigenvalues of K (torch.linalg.eigvals) as learned frequencies.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DT = 0.1


def f(s):
    theta, omega = s[..., 0], s[..., 1]
    return torch.stack([omega, -torch.sin(theta) - 0.05 * omega], -1)


def rk4(s):
    k1 = f(s)
    k2 = f(s + 0.5 * DT * k1)
    k3 = f(s + 0.5 * DT * k2)
    k4 = f(s + DT * k3)
    return s + DT / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def trajectories(n, T, g):
    s = torch.stack([torch.empty(n).uniform_(-2, 2, generator=g),
                     torch.empty(n).uniform_(-1, 1, generator=g)], -1)
    out = [s]
    for _ in range(T - 1):
        out.append(rk4(out[-1]))
    return torch.stack(out, 1)           # (n, T, 2)


class Koopman(nn.Module):
    def __init__(self, latent=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, latent))
        self.dec = nn.Sequential(nn.Linear(latent, 32), nn.Tanh(), nn.Linear(32, 2))
        self.K = nn.Linear(latent, latent, bias=False)
        with torch.no_grad():
            self.K.weight.copy_(torch.eye(latent) + 0.01 * torch.randn(latent, latent))

    def rollout(self, z0, steps):
        zs = [z0]
        for _ in range(steps):
            zs.append(self.K(zs[-1]))
        return torch.stack(zs, 1)


g = torch.Generator().manual_seed(2)
train = trajectories(64, 20, g)
test = trajectories(8, 60, g)
model = Koopman()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
S = 8
for epoch in range(150):
    x = train
    z = model.enc(x)
    recon = F.mse_loss(model.dec(z), x)
    zr = model.rollout(z[:, 0], S)
    lin = F.mse_loss(zr[:, 1:], z[:, 1:S + 1])
    pred = F.mse_loss(model.dec(zr[:, 1:]), x[:, 1:S + 1])
    loss = recon + pred + 0.1 * lin
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 30 == 29:
        print(f"epoch {epoch + 1} recon {recon.item():.6f} pred {pred.item():.6f} "
              f"lin {lin.item():.6f}")
with torch.no_grad():
    z0 = model.enc(test[:, 0])
    roll = model.dec(model.rollout(z0, 59))
    err = (roll - test).pow(2).mean((0, 2))
    print("rollout mse at steps 1, 10, 30, 59:", err[[1, 10, 30, 59]])
    ev = torch.linalg.eigvals(model.K.weight)
    mags = ev.abs()
    order = mags.argsort(descending=True)
    print("|eigenvalues| of K:", mags[order])
    print("frequencies (rad/s):", (ev.angle().abs() / DT)[order])
    print("true small-angle frequency:", 1.0)
