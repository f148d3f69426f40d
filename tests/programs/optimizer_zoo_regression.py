# Models: an "which optimizer should I use?" course exercise: the same small MLP regression
# trained with Rprop, ASGD, Adamax, NAdam, RAdam, Adadelta and Adagrad (with
# lr_decay/weight_decay options), combined with ConstantLR, MultiplicativeLR and
# CosineAnnealingWarmRestarts; printing loss curves, state_dict keys and param-group options.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(64, 4)
true_w = torch.tensor([[1.5], [-2.0], [0.5], [0.0]])
y = torch.tanh(X @ true_w) + 0.1 * torch.randn(64, 1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


configs = {
    "Rprop": lambda p: torch.optim.Rprop(p, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-6, 1.0)),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.05, lambd=1e-4, alpha=0.75, t0=10),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.02),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.02, momentum_decay=4e-3),
    "NAdamW": lambda p: torch.optim.NAdam(
        p, lr=0.02, weight_decay=0.01, decoupled_weight_decay=True
    ),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.02),
    "Adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.9),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=1e-4),
}

results = {}
for name, make_opt in configs.items():
    model = make_model()
    opt = make_opt(model.parameters())
    if name == "Adamax":
        sched = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=10)
    elif name == "Adagrad":
        sched = torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda e: 0.97)
    elif name == "RAdam":
        sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
            opt, T_0=10, T_mult=2, eta_min=1e-3
        )
    else:
        sched = None
    curve = []
    for step in range(40):
        opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        if step % 10 == 9:
            curve.append(round(loss.item(), 4))
    results[name] = loss.item()
    lr = opt.param_groups[0]["lr"]
    print(f"{name:9s} {curve} final lr {lr:.5f}")
    state = opt.state_dict()["state"][0]
    print("   state keys", sorted(state.keys()))

best = min(results, key=results.get)
print("best", best)
for name in sorted(results, key=results.get):
    print(f"{name:9s} {results[name]:.4f}")

opt = torch.optim.Rprop(make_model().parameters())
print(opt)
g = opt.param_groups[0]
print(sorted(k for k in g if k != "params"))

# ASGD keeps an averaged copy ax of each parameter
model = make_model()
opt = torch.optim.ASGD(model.parameters(), lr=0.05, t0=5)
for _ in range(15):
    opt.zero_grad()
    F.mse_loss(model(X), y).backward()
    opt.step()
st = opt.state[model[0].weight]
print(
    "ASGD step", st["step"].item(), "eta", f"{st['eta'].item():.5f}", "mu", f"{st['mu'].item():.4f}"
)
print(st["ax"][0])
