# Models: an object-detection tutorial without torchvision: anchor generation over a feature map
# (scales x aspect ratios), box IoU, box encoding/decoding (delta parameterisation), greedy NMS
# written with a while loop and batched NMS by category offsets.
import torch

torch.manual_seed(0)


def generate_anchors(fm_size, stride, scales=(16, 32), ratios=(0.5, 1.0, 2.0)):
    scales = torch.tensor(scales, dtype=torch.float32)
    ratios = torch.tensor(ratios)
    h_ratios = torch.sqrt(ratios)
    w_ratios = 1 / h_ratios
    ws = (w_ratios[:, None] * scales[None, :]).view(-1)
    hs = (h_ratios[:, None] * scales[None, :]).view(-1)
    base = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    shifts_x = torch.arange(0, fm_size[1]) * stride
    shifts_y = torch.arange(0, fm_size[0]) * stride
    sy, sx = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
    shifts = torch.stack((sx.reshape(-1), sy.reshape(-1), sx.reshape(-1), sy.reshape(-1)), dim=1)
    return (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4)


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (box_area(a)[:, None] + box_area(b) - inter)


def encode(ref, proposals, weights=(10.0, 10.0, 5.0, 5.0)):
    pw, ph = proposals[:, 2] - proposals[:, 0], proposals[:, 3] - proposals[:, 1]
    px, py = proposals[:, 0] + 0.5 * pw, proposals[:, 1] + 0.5 * ph
    gw, gh = ref[:, 2] - ref[:, 0], ref[:, 3] - ref[:, 1]
    gx, gy = ref[:, 0] + 0.5 * gw, ref[:, 1] + 0.5 * gh
    wx, wy, ww, wh = weights
    return torch.stack(
        [
            wx * (gx - px) / pw,
            wy * (gy - py) / ph,
            ww * torch.log(gw / pw),
            wh * torch.log(gh / ph),
        ],
        dim=1,
    )


def decode(deltas, boxes, weights=(10.0, 10.0, 5.0, 5.0)):
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    cx, cy = boxes[:, 0] + 0.5 * w, boxes[:, 1] + 0.5 * h
    dx, dy = deltas[:, 0] / weights[0], deltas[:, 1] / weights[1]
    dw = (deltas[:, 2] / weights[2]).clamp(max=torch.log(torch.tensor(1000.0 / 16)))
    dh = (deltas[:, 3] / weights[3]).clamp(max=torch.log(torch.tensor(1000.0 / 16)))
    pcx, pcy = dx * w + cx, dy * h + cy
    pw, ph = torch.exp(dw) * w, torch.exp(dh) * h
    return torch.stack([pcx - 0.5 * pw, pcy - 0.5 * ph, pcx + 0.5 * pw, pcy + 0.5 * ph], dim=1)


def nms(boxes, scores, iou_threshold):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i][None], boxes[order[1:]])[0]
        order = order[1:][ious <= iou_threshold]
    return torch.tensor(keep, dtype=torch.int64)


def batched_nms(boxes, scores, idxs, thr):
    offsets = idxs.to(boxes) * (boxes.max() + 1)
    return nms(boxes + offsets[:, None], scores, thr)


anchors = generate_anchors((3, 4), stride=16)
print(anchors.shape)
print(anchors[:6])
gt = torch.tensor([[10.0, 12.0, 40.0, 30.0], [30.0, 5.0, 60.0, 45.0]])
iou = box_iou(anchors, gt)
print(iou.shape, iou.max(dim=0))
best_iou, matched = iou.max(dim=1)
labels = torch.where(best_iou >= 0.5, 1, torch.where(best_iou < 0.3, 0, -1))
print(labels.view(12, 6)[:4], labels.eq(1).sum().item(), labels.eq(-1).sum().item())
deltas = encode(gt[matched], anchors)
print(deltas[:3])
rec = decode(deltas, anchors)
print(torch.allclose(rec, gt[matched], atol=1e-4))

boxes = torch.rand(20, 2) * 50
boxes = torch.cat([boxes, boxes + torch.rand(20, 2) * 30 + 5], dim=1)
scores = torch.rand(20)
cats = torch.randint(0, 3, (20,))
keep = nms(boxes, scores, 0.3)
print(keep)
print(batched_nms(boxes, scores, cats, 0.3))
print(scores[keep].round(decimals=4))
