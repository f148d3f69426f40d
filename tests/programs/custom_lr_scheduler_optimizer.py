# Models: library code that subclasses torch.optim.Optimizer and LRScheduler: a custom
# warmup+inverse-sqrt scheduler with get_lr and _get_closed_form_lr, a polynomial-decay
# scheduler written via LambdaLR, a custom SGD-with-Nesterov-and-decoupled-decay optimizer
# with per-group defaults and a closure, add_param_group, scheduler state_dict round trips,
# get_last_lr, and the warnings/errors a misuse triggers.
import warnings

import torch
from torch.optim import Optimizer
from torch.optim.lr_scheduler import ConstantLR, LambdaLR, LRScheduler, SequentialLR

torch.manual_seed(0)


class InverseSqrtWarmup(LRScheduler):
    def __init__(self, optimizer, warmup_steps, last_epoch=-1):
        self.warmup_steps = warmup_steps
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        scale = min(step / self.warmup_steps, (self.warmup_steps / step) ** 0.5)
        return [base_lr * scale for base_lr in self.base_lrs]

    def _get_closed_form_lr(self):
        return self.get_lr()


class DecoupledNesterov(Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.9, weight_decay=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["momentum_buffer"] = torch.zeros_like(p)
                    state["step"] = 0
                state["step"] += 1
                buf = state["momentum_buffer"]
                buf.mul_(group["momentum"]).add_(p.grad)
                update = p.grad.add(buf, alpha=group["momentum"])
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(update, alpha=-group["lr"])
        return loss


model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
opt = DecoupledNesterov([{"params": model[0].parameters(), "weight_decay": 0.01},
                         {"params": model[2].parameters()}], lr=0.05)
print(opt)
sched = InverseSqrtWarmup(opt, warmup_steps=4)
X, y = torch.randn(32, 4), torch.randn(32, 1)
for step in range(10):
    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(X), y)
        loss.backward()
        return loss
    loss = opt.step(closure)
    sched.step()
    print(f"step {step}: loss {loss.item():.6f} lr {[round(x, 6) for x in sched.get_last_lr()]}")
print(opt.state_dict()["state"][0]["step"], opt.state_dict()["param_groups"][0]["weight_decay"])
print(sched.state_dict())

extra = torch.nn.Parameter(torch.zeros(3))
opt.add_param_group({"params": [extra], "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["lr"])
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)
try:
    DecoupledNesterov(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.Adam(torch.zeros(3, requires_grad=True))
except TypeError as e:
    print("TypeError:", e)

opt2 = torch.optim.SGD(model.parameters(), lr=1.0)
poly = LambdaLR(opt2, lambda s: (1 - s / 10) ** 2)
warm = ConstantLR(opt2, factor=0.25, total_iters=2)
seq = SequentialLR(opt2, [warm, LambdaLR(opt2, lambda s: 0.9 ** s)], milestones=[3])
lrs = []
for _ in range(6):
    opt2.step()
    seq.step()
    lrs.append(round(opt2.param_groups[0]["lr"], 6))
print(lrs)
state = poly.state_dict()
print(sorted(state), state["last_epoch"])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    opt3 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
    s3 = torch.optim.lr_scheduler.StepLR(opt3, 2)
    s3.step()
    print([str(x.message)[:80] for x in w])
print(s3.get_last_lr(), s3.last_epoch)
