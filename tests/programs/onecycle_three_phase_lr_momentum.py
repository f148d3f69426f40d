# Models: fast.ai-style one-cycle training: OneCycleLR with cos/linear annealing, three_phase,
# cycle_momentum on SGD momentum and Adam betas, div_factor/final_div_factor, printing the lr and
# momentum schedule, and the error for stepping past total_steps.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=12, pct_start=0.25)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"], opt.param_groups[0]["initial_lr"])
for step in range(12):
    opt.step()
    sched.step() if step < 11 else None
    g = opt.param_groups[0]
    print(step, f"{g['lr']:.8f}", f"{g['momentum']:.6f}")
opt2 = torch.optim.Adam(model.parameters(), lr=1e-3)
s2 = torch.optim.lr_scheduler.OneCycleLR(
    opt2,
    max_lr=0.01,
    epochs=2,
    steps_per_epoch=5,
    anneal_strategy="linear",
    three_phase=True,
    div_factor=10,
    final_div_factor=100,
)
vals = []
for _ in range(10):
    vals.append(
        (
            round(opt2.param_groups[0]["lr"], 8),
            tuple(round(b, 6) for b in opt2.param_groups[0]["betas"]),
        )
    )
    opt2.step()
    s2.step()
for v in vals:
    print(v)
try:
    s2.step()
except ValueError as e:
    print(e)
print(s2.state_dict()["total_steps"], s2.state_dict()["_schedule_phases"])
try:
    torch.optim.lr_scheduler.OneCycleLR(
        torch.optim.Adagrad(model.parameters()), max_lr=0.1, total_steps=5
    )
except ValueError as e:
    print(e)
