# Models: CenterNet-style keypoint detection: Gaussian heatmap targets drawn with
# the radius formula, penalty-reduced focal loss, 3x3 max-pool NMS and top-k decoding with
# offset and size heads.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def gaussian_radius(h, w, min_overlap=0.7):
    b1 = h + w
    c1 = w * h * (1 - min_overlap) / (1 + min_overlap)
    r1 = (b1 + math.sqrt(b1**2 - 4 * c1)) / 2
    b2 = 2 * (h + w)
    c2 = (1 - min_overlap) * w * h
    r2 = (b2 + math.sqrt(b2**2 - 16 * c2)) / 2
    a3 = 4 * min_overlap
    b3 = -2 * min_overlap * (h + w)
    c3 = (min_overlap - 1) * w * h
    r3 = (b3 + math.sqrt(b3**2 - 4 * a3 * c3)) / 2
    return min(r1, r2, r3)


def draw_gaussian(hm, cx, cy, radius):
    d = 2 * radius + 1
    sigma = d / 6
    ys, xs = torch.meshgrid(torch.arange(hm.shape[0]), torch.arange(hm.shape[1]), indexing="ij")
    g = torch.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
    g[(xs - cx).abs().gt(radius) | (ys - cy).abs().gt(radius)] = 0
    torch.maximum(hm, g, out=hm)


H = W = 32
boxes = torch.tensor([[4.0, 5.0, 14.0, 20.0], [18.0, 2.0, 30.0, 10.0], [10.0, 18.0, 26.0, 30.0]])
classes = torch.tensor([0, 1, 0])
heat = torch.zeros(2, H, W)
wh = torch.zeros(2, H, W)
offset = torch.zeros(2, H, W)
for (x1, y1, x2, y2), c in zip(boxes.tolist(), classes.tolist()):
    w, h = x2 - x1, y2 - y1
    r = max(0, int(gaussian_radius(math.ceil(h), math.ceil(w))))
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    ix, iy = int(cx), int(cy)
    draw_gaussian(heat[c], ix, iy, r)
    wh[:, iy, ix] = torch.tensor([w, h])
    offset[:, iy, ix] = torch.tensor([cx - ix, cy - iy])
    print(f"box {[x1, y1, x2, y2]} class {c} radius {r} center ({ix},{iy})")
print("peaks per class", (heat == 1).sum((1, 2)).tolist(), "heat sum", heat.sum((1, 2)))
torch.set_printoptions(precision=2, linewidth=120)
print(heat[0, 8:16, 6:14])
torch.set_printoptions(profile="default")


def focal_loss(pred_logits, gt, alpha=2, beta=4):
    pred = pred_logits.sigmoid().clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** alpha * pos
    neg_loss = torch.log(1 - pred) * pred**alpha * (1 - gt) ** beta * neg
    num_pos = pos.sum()
    return -(pos_loss.sum() + neg_loss.sum()) / num_pos.clamp_min(1)


logits = torch.full((2, H, W), -2.0, requires_grad=True)
opt = torch.optim.Adam([logits], lr=0.1)
for step in range(60):
    loss = focal_loss(logits, heat)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step} focal loss {loss.item():.5f}")


def decode(hm_logits, wh, offset, k=5):
    hm = hm_logits.sigmoid()
    hmax = F.max_pool2d(hm[None], 3, stride=1, padding=1)[0]
    keep = (hmax == hm).float()
    hm = hm * keep
    scores, inds = torch.topk(hm.reshape(-1), k)
    cls = torch.div(inds, H * W, rounding_mode="floor")
    pix = inds % (H * W)
    ys, xs = torch.div(pix, W, rounding_mode="floor"), pix % W
    off = offset.reshape(2, -1)[:, pix]
    size = wh.reshape(2, -1)[:, pix]
    cx, cy = xs.float() + off[0], ys.float() + off[1]
    dets = torch.stack([cx - size[0] / 2, cy - size[1] / 2, cx + size[0] / 2, cy + size[1] / 2], 1)
    return dets, scores, cls


dets, scores, cls = decode(logits.detach(), wh, offset)
print("scores", scores)
print("classes", cls.tolist())
print("boxes\n", dets[:3])
print("recovered gt:", torch.allclose(dets[:3].sort(0).values, boxes.sort(0).values))
