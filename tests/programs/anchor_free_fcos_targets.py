# Models: FCOS-style anchor-free target assignment from detection repos: per-location ltrb
# regression targets, center sampling radius, size-of-interest ranges per FPN level, the
# minimum-area assignment, centerness targets, and IoU loss on the positives.
import torch

torch.manual_seed(0)
strides = [8, 16]
sizes = [(8, 8), (4, 4)]
soi = [(-1, 48), (48, 1e8)]
gt = torch.tensor([[5.0, 6.0, 40.0, 30.0], [30.0, 20.0, 60.0, 62.0], [0.0, 0.0, 63.0, 63.0]])
cls = torch.tensor([1, 2, 3])
locs, ranges = [], []
for s, (h, w), r in zip(strides, sizes, soi):
    ys, xs = torch.meshgrid(
        torch.arange(h) * s + s // 2, torch.arange(w) * s + s // 2, indexing="ij"
    )
    p = torch.stack([xs.flatten(), ys.flatten()], 1).float()
    locs.append(p)
    ranges.append(torch.tensor(r).expand(len(p), 2))
locs, ranges = torch.cat(locs), torch.cat(ranges)
print(locs.shape, ranges[[0, -1]])
l = locs[:, None, 0] - gt[None, :, 0]
t = locs[:, None, 1] - gt[None, :, 1]
r = gt[None, :, 2] - locs[:, None, 0]
b = gt[None, :, 3] - locs[:, None, 1]
ltrb = torch.stack([l, t, r, b], 2)
inside = ltrb.min(2).values > 0
max_reg = ltrb.max(2).values
in_range = (max_reg >= ranges[:, None, 0]) & (max_reg <= ranges[:, None, 1])
centers = (gt[:, :2] + gt[:, 2:]) / 2
stride_per = torch.cat([torch.full((h * w,), s) for s, (h, w) in zip(strides, sizes)]).float()
radius = 1.5 * stride_per[:, None]
in_center = ((locs[:, None] - centers[None]).abs() < radius[..., None]).all(2)
areas = ((gt[:, 2] - gt[:, 0]) * (gt[:, 3] - gt[:, 1]))[None].expand(len(locs), -1).clone()
areas[~(inside & in_range & in_center)] = float("inf")
min_area, idx = areas.min(1)
labels = cls[idx]
labels[min_area == float("inf")] = 0
print(labels[:64].view(8, 8))
print(labels[64:].view(4, 4))
reg = ltrb[torch.arange(len(locs)), idx]
pos = labels > 0
lr_, tb_ = reg[pos][:, [0, 2]], reg[pos][:, [1, 3]]
centerness = torch.sqrt(
    (lr_.min(1).values / lr_.max(1).values) * (tb_.min(1).values / tb_.max(1).values)
)
print(pos.sum().item(), centerness)
pred = (reg[pos] * (1 + 0.1 * torch.randn(pos.sum(), 4))).clamp(min=0).requires_grad_(True)
tgt = reg[pos]
area_p = (pred[:, 0] + pred[:, 2]) * (pred[:, 1] + pred[:, 3])
area_t = (tgt[:, 0] + tgt[:, 2]) * (tgt[:, 1] + tgt[:, 3])
wi = torch.min(pred[:, 0], tgt[:, 0]) + torch.min(pred[:, 2], tgt[:, 2])
hi = torch.min(pred[:, 1], tgt[:, 1]) + torch.min(pred[:, 3], tgt[:, 3])
inter = wi * hi
iou = (inter + 1) / (area_p + area_t - inter + 1)
loss = (-torch.log(iou) * centerness).sum() / centerness.sum()
loss.backward()
print(iou, loss.item())
print(pred.grad[:2])
