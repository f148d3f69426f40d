# Models: an optimizer-comparison notebook using the less common knobs: SGD(maximize=True,
# dampening), Adam(amsgrad), AdamW vs Adam weight decay, NAdam(decoupled_weight_decay,
# momentum_decay), RAdam(decoupled_weight_decay), Adamax, Adagrad(lr_decay,
# initial_accumulator_value), Rprop(etas, step_sizes), ASGD(t0), Adadelta; plus optimizer
# step pre/post hooks, add_param_group, state_dict/load_state_dict round trip and repr.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(32, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1


def run(make_opt, steps=25):
    torch.manual_seed(1)
    model = nn.Linear(3, 1)
    opt = make_opt(model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), y)
        loss.backward()
        opt.step()
    return loss.item(), model.weight.detach().flatten().tolist()


configs = {
    "sgd_damp": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.5),
    "adam_amsgrad": lambda p: torch.optim.Adam(p, lr=0.05, amsgrad=True, weight_decay=0.01),
    "adamw": lambda p: torch.optim.AdamW(p, lr=0.05, weight_decay=0.1),
    "nadam": lambda p: torch.optim.NAdam(p, lr=0.05, momentum_decay=0.004),
    "nadam_dwd": lambda p: torch.optim.NAdam(
        p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True
    ),
    "radam": lambda p: torch.optim.RAdam(p, lr=0.05),
    "radam_dwd": lambda p: torch.optim.RAdam(
        p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True
    ),
    "adamax": lambda p: torch.optim.Adamax(p, lr=0.05),
    "adagrad": lambda p: torch.optim.Adagrad(
        p, lr=0.3, lr_decay=0.01, initial_accumulator_value=0.1
    ),
    "rprop": lambda p: torch.optim.Rprop(p, lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0)),
    "asgd": lambda p: torch.optim.ASGD(p, lr=0.05, t0=10, lambd=1e-3),
    "adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8),
    "rmsprop_centered": lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5),
}
for name, make in configs.items():
    loss, w = run(make)
    print(f"{name:16s} loss {loss:.6f} w {[round(v, 5) for v in w]}")

p = nn.Parameter(torch.tensor([1.0, -1.0]))
opt = torch.optim.SGD([p], lr=0.1, maximize=True)
(p**2).sum().backward()
opt.step()
print("maximize", p.data)

model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
events = []
opt.register_step_pre_hook(lambda o, args, kwargs: events.append("pre"))
opt.register_step_post_hook(lambda o, args, kwargs: events.append("post"))
model(torch.ones(1, 2)).sum().backward()
opt.step()
print(events)
extra = nn.Parameter(torch.zeros(3))
opt.add_param_group({"params": [extra], "lr": 0.5, "betas": (0.8, 0.9)})
print(
    len(opt.param_groups),
    opt.param_groups[1]["lr"],
    opt.param_groups[1]["betas"],
    opt.param_groups[1]["eps"],
)
print(opt)
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["state"].keys()), sd["state"][0]["step"])
opt2 = torch.optim.Adam([*model.parameters()], lr=0.01)
opt2.add_param_group({"params": [extra]})
opt2.load_state_dict(sd)
print(
    opt2.param_groups[1]["lr"],
    torch.equal(opt2.state[model.weight]["exp_avg"], opt.state[model.weight]["exp_avg"]),
)
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([p], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.Adam([p], betas=(1.0, 0.9))
except ValueError as e:
    print("ValueError:", e)
