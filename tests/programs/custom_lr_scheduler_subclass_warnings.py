# Models: writing a custom LR scheduler the way libraries do (subclassing LRScheduler with
# get_lr and _get_closed_form_lr), the warnings PyTorch emits for misuse (scheduler.step()
# before optimizer.step(), passing an epoch to step(), calling get_lr() outside step), the
# last_epoch/initial_lr resume contract, and schedulers on an optimizer with two groups.
import warnings

import torch
from torch.optim.lr_scheduler import LRScheduler, StepLR


class WarmupInverseSqrt(LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        scale = min(step / self.warmup, (self.warmup / step) ** 0.5)
        return [base * scale for base in self.base_lrs]

    def _get_closed_form_lr(self):
        return self.get_lr()


w = torch.nn.Parameter(torch.zeros(2))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
sched = WarmupInverseSqrt(opt, warmup=4)
print("initial", sched.get_last_lr(), [g["initial_lr"] for g in opt.param_groups], sched.last_epoch)
rows = []
for _ in range(8):
    opt.step()
    sched.step()
    rows.append([round(x, 5) for x in sched.get_last_lr()])
print(rows)
print(sorted(sched.state_dict().keys()))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    s2 = StepLR(opt2, step_size=1, gamma=0.5)
    s2.step()
    s2.step(5)
    s2.get_lr()
for m in caught:
    print(m.category.__name__, "|", str(m.message).split("\n")[0][:150])
print("lr after misuse", opt2.param_groups[0]["lr"], s2.last_epoch)

opt3 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
try:
    StepLR(opt3, step_size=2, last_epoch=3)
except KeyError as e:
    print("KeyError:", e)
opt3.param_groups[0]["initial_lr"] = 1.0
resumed = StepLR(opt3, step_size=2, gamma=0.1, last_epoch=3)
print("resumed", resumed.get_last_lr(), resumed.last_epoch, opt3.param_groups[0]["lr"])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt3.step()
    resumed.step()
print(resumed.get_last_lr(), len(caught))
