# Models: DETR's set-prediction loss in miniature: box format conversions (cxcywh <-> xyxy),
# pairwise IoU and generalized IoU, a matching cost of class probability + L1 + GIoU,
# optimal assignment by brute force over permutations (what scipy's linear_sum_assignment
# returns on tiny problems), the no-object class with down-weighted cross-entropy, and a few
# training steps of a query-based box predictor.
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def box_cxcywh_to_xyxy(b):
    cx, cy, w, h = b.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], -1)


def box_xyxy_to_cxcywh(b):
    x0, y0, x1, y1 = b.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], -1)


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_iou(a, b):
    area1, area2 = box_area(a), box_area(b)
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area1[:, None] + area2 - inter
    return inter / union, union


def generalized_box_iou(a, b):
    iou, union = box_iou(a, b)
    lt = torch.min(a[:, None, :2], b[:, :2])
    rb = torch.max(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[..., 0] * wh[..., 1]
    return iou - (area - union) / area


boxes = torch.tensor([[0.5, 0.5, 0.2, 0.4], [0.3, 0.6, 0.3, 0.3]])
xyxy = box_cxcywh_to_xyxy(boxes)
print("xyxy:", xyxy)
print("round trip exact:", torch.allclose(box_xyxy_to_cxcywh(xyxy), boxes))
print("GIoU:\n", generalized_box_iou(xyxy, xyxy.flip(0)))


@torch.no_grad()
def hungarian(logits, pred_boxes, tgt_labels, tgt_boxes, w_class=1.0, w_bbox=5.0, w_giou=2.0):
    prob = logits.softmax(-1)
    cost = (-w_class * prob[:, tgt_labels] + w_bbox * torch.cdist(pred_boxes, tgt_boxes, p=1)
            - w_giou * generalized_box_iou(box_cxcywh_to_xyxy(pred_boxes),
                                           box_cxcywh_to_xyxy(tgt_boxes)))
    nq, nt = cost.shape
    best, best_rows = None, None
    for rows in itertools.permutations(range(nq), nt):
        total = cost[list(rows), range(nt)].sum()
        if best is None or total < best:
            best, best_rows = total, rows
    return torch.tensor(best_rows), torch.arange(nt), cost


N_QUERIES, N_CLASSES, D = 5, 3, 16


class TinyDETR(nn.Module):
    def __init__(self):
        super().__init__()
        self.queries = nn.Embedding(N_QUERIES, D)
        self.enc = nn.Linear(8, D)
        self.attn = nn.MultiheadAttention(D, 2, batch_first=True)
        self.cls = nn.Linear(D, N_CLASSES + 1)
        self.box = nn.Sequential(nn.Linear(D, D), nn.ReLU(), nn.Linear(D, 4))

    def forward(self, feats):
        mem = self.enc(feats)
        q = self.queries.weight[None].expand(feats.shape[0], -1, -1)
        h, _ = self.attn(q, mem, mem)
        h = h + q
        return self.cls(h), self.box(h).sigmoid()


def set_loss(logits, pred_boxes, targets):
    total = {"ce": 0.0, "l1": 0.0, "giou": 0.0}
    empty_weight = torch.ones(N_CLASSES + 1)
    empty_weight[-1] = 0.1
    for b, (labels, tboxes) in enumerate(targets):
        rows, cols, _ = hungarian(logits[b], pred_boxes[b], labels, tboxes)
        target_classes = torch.full((N_QUERIES,), N_CLASSES)
        target_classes[rows] = labels[cols]
        total["ce"] = total["ce"] + F.cross_entropy(logits[b], target_classes, weight=empty_weight)
        matched = pred_boxes[b][rows]
        total["l1"] = total["l1"] + F.l1_loss(matched, tboxes[cols], reduction="sum") / len(labels)
        giou = generalized_box_iou(box_cxcywh_to_xyxy(matched),
                                   box_cxcywh_to_xyxy(tboxes[cols])).diagonal()
        total["giou"] = total["giou"] + (1 - giou).mean()
    return {k: v / len(targets) for k, v in total.items()}


feats = torch.randn(4, 6, 8)
targets = []
for b in range(4):
    n = b % 3 + 1
    labels = torch.randint(0, N_CLASSES, (n,))
    centers = torch.rand(n, 2) * 0.6 + 0.2
    sizes = torch.rand(n, 2) * 0.2 + 0.1
    targets.append((labels, torch.cat([centers, sizes], 1)))
model = TinyDETR()
rows, cols, cost = hungarian(*[t[0] for t in model(feats)], *targets[2])
print("cost matrix:\n", cost)
print("assignment rows", rows.tolist(), "cols", cols.tolist())
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
for step in range(30):
    logits, pred = model(feats)
    losses = set_loss(logits, pred, targets)
    loss = losses["ce"] + 5 * losses["l1"] + 2 * losses["giou"]
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    opt.step()
    if step % 10 == 9:
        parts = " ".join(f"{k} {v.item():.4f}" for k, v in losses.items())
        print(f"step {step + 1} loss {loss.item():.4f} {parts}")
with torch.no_grad():
    logits, pred = model(feats)
print("predicted classes:", logits.argmax(-1))
print("boxes of image 0:\n", pred[0])
