# Models: the pytorch/examples super-resolution (ESPCN with PixelShuffle), with bicubic and
# bilinear interpolate baselines, PSNR evaluation, and a ReduceLROnPlateau scheduler.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
hr = torch.rand(12, 1, 16, 16)
hr = F.avg_pool2d(F.pad(hr, (1, 1, 1, 1), mode="reflect"), 3, stride=1)
lr_img = F.interpolate(hr, scale_factor=0.5, mode="area")
print("shapes", tuple(hr.shape), tuple(lr_img.shape))


def psnr(a, b):
    mse = F.mse_loss(a, b)
    return 10 * math.log10(1 / mse.item())


for mode in ("nearest", "bilinear", "bicubic"):
    kw = {} if mode == "nearest" else {"align_corners": False}
    up = F.interpolate(lr_img, scale_factor=2, mode=mode, **kw)
    print(f"{mode:8s} psnr {psnr(up.clamp(0, 1), hr):.4f}")


class ESPCN(nn.Module):
    def __init__(self, r=2):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 5, padding=2)
        self.c2 = nn.Conv2d(16, 8, 3, padding=1)
        self.c3 = nn.Conv2d(8, r * r, 3, padding=1)
        self.ps = nn.PixelShuffle(r)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.orthogonal_(m.weight, nn.init.calculate_gain("tanh"))

    def forward(self, x):
        x = torch.tanh(self.c1(x))
        x = torch.tanh(self.c2(x))
        return self.ps(self.c3(x))


model = ESPCN()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)
for epoch in range(25):
    opt.zero_grad()
    out = model(lr_img)
    loss = F.mse_loss(out, hr)
    loss.backward()
    opt.step()
    sched.step(loss.item() if epoch % 4 else loss.item() * 2)
    if epoch % 5 == 4:
        p = psnr(out.detach().clamp(0, 1), hr)
        print(f"epoch {epoch + 1} loss {loss.item():.6f} psnr {p:.3f} "
              f"lr {opt.param_groups[0]['lr']}")
un = nn.PixelUnshuffle(2)(hr)
print(un.shape, torch.allclose(nn.PixelShuffle(2)(un), hr))
print(F.interpolate(torch.arange(6.).view(1, 1, 2, 3), size=(3, 5), mode="bilinear",
                    align_corners=True))
