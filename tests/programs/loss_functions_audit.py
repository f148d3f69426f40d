# Models: a loss-function regression suite: every torch.nn loss on fixed float32 data with
# each reduction, the value and the input gradient's sum printed at full precision.
import torch
import torch.nn as nn

torch.manual_seed(0)
N, C = 27, 11
logits = torch.randn(N, C)
target = torch.randint(0, C, (N,))
reg_in, reg_t = torch.randn(N, C), torch.randn(N, C)
prob = torch.rand(N, C) * 0.98 + 0.01
binary = (torch.rand(N, C) > 0.5).float()
sign = torch.sign(torch.randn(N))
w = torch.rand(C) + 0.5
cases = [
    ("CrossEntropy", lambda r: nn.CrossEntropyLoss(weight=w, reduction=r, label_smoothing=0.05),
     logits, target),
    ("CrossEntropyProbs", lambda r: nn.CrossEntropyLoss(reduction=r), logits, prob.softmax(1)),
    ("NLL", lambda r: nn.NLLLoss(reduction=r, ignore_index=3), logits.log_softmax(1), target),
    ("MSE", lambda r: nn.MSELoss(reduction=r), reg_in, reg_t),
    ("L1", lambda r: nn.L1Loss(reduction=r), reg_in, reg_t),
    ("SmoothL1", lambda r: nn.SmoothL1Loss(reduction=r, beta=0.5), reg_in, reg_t),
    ("Huber", lambda r: nn.HuberLoss(reduction=r, delta=0.8), reg_in, reg_t),
    ("BCE", lambda r: nn.BCELoss(reduction=r, weight=w), prob, binary),
    ("BCEWithLogits", lambda r: nn.BCEWithLogitsLoss(reduction=r, pos_weight=w), reg_in, binary),
    ("KLDiv", lambda r: nn.KLDivLoss(reduction=r), logits.log_softmax(1), prob),
    ("KLDivLog", lambda r: nn.KLDivLoss(reduction=r, log_target=True), logits.log_softmax(1),
     prob.log()),
    ("PoissonNLL", lambda r: nn.PoissonNLLLoss(reduction=r), reg_in, prob * 4),
    ("GaussianNLL", None, reg_in, reg_t),
    ("SoftMargin", lambda r: nn.SoftMarginLoss(reduction=r), reg_in, torch.sign(reg_t)),
    ("MultiLabelSoftMargin", lambda r: nn.MultiLabelSoftMarginLoss(weight=w, reduction=r),
     reg_in, binary),
    ("MultiMargin", lambda r: nn.MultiMarginLoss(p=1, margin=0.7, weight=w, reduction=r),
     logits, target),
    ("MultiLabelMargin", lambda r: nn.MultiLabelMarginLoss(reduction=r), logits,
     torch.where(binary.bool(), torch.arange(C).expand(N, C), -1).sort(1, descending=True)[0]),
    ("HingeEmbedding", lambda r: nn.HingeEmbeddingLoss(margin=0.6, reduction=r), reg_in,
     torch.sign(reg_t)),
]
for name, make, inp, tgt in cases:
    for r in ("mean", "sum", "none"):
        x = inp.clone().requires_grad_()
        if make is None:
            loss = nn.GaussianNLLLoss(reduction=r, full=True)(x, tgt, prob + 0.1)
        else:
            loss = make(r)(x, tgt)
        torch.manual_seed(5)
        cot = torch.rand(loss.shape) if r == "none" else torch.tensor(1.0)
        (g,) = torch.autograd.grad(loss, x, cot)
        print(f"{name:22s} {r:4s} {loss.sum().item()!r} {g.sum().item()!r}")
a, b = torch.randn(N, 8, requires_grad=True), torch.randn(N, 8)
for name, loss in [
        ("CosineEmbedding", nn.CosineEmbeddingLoss(margin=0.1)(a, b, sign)),
        ("MarginRanking", nn.MarginRankingLoss(margin=0.2)(a[:, 0], b[:, 0], sign)),
        ("TripletMargin", nn.TripletMarginLoss(margin=0.5, p=1.5)(a, b, b.flip(0))),
        ("TripletDistance", nn.TripletMarginWithDistanceLoss(
            distance_function=nn.PairwiseDistance(p=3), margin=0.4, swap=True)(a, b, b.flip(0)))]:
    (g,) = torch.autograd.grad(loss, a)
    print(f"{name:22s} {loss.item()!r} {g.sum().item()!r}")
