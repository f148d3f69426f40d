# Models: an LR scheduler demo (the scheduler-visualisation notebooks): StepLR, MultiStepLR,
# ExponentialLR, CosineAnnealingLR, OneCycleLR, LambdaLR, ReduceLROnPlateau, printing the
# learning rate per epoch.
import torch
from torch import nn
from torch.optim import lr_scheduler


def run(make, epochs=8, **kw):
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = make(opt, **kw)
    lrs = []
    for _ in range(epochs):
        opt.zero_grad()
        model(torch.ones(1, 2)).sum().backward()
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 8))
    print(type(sched).__name__, lrs)


torch.manual_seed(0)
run(lr_scheduler.StepLR, step_size=3, gamma=0.5)
run(lr_scheduler.MultiStepLR, milestones=[2, 5], gamma=0.1)
run(lr_scheduler.ExponentialLR, gamma=0.9)
run(lr_scheduler.CosineAnnealingLR, T_max=6, eta_min=0.001)
run(lr_scheduler.OneCycleLR, max_lr=1.0, total_steps=10)
run(lr_scheduler.LambdaLR, lr_lambda=lambda e: 0.95 ** e)
run(lr_scheduler.LinearLR, start_factor=0.25, total_iters=4)
run(lr_scheduler.CosineAnnealingWarmRestarts, T_0=3, T_mult=2)

model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for epoch, val_loss in enumerate([1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]):
    plateau.step(val_loss)
    print(epoch, opt.param_groups[0]["lr"])
print(plateau.state_dict()["best"], plateau.num_bad_epochs)
warm = lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=2)
cos = lr_scheduler.CosineAnnealingLR(opt, T_max=3)
seq = lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[2])
for _ in range(5):
    opt.step()
    seq.step()
    print(f"{opt.param_groups[0]['lr']:.6f}")
