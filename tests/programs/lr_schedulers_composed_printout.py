# Models: composing learning-rate schedulers as training scripts do: linear warmup then cosine
# with SequentialLR, ChainedScheduler of ExponentialLR and MultiStepLR, OneCycleLR with
# momentum cycling (SGD and Adam betas), CyclicLR triangular2/exp_range, ReduceLROnPlateau on a
# validation metric, LambdaLR/MultiplicativeLR, and get_last_lr/state_dict printing.
import torch
from torch.optim import SGD, Adam
from torch.optim.lr_scheduler import (
    ChainedScheduler,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    OneCycleLR,
    PolynomialLR,
    ReduceLROnPlateau,
    SequentialLR,
    StepLR,
)

torch.manual_seed(0)


def make(opt_cls=SGD, **kw):
    p = torch.nn.Parameter(torch.zeros(2))
    return opt_cls([p], **kw)


opt = make(lr=0.1)
warm = LinearLR(opt, start_factor=0.1, total_iters=3)
cos = CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
sched = SequentialLR(opt, [warm, cos], milestones=[3])
lrs = []
for _ in range(10):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print("warmup+cosine", lrs)

opt = make(lr=1.0)
sched = ChainedScheduler(
    [ExponentialLR(opt, gamma=0.9), MultiStepLR(opt, milestones=[2, 4], gamma=0.5)]
)
out = []
for _ in range(6):
    opt.step()
    sched.step()
    out.append(round(opt.param_groups[0]["lr"], 6))
print("chained", out)

opt = make(lr=0.01, momentum=0.9)
sched = OneCycleLR(opt, max_lr=0.1, total_steps=10)
rows = []
for _ in range(10):
    rows.append((round(opt.param_groups[0]["lr"], 6), round(opt.param_groups[0]["momentum"], 4)))
    opt.step()
    sched.step()
print("onecycle sgd", rows)
opt = make(Adam, lr=0.01)
sched = OneCycleLR(
    opt, max_lr=0.05, epochs=2, steps_per_epoch=4, anneal_strategy="linear", pct_start=0.25
)
rows = []
for _ in range(8):
    rows.append(
        (
            round(opt.param_groups[0]["lr"], 6),
            tuple(round(b, 4) for b in opt.param_groups[0]["betas"]),
        )
    )
    opt.step()
    sched.step()
print("onecycle adam", rows)

opt = make(lr=0.1, momentum=0.9)
sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
out = []
for _ in range(12):
    opt.step()
    sched.step()
    out.append(round(sched.get_last_lr()[0], 5))
print("cyclic triangular2", out)
opt = make(lr=0.1, momentum=0.9)
sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9)
out = []
for _ in range(8):
    opt.step()
    sched.step()
    out.append((round(sched.get_last_lr()[0], 5), round(opt.param_groups[0]["momentum"], 4)))
print("cyclic exp_range", out)

opt = make(lr=0.1)
plateau = ReduceLROnPlateau(
    opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.01
)
val = [1.0, 0.9, 0.9, 0.9, 0.9, 0.89, 0.95, 0.95, 0.95, 0.95, 0.95]
for epoch, v in enumerate(val):
    plateau.step(v)
    print(epoch, v, opt.param_groups[0]["lr"], plateau.num_bad_epochs, plateau.cooldown_counter)
print(plateau.get_last_lr())

opt = make(lr=0.5)
s1 = LambdaLR(opt, lr_lambda=lambda e: 1.0 / (1 + e))
out = []
for _ in range(4):
    opt.step()
    s1.step()
    out.append(s1.get_last_lr()[0])
print("lambda", out)
opt = make(lr=0.5)
s2 = MultiplicativeLR(opt, lr_lambda=lambda e: 0.95)
for _ in range(3):
    opt.step()
    s2.step()
print("multiplicative", s2.get_last_lr())
opt = make(lr=0.2)
s3 = PolynomialLR(opt, total_iters=4, power=2.0)
out = []
for _ in range(6):
    opt.step()
    s3.step()
    out.append(round(s3.get_last_lr()[0], 6))
print("poly", out)
opt = make(lr=0.1)
s4 = CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.0)
out = []
for _ in range(10):
    opt.step()
    s4.step()
    out.append(round(s4.get_last_lr()[0], 5))
print("warm restarts", out, s4.T_i, s4.T_cur)
opt = make(lr=0.3)
s5 = StepLR(opt, step_size=2, gamma=0.1)
for _ in range(3):
    opt.step()
    s5.step()
sd = s5.state_dict()
print({k: v for k, v in sd.items()})
