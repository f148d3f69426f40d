# Models: the PyTorch tutorials "How to save memory by fusing the optimizer step into the
# backward pass" (one optimizer per parameter stepped from register_post_accumulate_grad_hook)
# and the optimizer-hooks / custom-optimizer recipes: register_step_pre_hook/post_hook, the
# global register_optimizer_step_*_hook, state_dict pre/post hooks, a custom Optimizer
# subclass with per-parameter state, add_param_group, and the errors optimizers raise.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
x = torch.randn(16, 6)
y = torch.randint(0, 3, (16,))

# --- optimizer step fused into backward ------------------------------------------------------
reference = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
reference.load_state_dict(model.state_dict())
ref_opt = torch.optim.Adam(reference.parameters(), lr=1e-2)

optimizer_dict = {p: torch.optim.Adam([p], lr=1e-2) for p in model.parameters()}
order = []


def optimizer_hook(parameter) -> None:
    order.append(tuple(parameter.shape))
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


handles = [p.register_post_accumulate_grad_hook(optimizer_hook) for p in model.parameters()]
for step in range(5):
    F.cross_entropy(model(x), y).backward()
    ref_opt.zero_grad()
    loss = F.cross_entropy(reference(x), y)
    loss.backward()
    ref_opt.step()
    print(f"step {step}: loss {loss.item():.6f}")
print("hook order:", order[:4])
print("grads freed:", all(p.grad is None for p in model.parameters()))
print(
    "same as a normal loop:",
    all(
        torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), reference.parameters())
    ),
)
for h in handles:
    h.remove()

# --- step hooks ------------------------------------------------------------------------------
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def pre_hook(optimizer, args, kwargs):
    print("pre hook:", type(optimizer).__name__, args, kwargs)


def post_hook(optimizer, args, kwargs):
    print("post hook: lr", optimizer.param_groups[0]["lr"])


h1 = opt.register_step_pre_hook(pre_hook)
h2 = opt.register_step_post_hook(post_hook)
g1 = register_optimizer_step_pre_hook(lambda o, a, k: print("global pre", type(o).__name__))
g2 = register_optimizer_step_post_hook(lambda o, a, k: print("global post", type(o).__name__))
opt.zero_grad()
F.cross_entropy(model(x), y).backward()
opt.step()
h1.remove()
h2.remove()
g1.remove()
g2.remove()
opt.step()
print("hooks removed")


# --- state_dict hooks ------------------------------------------------------------------------
def sd_pre(optimizer):
    print("state_dict pre hook, groups:", len(optimizer.param_groups))


def sd_post(optimizer, state_dict):
    state_dict["note"] = "saved"
    return state_dict


def load_pre(optimizer, state_dict):
    print("load pre hook, keys:", sorted(state_dict.keys()))
    sd = dict(state_dict)
    sd.pop("note", None)
    return sd


def load_post(optimizer):
    print("load post hook, lr:", optimizer.param_groups[0]["lr"])


opt.register_state_dict_pre_hook(sd_pre)
opt.register_state_dict_post_hook(sd_post)
sd = opt.state_dict()
print(sorted(sd.keys()), sd["note"], sd["param_groups"][0]["params"])
print({k: sorted(v.keys()) for k, v in sd["state"].items()})
opt2 = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
opt2.register_load_state_dict_pre_hook(load_pre)
opt2.register_load_state_dict_post_hook(load_post)
opt2.load_state_dict(sd)
print(
    opt2.param_groups[0]["lr"],
    torch.equal(
        opt2.state[model[0].weight]["momentum_buffer"],
        opt.state[model[0].weight]["momentum_buffer"],
    ),
)


# --- a custom optimizer ----------------------------------------------------------------------
class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
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
                    state["step"] = 0
                    state["buf"] = torch.zeros_like(p)
                state["step"] += 1
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss


torch.manual_seed(1)
net = nn.Linear(4, 2)
sopt = SignSGD([{"params": [net.weight]}, {"params": [net.bias], "lr": 0.1}], lr=0.01, momentum=0.5)
print(sopt)
data = torch.randn(10, 4)
target = torch.randn(10, 2)


def closure():
    sopt.zero_grad()
    loss = F.mse_loss(net(data), target)
    loss.backward()
    return loss


for i in range(4):
    loss = sopt.step(closure)
    print(f"sign step {i}: loss {loss.item():.6f}")
print(sopt.state[net.weight]["step"], sopt.state[net.bias]["buf"])
print(sopt.state_dict()["param_groups"])
extra = nn.Parameter(torch.zeros(3))
sopt.add_param_group({"params": extra, "momentum": 0.9})
print(len(sopt.param_groups), sopt.param_groups[2]["lr"], sopt.param_groups[2]["momentum"])

# --- errors ----------------------------------------------------------------------------------
for make in [
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD([net.weight, net.weight], lr=0.1),
    lambda: torch.optim.Adam(net.parameters(), lr=-1.0),
    lambda: torch.optim.Adam(net.parameters(), betas=(1.5, 0.9)),
    lambda: torch.optim.SGD([{"params": [net.weight]}, {"params": [net.weight]}], lr=0.1),
    lambda: SignSGD(net.parameters(), lr=-1),
    lambda: sopt.add_param_group({"params": [net.bias]}),
    lambda: torch.optim.SGD(net.parameters(), lr=0.1).load_state_dict(
        torch.optim.SGD([{"params": [net.weight]}, {"params": [net.bias]}], lr=0.1).state_dict()
    ),
    lambda: torch.optim.SGD([torch.zeros(2)], lr=0.1),
    lambda: torch.optim.SGD(net.weight, lr=0.1),
]:
    try:
        make()
        print("no error")
    except (ValueError, TypeError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
