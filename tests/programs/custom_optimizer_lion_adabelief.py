# Models: custom optimizers written by subclassing torch.optim.Optimizer as papers' reference
# implementations do (Lion, AdaBelief): defaults dicts, per-parameter lazy state init,
# @torch.no_grad() step with a closure, param groups with their own hyper-parameters,
# add_param_group, state_dict/load_state_dict round trips, and a comparison with torch's Adam.
import torch
import torch.nn as nn


class Lion(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

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
                p.data.mul_(1 - group["lr"] * group["weight_decay"])
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p)
                exp_avg = state["exp_avg"]
                beta1, beta2 = group["betas"]
                update = exp_avg * beta1 + p.grad * (1 - beta1)
                p.add_(torch.sign(update), alpha=-group["lr"])
                exp_avg.mul_(beta2).add_(p.grad, alpha=1 - beta2)
        return loss


class AdaBelief(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-16, weight_decay=0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if group["weight_decay"]:
                    grad = grad.add(p, alpha=group["weight_decay"])
                st = self.state[p]
                if not st:
                    st["step"] = 0
                    st["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    st["exp_avg_var"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                st["step"] += 1
                m, s = st["exp_avg"], st["exp_avg_var"]
                m.mul_(b1).add_(grad, alpha=1 - b1)
                diff = grad - m
                s.mul_(b2).addcmul_(diff, diff, value=1 - b2).add_(group["eps"])
                bc1 = 1 - b1 ** st["step"]
                bc2 = 1 - b2 ** st["step"]
                denom = (s.sqrt() / bc2 ** 0.5).add_(group["eps"])
                p.addcdiv_(m, denom, value=-group["lr"] / bc1)
        return loss


torch.manual_seed(3)
X = torch.randn(128, 6)
w_true = torch.randn(6, 1)
Y = X @ w_true + 0.1 * torch.randn(128, 1)


def make():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))


results = {}
for name, factory in [("lion", lambda p: Lion(p, lr=3e-3, weight_decay=0.1)),
                      ("adabelief", lambda p: AdaBelief(p, lr=1e-2)),
                      ("adam", lambda p: torch.optim.Adam(p, lr=1e-2))]:
    model = make()
    opt = factory(model.parameters())
    for step in range(60):
        def closure(opt=opt, model=model):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(X), Y)
            loss.backward()
            return loss
        loss = opt.step(closure)
        if step % 20 == 19:
            print(f"{name:9s} step {step + 1} loss {loss.item():.6f}")
    results[name] = loss.item()
print({k: round(v, 6) for k, v in results.items()})
model = make()
opt = Lion([{"params": model[0].parameters()},
            {"params": model[2].parameters(), "lr": 1e-3, "betas": (0.95, 0.98)}], lr=3e-3)
print(opt)
print([{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups])
loss = nn.functional.mse_loss(model(X), Y)
loss.backward()
opt.step()
sd = opt.state_dict()
print(sorted(sd["state"]), list(sd["state"][0]), sd["param_groups"][1]["params"])
opt2 = Lion(model.parameters(), lr=1.0)
opt2.load_state_dict(Lion([{"params": list(model.parameters())}], lr=5e-4).state_dict())
print(opt2.param_groups[0]["lr"], len(opt2.state))
extra = nn.Parameter(torch.zeros(3))
opt.add_param_group({"params": [extra], "weight_decay": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["weight_decay"])
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)
try:
    Lion(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    Lion([], lr=1)
except ValueError as e:
    print("ValueError:", e)
print(repr(AdaBelief(model.parameters())).splitlines()[:3])
