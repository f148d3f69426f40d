# Models: a Keras-to-PyTorch migration post on ReduceLROnPlateau: min and max modes, rel and
# abs thresholds, patience and cooldown, min_lr per group, eps, and the scheduler's
# state_dict, driven by a scripted validation curve.
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

p1, p2 = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [p1]}, {"params": [p2], "lr": 0.01}], lr=0.1)
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, cooldown=1,
                          min_lr=[0.01, 0.002])
curve = [1.0, 0.9, 0.91, 0.92, 0.93, 0.89, 0.95, 0.96, 0.97, 0.98, 0.99, 1.0, 1.0]
for epoch, val in enumerate(curve):
    sched.step(val)
    print(epoch, val, [round(g["lr"], 6) for g in opt.param_groups], sched.num_bad_epochs,
          sched.cooldown_counter, sched.best)
opt2 = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=1e-3)
s2 = ReduceLROnPlateau(opt2, mode="max", threshold=0.05, threshold_mode="abs", patience=0)
for acc in [0.5, 0.54, 0.56, 0.6, 0.61, 0.7]:
    s2.step(acc)
    print("max", acc, opt2.param_groups[0]["lr"], s2.best)
opt3 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1e-8)
s3 = ReduceLROnPlateau(opt3, patience=0, eps=1e-8)
for v in [1.0, 2.0, 3.0]:
    s3.step(v)
print("eps keeps", opt3.param_groups[0]["lr"])
sd = sched.state_dict()
print(sorted(sd))
print(sd["best"], sd["num_bad_epochs"], sd["last_epoch"], sd["_last_lr"])
try:
    ReduceLROnPlateau(opt, mode="median")
except ValueError as e:
    print("ValueError:", e)
try:
    ReduceLROnPlateau(opt, factor=1.0)
except ValueError as e:
    print("ValueError:", e)
try:
    ReduceLROnPlateau(opt, min_lr=[0.1])
except ValueError as e:
    print("ValueError:", e)
