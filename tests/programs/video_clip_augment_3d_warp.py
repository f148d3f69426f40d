# Models: video/medical-volume augmentation code: a random 3-D rotation about the depth axis and
# scaling built as (N, 3, 4) affine matrices, F.affine_grid/F.grid_sample on 5-D volumes
# (trilinear, nearest for label maps), temporal jitter by index sampling, and a Conv3d
# classifier trained on the warped clips with the gradient flowing back to the warp parameters.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, C, D, H, W = 2, 1, 4, 6, 6
vol = torch.rand(N, C, D, H, W)
labels = (vol > 0.6).long()[:, 0]


def rot_z(angle, scale):
    c, s = torch.cos(angle) / scale, torch.sin(angle) / scale
    zero, one = torch.zeros_like(angle), torch.ones_like(angle)
    rows = [
        torch.stack([c, -s, zero, zero], -1),
        torch.stack([s, c, zero, zero], -1),
        torch.stack([zero, zero, one, zero], -1),
    ]
    return torch.stack(rows, 1)


angle = (torch.rand(N) - 0.5) * math.pi / 3
scale = 0.9 + 0.2 * torch.rand(N)
theta = rot_z(angle, scale)
print(theta)
grid = F.affine_grid(theta, vol.shape, align_corners=False)
warped = F.grid_sample(vol, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
lab_w = F.grid_sample(labels[:, None].float(), grid, mode="nearest", align_corners=False).long()[
    :, 0
]
print(warped.shape, warped.mean().item(), lab_w.sum().item(), labels.sum().item())
print(warped[0, 0, 1, 2])
refl = F.grid_sample(vol, grid * 1.5, padding_mode="reflection", align_corners=True)
print(refl.sum(dim=(2, 3, 4)))
t_idx = torch.linspace(0, D - 1, 3).round().long()
print(t_idx, vol[:, :, t_idx].shape)

clf = nn.Sequential(
    nn.Conv3d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(4, 2)
)
target = torch.tensor([0, 1])
warp_param = torch.zeros(N, requires_grad=True)
opt = torch.optim.SGD(list(clf.parameters()) + [warp_param], lr=0.1)
for it in range(5):
    th = rot_z(angle + warp_param, scale)
    x = F.grid_sample(vol, F.affine_grid(th, vol.shape, align_corners=False), align_corners=False)
    loss = F.cross_entropy(clf(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", warp_param.grad)
