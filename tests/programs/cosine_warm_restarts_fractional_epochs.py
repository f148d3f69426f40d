# Models: the SGDR paper's schedule as used in Kaggle kernels: CosineAnnealingWarmRestarts with
# T_0 and T_mult, stepping with fractional epochs inside an epoch (epoch + i / iters), eta_min,
# T_cur / T_i tracking, CosineAnnealingLR for comparison, and the argument errors.
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, CosineAnnealingWarmRestarts

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1)
sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 4
for epoch in range(7):
    lrs = []
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        lrs.append(round(opt.param_groups[0]["lr"], 6))
    print(epoch, lrs, "T_cur", round(sched.T_cur, 4), "T_i", sched.T_i)
opt2 = torch.optim.SGD(p, lr=0.1)
s2 = CosineAnnealingWarmRestarts(opt2, T_0=3)
print([round(s2.get_last_lr()[0], 6)] + [
    round((opt2.step(), s2.step(), s2.get_last_lr()[0])[2], 6) for _ in range(8)])
opt3 = torch.optim.SGD(p, lr=0.1)
s3 = CosineAnnealingLR(opt3, T_max=4, eta_min=0.01)
vals = []
for _ in range(10):
    opt3.step()
    s3.step()
    vals.append(round(s3.get_last_lr()[0], 6))
print("cosine annealing", vals)
print(sorted(sched.state_dict()))
for kwargs in [dict(T_0=0), dict(T_0=2, T_mult=0), dict(T_0=2, T_mult=1.5),
               dict(T_0=2, eta_min="x")]:
    try:
        CosineAnnealingWarmRestarts(opt, **kwargs)
    except ValueError as e:
        print("ValueError:", e)
try:
    sched.step(-1)
except ValueError as e:
    print("ValueError:", e)
