# Models: object-detection course code: the YOLOv1 loss written by hand (responsible-box
# selection by IoU, sqrt width/height, lambda_coord/lambda_noobj), box format conversions,
# GIoU/DIoU losses, and a tiny detector head trained on synthetic single-object images.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(13)


def xywh_to_xyxy(b):
    return torch.cat([b[..., :2] - b[..., 2:] / 2, b[..., :2] + b[..., 2:] / 2], -1)


def iou(a, b):
    lt = torch.max(a[..., :2], b[..., :2])
    rb = torch.min(a[..., 2:], b[..., 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[..., 2:] - x[..., :2]).prod(-1)  # noqa: E731
    return inter / (area(a) + area(b) - inter + 1e-6)


def giou_loss(a, b, distance=False):
    i = iou(a, b)
    lt = torch.min(a[..., :2], b[..., :2])
    rb = torch.max(a[..., 2:], b[..., 2:])
    enclose = (rb - lt).clamp(min=0)
    if distance:
        ca, cb = (a[..., :2] + a[..., 2:]) / 2, (b[..., :2] + b[..., 2:]) / 2
        return 1 - i + ((ca - cb) ** 2).sum(-1) / ((enclose ** 2).sum(-1) + 1e-7)
    lt2, rb2 = torch.max(a[..., :2], b[..., :2]), torch.min(a[..., 2:], b[..., 2:])
    inter = (rb2 - lt2).clamp(min=0).prod(-1)
    union = (a[..., 2:] - a[..., :2]).prod(-1) + (b[..., 2:] - b[..., :2]).prod(-1) - inter
    c_area = enclose.prod(-1)
    return 1 - i + (c_area - union) / (c_area + 1e-7)


S, B, C = 4, 2, 3


class YoloLoss(nn.Module):
    def __init__(self, lambda_coord=5.0, lambda_noobj=0.5):
        super().__init__()
        self.lambda_coord, self.lambda_noobj = lambda_coord, lambda_noobj

    def forward(self, pred, target):
        pred = pred.reshape(-1, S, S, C + B * 5)
        boxes = pred[..., C:].reshape(-1, S, S, B, 5)
        tbox = target[..., C + 1:C + 5]
        obj = target[..., C] > 0
        ious = torch.stack([iou(xywh_to_xyxy(boxes[..., b, 1:]), xywh_to_xyxy(tbox))
                            for b in range(B)], -1)
        best = ious.argmax(-1)
        resp = F.one_hot(best, B).bool() & obj[..., None]
        chosen = boxes[resp]
        tgt = tbox[obj]
        xy_loss = F.mse_loss(chosen[:, 1:3], tgt[:, :2], reduction="sum")
        wh_loss = F.mse_loss(torch.sign(chosen[:, 3:5]) * torch.sqrt(chosen[:, 3:5].abs() + 1e-6),
                             torch.sqrt(tgt[:, 2:]), reduction="sum")
        obj_loss = F.mse_loss(chosen[:, 0], ious[resp].detach(), reduction="sum")
        noobj_loss = F.mse_loss(boxes[..., 0][~resp], torch.zeros_like(boxes[..., 0][~resp]),
                                reduction="sum")
        cls_loss = F.mse_loss(pred[..., :C][obj], target[..., :C][obj], reduction="sum")
        n = pred.shape[0]
        parts = torch.stack([self.lambda_coord * (xy_loss + wh_loss), obj_loss,
                             self.lambda_noobj * noobj_loss, cls_loss]) / n
        return parts.sum(), parts.detach()


def make_batch(n, size=32):
    imgs = torch.zeros(n, 1, size, size)
    target = torch.zeros(n, S, S, C + 5)
    for k in range(n):
        w, h = torch.randint(6, 14, (2,)).tolist()
        x0, y0 = torch.randint(0, size - w, (1,)).item(), torch.randint(0, size - h, (1,)).item()
        cls = torch.randint(0, C, (1,)).item()
        imgs[k, 0, y0:y0 + h, x0:x0 + w] = 1.0 + cls
        cx, cy = (x0 + w / 2) / size, (y0 + h / 2) / size
        i, j = int(cy * S), int(cx * S)
        target[k, i, j, cls] = 1.0
        target[k, i, j, C] = 1.0
        target[k, i, j, C + 1:] = torch.tensor([cx * S - j, cy * S - i, w / size, h / size])
    return imgs, target


imgs, target = make_batch(16)
print(imgs.shape, target[target[..., C] > 0][:, C + 1:])
net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
                    nn.Conv2d(8, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(S),
                    nn.Flatten(), nn.Linear(16 * S * S, S * S * (C + B * 5)))
crit = YoloLoss()
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
for step in range(15):
    opt.zero_grad()
    loss, parts = crit(net(imgs), target)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step}: loss {loss.item():.5f} parts {parts}")
a = torch.tensor([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]])
b = torch.tensor([[1.0, 1.0, 3.0, 3.0], [5.0, 5.0, 6.0, 6.0]])
print(iou(a, b), giou_loss(a, b), giou_loss(a, b, distance=True))
