# Models: region-of-interest feature extraction written by hand (no torchvision): RoIPool via
# adaptive max pooling of integer crops and RoIAlign via bilinear grid_sample, with gradients
# flowing back to the feature map, plus box IoU and box encoding/decoding.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
feat = torch.randn(2, 4, 16, 16, requires_grad=True)
rois = torch.tensor(
    [
        [0, 1.0, 1.0, 9.0, 7.0],
        [0, 4.5, 3.2, 15.0, 15.0],
        [1, 0.0, 0.0, 16.0, 16.0],
        [1, 6.3, 2.1, 8.9, 12.7],
    ]
)
spatial_scale, out_size = 1.0, (3, 3)


def roi_pool(feat, rois):
    outs = []
    for b, x1, y1, x2, y2 in rois.tolist():
        x1, y1 = round(x1 * spatial_scale), round(y1 * spatial_scale)
        x2, y2 = round(x2 * spatial_scale), round(y2 * spatial_scale)
        crop = feat[int(b), :, y1 : max(y2, y1 + 1), x1 : max(x2, x1 + 1)]
        outs.append(F.adaptive_max_pool2d(crop, out_size))
    return torch.stack(outs)


def roi_align(feat, rois, sampling=2):
    N, C, Hf, Wf = feat.shape
    ph, pw = out_size
    outs = []
    for b, x1, y1, x2, y2 in rois.tolist():
        bw, bh = (x2 - x1) / pw, (y2 - y1) / ph
        ys = y1 + (torch.arange(ph * sampling) + 0.5) * bh / sampling
        xs = x1 + (torch.arange(pw * sampling) + 0.5) * bw / sampling
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        grid = torch.stack([(gx + 0.5) / Wf * 2 - 1, (gy + 0.5) / Hf * 2 - 1], -1)
        sampled = F.grid_sample(
            feat[int(b)][None], grid[None], mode="bilinear", align_corners=False
        )
        outs.append(F.avg_pool2d(sampled, sampling)[0])
    return torch.stack(outs)


pooled = roi_pool(feat, rois)
aligned = roi_align(feat, rois)
print("roi pool", pooled.shape, "roi align", aligned.shape)
print(pooled[0, 0])
print(aligned[0, 0])
print(aligned[2].mean((1, 2)), feat[1].mean((1, 2)))
(pooled.sum() + (aligned**2).sum()).backward()
g = feat.grad
print("grad nonzero per image", (g != 0).sum((1, 2, 3)).tolist(), "grad sum", g.sum())
print(
    "grad rows touched by roi 0 (image 0, channel 0):",
    g[0, 0].abs().sum(1).nonzero().flatten().tolist(),
)


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(2)
    return inter / (area_a[:, None] + area_b[None] - inter)


def encode(gt, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
    gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    gx, gy = gt[:, 0] + 0.5 * gw, gt[:, 1] + 0.5 * gh
    wx, wy, ww, wh = weights
    return torch.stack(
        [
            wx * (gx - ax) / aw,
            wy * (gy - ay) / ah,
            ww * torch.log(gw / aw),
            wh * torch.log(gh / ah),
        ],
        1,
    )


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
    dx, dy, dw, dh = (deltas / torch.tensor(weights)).unbind(1)
    cx, cy = dx * aw + ax, dy * ah + ay
    w, h = torch.exp(dw) * aw, torch.exp(dh) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)


boxes = rois[:, 1:]
gt = boxes + torch.tensor([0.5, -0.3, 1.0, 0.7])
ious = box_iou(boxes, gt)
print("IoU matrix\n", ious)
matched_iou, matched = ious.max(1)
print("matched", matched.tolist(), matched_iou)
deltas = encode(gt[matched], boxes)
print("deltas\n", deltas)
print("decode(encode) max error", (decode(deltas, boxes) - gt[matched]).abs().max().item() < 1e-4)
