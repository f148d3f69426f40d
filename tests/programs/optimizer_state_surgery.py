# Models: "how does the optimizer state_dict work" forum answers and fine-tuning recipes:
# inspecting Adam/SGD state (exp_avg, momentum_buffer, step), add_param_group to unfreeze a
# layer mid-training, changing lr in place, saving/loading optimizer state into a fresh
# optimizer, zero_grad(set_to_none) semantics, and the errors optimizers raise on misuse.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for p in model[0].parameters():
    p.requires_grad_(False)
x, y = torch.randn(16, 3), torch.randn(16, 1)
opt = torch.optim.Adam(model[2].parameters(), lr=0.01, betas=(0.8, 0.99))


def train(steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


print(f"loss after 5 (head only) {train(5):.5f}")
sd = opt.state_dict()
print("state keys", list(sd["state"].keys()), "groups", len(sd["param_groups"]))
print("group params", sd["param_groups"][0]["params"], "lr", sd["param_groups"][0]["lr"])
st = sd["state"][0]
print("state entries", sorted(st.keys()), "step", st["step"])
print("exp_avg", st["exp_avg"])
print("exp_avg_sq", st["exp_avg_sq"])
print("first layer grad", model[0].weight.grad)

for p in model[0].parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": model[0].parameters(), "lr": 0.001})
print("groups now", len(opt.param_groups), [g["lr"] for g in opt.param_groups])
print("defaults copied", opt.param_groups[1]["betas"], opt.param_groups[1]["eps"])
print(f"loss after 5 more {train(5):.5f}")
print("steps per param", [opt.state[p]["step"].item() for p in model.parameters()])
for g in opt.param_groups:
    g["lr"] *= 0.5
print("halved lrs", [g["lr"] for g in opt.param_groups])

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)
model2 = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
model2.load_state_dict(ckpt["model"])
opt2 = torch.optim.Adam(
    [{"params": model2[2].parameters()}, {"params": model2[0].parameters()}], lr=0.123
)
opt2.load_state_dict(ckpt["opt"])
print("restored lrs", [g["lr"] for g in opt2.param_groups])
print(
    "restored exp_avg equal:",
    torch.equal(opt2.state[model2[2].weight]["exp_avg"], opt.state[model[2].weight]["exp_avg"]),
)
l1 = train(3)
opt_backup = opt
opt = opt2
model_backup, model = model, model2
l2 = train(3)
print("resumed training identical:", l1 == l2, f"{l1:.6f}")
model, opt = model_backup, opt_backup

sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
nn.functional.mse_loss(model(x), y).backward()
sgd.step()
print("momentum buffer", sgd.state[model[2].bias]["momentum_buffer"])
sgd.zero_grad(set_to_none=False)
print("zeroed grad", model[2].bias.grad)
sgd.zero_grad()
print("set_to_none grad", model[2].bias.grad)
print(sgd)

errors = [
    lambda: torch.optim.SGD(model.parameters(), lr=-1),
    lambda: torch.optim.Adam(model.parameters(), betas=(1.0, 0.9)),
    lambda: torch.optim.Adam(model.parameters(), eps=-1e-8),
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True),
    lambda: opt.add_param_group({"params": model[2].weight}),
    lambda: torch.optim.SGD([model[2].weight, model[2].weight], lr=0.1),
    lambda: torch.optim.SGD(model[2].weight, lr=0.1),
    lambda: opt2.load_state_dict(torch.optim.SGD(model2.parameters(), lr=1).state_dict()),
]
for fn in errors:
    try:
        fn()
        print("no error")
    except (ValueError, TypeError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
