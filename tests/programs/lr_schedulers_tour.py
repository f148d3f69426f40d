# Models: a "learning-rate schedules explained" blog post (StepLR, MultiStepLR, ExponentialLR,
# CosineAnnealingLR, CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR, PolynomialLR,
# LinearLR + SequentialLR warmup, ChainedScheduler, ReduceLROnPlateau), printing lr curves.
import torch
from torch.optim import lr_scheduler as S


def curve(make, steps=12, opt_cls=torch.optim.SGD, **kw):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=0.1, **kw)
    sched = make(opt)
    out = []
    for i in range(steps):
        opt.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
        if isinstance(sched, S.ReduceLROnPlateau):
            sched.step(1.0 if i > 2 else 2.0 - i)
        else:
            sched.step()
    return out


print("step", curve(lambda o: S.StepLR(o, 3, gamma=0.5)))
print("multistep", curve(lambda o: S.MultiStepLR(o, [2, 5, 9], gamma=0.3)))
print("exp", curve(lambda o: S.ExponentialLR(o, 0.8)))
print("cos", curve(lambda o: S.CosineAnnealingLR(o, T_max=6, eta_min=0.01)))
print("warm restarts", curve(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)))
print("cyclic", curve(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="triangular2"),
                      momentum=0.9))
print("onecycle", curve(lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=12), momentum=0.9))
print("onecycle lin", curve(lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=12,
                                                   anneal_strategy="linear",
                                                   three_phase=True), momentum=0.9))
print("poly", curve(lambda o: S.PolynomialLR(o, total_iters=8, power=2.0)))
print("warmup+cos", curve(lambda o: S.SequentialLR(
    o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=9)],
    milestones=[3])))
print("chained", curve(lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=4),
                                                     S.ExponentialLR(o, gamma=0.9)])))
print("plateau", curve(lambda o: S.ReduceLROnPlateau(o, factor=0.5, patience=1, cooldown=1)))
print("lambda", curve(lambda o: S.LambdaLR(o, lambda e: 1 / (1 + e))))
print("multiplicative", curve(lambda o: S.MultiplicativeLR(o, lambda e: 0.95)))
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([p], lr=0.1)
sched = S.OneCycleLR(opt, max_lr=0.3, epochs=2, steps_per_epoch=4)
for _ in range(5):
    opt.step()
    sched.step()
state = sched.state_dict()
print(sorted(state)[:6], opt.param_groups[0]["betas"], sched.get_last_lr())
sched2 = S.OneCycleLR(opt, max_lr=0.3, epochs=2, steps_per_epoch=4)
sched2.load_state_dict(state)
print(sched2.last_epoch, sched2.get_last_lr())
