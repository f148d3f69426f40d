# Models: heatmap-based keypoint regression (stacked-hourglass style, tiny): Gaussian target
# heatmaps, a small encoder-decoder, integral regression by spatial soft-argmax, PCK accuracy
# and the argmax-vs-soft-argmax quantisation gap.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
H = W = 16
K = 3


def render(points, sigma=1.0):
    ys, xs = torch.meshgrid(
        torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij"
    )
    d2 = (xs - points[..., 0, None, None]) ** 2 + (ys - points[..., 1, None, None]) ** 2
    return torch.exp(-d2 / (2 * sigma**2))


def soft_argmax(heat, beta=10.0):
    B, C, h, w = heat.shape
    p = F.softmax(heat.flatten(2) * beta, -1).view(B, C, h, w)
    xs = torch.arange(w, dtype=heat.dtype)
    ys = torch.arange(h, dtype=heat.dtype)
    return torch.stack([(p.sum(2) * xs).sum(-1), (p.sum(3) * ys).sum(-1)], -1)


N = 96
kp = torch.rand(N, K, 2) * (W - 5) + 2
images = render(kp).sum(1, keepdim=True) + 0.1 * torch.randn(N, 1, H, W)
targets = render(kp)
print("images", images.shape, "targets", targets.shape, "target peak", targets.amax().item())


class TinyHourglass(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU(),
        )
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(32, 16, 3, padding=1), nn.ReLU()
        )
        self.skip = nn.Conv2d(1, 16, 3, padding=1)
        self.head = nn.Conv2d(16, K, 1)

    def forward(self, x):
        return self.head(self.up(self.down(x)) + self.skip(x))


net = TinyHourglass()
opt = torch.optim.Adam(net.parameters(), lr=5e-3)
for epoch in range(12):
    for i in range(0, N, 32):
        pred = net(images[i : i + 32])
        loss = F.mse_loss(pred, targets[i : i + 32]) + 0.01 * F.l1_loss(
            soft_argmax(pred), kp[i : i + 32]
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 4 == 3:
        print(f"epoch {epoch + 1} loss {loss.item():.5f}")
with torch.no_grad():
    heat = net(images)
    coords = soft_argmax(heat)
    flat = heat.flatten(2).argmax(-1)
    hard = torch.stack([flat % W, flat // W], -1).float()
err_soft = (coords - kp).norm(dim=-1)
err_hard = (hard - kp).norm(dim=-1)
print("mean error soft-argmax", err_soft.mean().item(), "argmax", err_hard.mean().item())
for thr in (0.5, 1.0, 2.0):
    soft, hard_acc = (err_soft < thr).float().mean(), (err_hard < thr).float().mean()
    print(f"PCK@{thr}: soft {soft:.4f} hard {hard_acc:.4f}")
exact = render(torch.tensor([[[5.3, 7.8]]]))
print("soft-argmax of an exact heatmap", soft_argmax(torch.log(exact + 1e-9), beta=1.0))
print("quantised argmax", divmod(int(exact.flatten().argmax()), W))
