# Models: the "2-D Gaussian splatting from scratch" notebooks: each splat has a mean, log
# scales, a rotation angle, an RGB colour and an opacity logit; covariances from R S S^T R^T,
# their inverses and determinants in closed form, per-pixel Gaussian weights, front-to-back
# alpha compositing with an exclusive cumprod of transmittance, fitted to a target image with
# Adam, plus densification by splitting the largest splats.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
H = W = 12
ys, xs = torch.meshgrid(torch.linspace(0, 1, H), torch.linspace(0, 1, W), indexing="ij")
pix = torch.stack([xs, ys], -1).reshape(-1, 2)

target = torch.zeros(H, W, 3)
target[..., 0] = torch.exp(-((xs - 0.3) ** 2 + (ys - 0.35) ** 2) / 0.02)
target[..., 1] = (((xs - 0.7) ** 2 / 0.03 + (ys - 0.6) ** 2 / 0.01) < 1).float() * 0.8
target[..., 2] = 0.3 * ys


class Splats(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.mean = torch.nn.Parameter(torch.rand(n, 2))
        self.log_scale = torch.nn.Parameter(torch.full((n, 2), math.log(0.15)))
        self.theta = torch.nn.Parameter(torch.rand(n) * math.pi)
        self.color = torch.nn.Parameter(torch.logit(torch.rand(n, 3).clamp(0.05, 0.95)))
        self.opacity = torch.nn.Parameter(torch.zeros(n))

    def covariance(self):
        c, s = torch.cos(self.theta), torch.sin(self.theta)
        R = torch.stack([torch.stack([c, -s], -1), torch.stack([s, c], -1)], -2)
        S = torch.diag_embed(self.log_scale.exp())
        M = R @ S
        return M @ M.transpose(-1, -2)

    def render(self):
        cov = self.covariance()
        a, b, d = cov[:, 0, 0], cov[:, 0, 1], cov[:, 1, 1]
        det = a * d - b * b
        adj = torch.stack([torch.stack([d, -b], -1), torch.stack([-b, a], -1)], -2)
        inv = adj / det[:, None, None]
        diff = pix[None, :, :] - self.mean[:, None, :]
        maha = torch.einsum("npi,nij,npj->np", diff, inv, diff)
        alpha = torch.sigmoid(self.opacity)[:, None] * torch.exp(-0.5 * maha)
        alpha = alpha.clamp(max=0.99)
        order = torch.argsort(self.mean[:, 1].detach())       # a fixed depth order
        alpha = alpha[order]
        T = torch.cumprod(torch.cat([torch.ones(1, alpha.shape[1]), 1 - alpha[:-1]], 0), 0)
        w = alpha * T
        rgb = w.T @ torch.sigmoid(self.color[order])
        return rgb.reshape(H, W, 3), det


splats = Splats(6)
img, det = splats.render()
print("initial image stats", img.mean().item(), img.max().item(), "det", det[:3].detach())
print("covariance symmetric", torch.allclose(splats.covariance(), splats.covariance().mT))
opt = torch.optim.Adam(splats.parameters(), lr=0.05)
for step in range(60):
    img, _ = splats.render()
    loss = F.l1_loss(img, target) + 0.2 * F.mse_loss(img, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 12 == 0:
        psnr = -10 * torch.log10(F.mse_loss(img.detach(), target))
        print(f"step {step:2d} loss {loss.item():.6f} psnr {psnr.item():.3f}")
        print("   mean grad norms", splats.mean.grad.norm(dim=1)[:4])

with torch.no_grad():
    big = splats.log_scale.max(1).values.argsort(descending=True)[:2]
    print("splitting splats", big.tolist(), "scales", splats.log_scale[big].exp())
    new_mean = splats.mean[big] + 0.05 * torch.randn(2, 2)
    n = Splats(8)
    n.mean.copy_(torch.cat([splats.mean, new_mean]))
    n.log_scale.copy_(torch.cat([splats.log_scale, splats.log_scale[big] - math.log(1.6)]))
    n.theta.copy_(torch.cat([splats.theta, splats.theta[big]]))
    n.color.copy_(torch.cat([splats.color, splats.color[big]]))
    n.opacity.copy_(torch.cat([splats.opacity, splats.opacity[big]]))
    img2, _ = n.render()
    print("after split: splats", n.mean.shape[0], "l1", F.l1_loss(img2, target).item())
print("final colours", torch.sigmoid(splats.color).detach())
