# Models: "why does my LR schedule resume wrong" debugging: every scheduler printed through its
# state_dict() after a few steps (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR,
# CosineAnnealingWarmRestarts, OneCycleLR, CyclicLR, LambdaLR, LinearLR, SequentialLR,
# ReduceLROnPlateau), get_last_lr(), and a resumed scheduler continuing the same sequence.
import torch
from torch import nn
from torch.optim import lr_scheduler as S

torch.manual_seed(0)


def make():
    model = nn.Linear(2, 1)
    return torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def show(name, sched, opt, steps=5, metric=None):
    lrs = []
    for i in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric[i])
        lrs.append(round(opt.param_groups[0]["lr"], 8))
    print(f"{name}: {lrs}")
    sd = sched.state_dict()
    for k in sorted(sd):
        if k in ("lr_lambdas", "_schedulers", "optimizer"):
            continue
        print(f"   {k} = {sd[k]!r}")
    return sd


opt = make()
show("StepLR", S.StepLR(opt, step_size=2, gamma=0.5), opt)
opt = make()
show("MultiStepLR", S.MultiStepLR(opt, milestones=[1, 3], gamma=0.1), opt)
opt = make()
show("ExponentialLR", S.ExponentialLR(opt, gamma=0.9), opt)
opt = make()
show("CosineAnnealingLR", S.CosineAnnealingLR(opt, T_max=4, eta_min=0.01), opt, steps=6)
opt = make()
show("CosineAnnealingWarmRestarts", S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2), opt,
     steps=7)
opt = make()
show("OneCycleLR", S.OneCycleLR(opt, max_lr=1.0, total_steps=10), opt, steps=6)
opt = make()
show("CyclicLR", S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2), opt, steps=6)
opt = make()
sd = show("LambdaLR", S.LambdaLR(opt, lambda e: 1 / (e + 1)), opt)
print("   lr_lambdas", sd["lr_lambdas"])
opt = make()
show("LinearLR", S.LinearLR(opt, start_factor=0.25, total_iters=3), opt)
opt = make()
seq = S.SequentialLR(opt, [S.ConstantLR(opt, factor=0.5, total_iters=2),
                           S.ExponentialLR(opt, gamma=0.8)], milestones=[2])
sd = show("SequentialLR", seq, opt)
print("   inner", [sorted(s) for s in sd["_schedulers"]])
opt = make()
sd = show("ReduceLROnPlateau", S.ReduceLROnPlateau(opt, patience=1, factor=0.5),
          opt, steps=6, metric=[1.0, 0.9, 0.95, 0.97, 0.99, 0.85])
opt = make()
chain = S.ChainedScheduler([S.ConstantLR(opt, factor=0.1, total_iters=2),
                            S.ExponentialLR(opt, gamma=0.9)])
for _ in range(4):
    opt.step()
    chain.step()
print("ChainedScheduler last lr", chain.get_last_lr())

# resume mid-schedule
opt = make()
sched = S.CosineAnnealingLR(opt, T_max=10)
for _ in range(4):
    opt.step()
    sched.step()
saved_opt, saved_sched = opt.state_dict(), sched.state_dict()
cont = []
for _ in range(3):
    opt.step()
    sched.step()
    cont.append(sched.get_last_lr()[0])
opt2 = make()
sched2 = S.CosineAnnealingLR(opt2, T_max=10)
opt2.load_state_dict(saved_opt)
sched2.load_state_dict(saved_sched)
res = []
for _ in range(3):
    opt2.step()
    sched2.step()
    res.append(sched2.get_last_lr()[0])
print("continued", cont)
print("resumed  ", res, res == cont)
print("optimizer initial_lr", opt2.param_groups[0]["initial_lr"])
