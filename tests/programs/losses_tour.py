# Models: a course notebook comparing classification losses: label smoothing, class weights,
# ignore_index, focal loss, CTC for a toy speech model.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(8, 5, requires_grad=True)
target = torch.tensor([0, 1, 2, 3, 4, 1, -100, 2])
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
for ls in (0.0, 0.1):
    for weight in (None, w):
        loss = F.cross_entropy(logits, target, weight=weight, ignore_index=-100, label_smoothing=ls)
        (g,) = torch.autograd.grad(loss, logits)
        print(
            f"ls={ls} weighted={weight is not None} loss={loss.item():.6f} gsum={g.abs().sum():.6f}"
        )
print(F.cross_entropy(logits, target, reduction="none"))


def focal(logits, target, gamma=2.0):
    logp = F.log_softmax(logits, dim=-1)
    p = logp.exp()
    t = target.clamp(min=0)
    lp = logp.gather(1, t[:, None]).squeeze(1)
    pt = p.gather(1, t[:, None]).squeeze(1)
    mask = target != -100
    return (-((1 - pt) ** gamma) * lp)[mask].mean()


fl = focal(logits, target)
fl.backward()
print("focal", fl, logits.grad.norm())

# soft targets (probabilities)
soft = torch.softmax(torch.randn(8, 5), 1)
print(F.cross_entropy(logits, soft), F.cross_entropy(logits, soft, label_smoothing=0.2))

# CTC
T, N, C, S = 12, 3, 6, 4
lp = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
tg = torch.randint(1, C, (N, S), dtype=torch.long)
il = torch.full((N,), T, dtype=torch.long)
tl = torch.tensor([4, 3, 2])
ctc = nn.CTCLoss()
loss = ctc(lp, tg, il, tl)
loss.backward()
print("ctc", loss, lp.grad.abs().sum(), lp.grad.abs().max())
for red in ("sum", "none"):
    print(red, F.ctc_loss(lp, tg, il, tl, reduction=red, zero_infinity=True))

# BCE family
x = torch.randn(6, requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0])
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor(2.0)))
print(F.binary_cross_entropy(torch.sigmoid(x), y, weight=torch.linspace(0.5, 1.5, 6)))
print(F.kl_div(F.log_softmax(logits, 1), soft, reduction="batchmean"))
print(
    F.huber_loss(x, y, delta=0.5),
    F.smooth_l1_loss(x, y, beta=0.3),
    F.soft_margin_loss(x, y * 2 - 1),
)
print(F.margin_ranking_loss(x, -x, torch.sign(y - 0.5)), F.hinge_embedding_loss(x, y * 2 - 1))
print(
    F.multilabel_soft_margin_loss(logits, (soft > 0.2).float()),
    F.multi_margin_loss(logits, target.clamp(min=0)),
)
print(F.poisson_nll_loss(x, y), F.gaussian_nll_loss(x, y, torch.ones(6) * 0.5))
print(
    F.triplet_margin_loss(logits[:3], logits[3:6], logits[5:8]),
    F.cosine_embedding_loss(logits[:4], logits[4:], torch.tensor([1, -1, 1, -1])),
)
