# Models: a robust-regression loss comparison: L1Loss, MSELoss, SmoothL1Loss with beta and
# HuberLoss with delta (Huber = beta * SmoothL1 when delta == beta), the quadratic/linear switch
# at the threshold, beta=0 reducing to L1, gradients at the boundary, and reductions.
import torch
import torch.nn as nn
import torch.nn.functional as F

err = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0], requires_grad=True)
zero = torch.zeros(7)
print("l1", F.l1_loss(err, zero, reduction="none"))
print("mse", F.mse_loss(err, zero, reduction="none"))
for beta in [1.0, 0.5, 2.0]:
    s = F.smooth_l1_loss(err, zero, beta=beta, reduction="none")
    h = F.huber_loss(err, zero, delta=beta, reduction="none")
    print("beta", beta, s, "huber == beta*smooth", torch.allclose(h, beta * s))
print("beta 0 == l1", torch.equal(F.smooth_l1_loss(err, zero, beta=0.0, reduction="none"),
                                  F.l1_loss(err, zero, reduction="none")))
loss = nn.HuberLoss(delta=1.0)(err, zero)
loss.backward()
print("huber mean", loss, "grad", err.grad)
err.grad = None
nn.SmoothL1Loss(beta=1.0, reduction="sum")(err, zero).backward()
print("smooth l1 sum grad", err.grad)
err.grad = None
F.l1_loss(err, zero).backward()
print("l1 grad (sign, 0 at 0)", err.grad)
print("reductions", [round(F.huber_loss(err.detach(), zero, reduction=r).item(), 6)
                     for r in ["mean", "sum"]])
try:
    F.smooth_l1_loss(err, zero, beta=-1.0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.huber_loss(err, zero, delta=0.0)
except RuntimeError as e:
    print("RuntimeError:", e)
