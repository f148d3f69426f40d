# Models: learning-rate schedule debugging: SequentialLR of warmup + cosine, ChainedScheduler,
# OneCycleLR (three-phase, linear annealing, momentum cycling), CyclicLR exp_range,
# CosineAnnealingWarmRestarts with T_mult and fractional epochs, PolynomialLR and
# ReduceLROnPlateau with cooldown and absolute thresholds; every LR printed exactly.
import torch
from torch.optim import SGD, Adam
from torch.optim import lr_scheduler as S


def run(make_opt, make_sched, steps, metric=None):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = make_opt([p])
    sched = make_sched(opt)
    lrs = []
    for i in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(i))
        lrs.append(opt.param_groups[0]["lr"])
    return lrs, opt


lrs, _ = run(lambda p: SGD(p, lr=0.1), lambda o: S.SequentialLR(
    o, [S.LinearLR(o, start_factor=0.1, total_iters=4),
        S.CosineAnnealingLR(o, T_max=10, eta_min=1e-4)], milestones=[4]), 14)
print("sequential", lrs)
lrs, _ = run(lambda p: SGD(p, lr=0.05), lambda o: S.ChainedScheduler(
    [S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=3, gamma=0.5)]), 9)
print("chained", lrs)
lrs, opt = run(lambda p: SGD(p, lr=0.1, momentum=0.9), lambda o: S.OneCycleLR(
    o, max_lr=0.3, total_steps=12, pct_start=0.25, anneal_strategy="linear", three_phase=True,
    div_factor=10, final_div_factor=100), 11)
print("onecycle", lrs, opt.param_groups[0]["momentum"])
lrs, opt = run(lambda p: Adam(p, lr=1e-3), lambda o: S.OneCycleLR(o, max_lr=1e-2, epochs=2,
                                                                   steps_per_epoch=5), 9)
print("onecycle_adam", lrs, opt.param_groups[0]["betas"])
lrs, _ = run(lambda p: SGD(p, lr=0.01, momentum=0.9), lambda o: S.CyclicLR(
    o, base_lr=0.001, max_lr=0.01, step_size_up=3, mode="exp_range", gamma=0.95), 12)
print("cyclic", lrs)
lrs, _ = run(lambda p: SGD(p, lr=0.1), lambda o: S.CyclicLR(
    o, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=4, mode="triangular2"), 14)
print("cyclic2", lrs)
p = torch.nn.Parameter(torch.zeros(1))
opt = SGD([p], lr=0.2)
sched = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
frac = []
for epoch in range(4):
    for b in range(4):
        opt.step()
        sched.step(epoch + b / 4)
        frac.append(opt.param_groups[0]["lr"])
print("warm_restarts", frac)
lrs, _ = run(lambda p: SGD(p, lr=0.3), lambda o: S.PolynomialLR(o, total_iters=6, power=1.7), 8)
print("poly", lrs)
lrs, _ = run(lambda p: SGD(p, lr=1.0), lambda o: S.ReduceLROnPlateau(
    o, mode="min", factor=0.3, patience=1, threshold=0.05, threshold_mode="abs", cooldown=2,
    min_lr=0.01), 16, metric=lambda i: 1.0 / (1 + i) if i < 4 else 0.2 + 0.01 * (i % 2))
print("plateau", lrs)
lrs, _ = run(lambda p: SGD(p, lr=0.1),
             lambda o: S.MultiStepLR(o, milestones=[2, 5, 5, 7], gamma=0.3), 9)
print("multistep", lrs)
lrs, _ = run(lambda p: SGD(p, lr=0.1),
             lambda o: S.LambdaLR(o, lambda e: 0.95 ** e * (1 + e % 3)), 6)
print("lambda", lrs)
