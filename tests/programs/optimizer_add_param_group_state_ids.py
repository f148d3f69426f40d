# Models: a transfer-learning recipe that unfreezes layers mid-training: add_param_group with
# its own lr, the param_groups' keys and defaults filled in, state_dict's integer ids across
# groups, zero_grad(set_to_none), and the errors for duplicate parameters and bad groups.
import torch
import torch.nn as nn

torch.manual_seed(1)
backbone = nn.Linear(4, 4)
head = nn.Linear(4, 2)
opt = torch.optim.SGD(head.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
x, y = torch.randn(8, 4), torch.randn(8, 2)
for step in range(4):
    if step == 2:
        opt.add_param_group({"params": backbone.parameters(), "lr": 0.01})
        print("groups", len(opt.param_groups), sorted(opt.param_groups[1]))
        print("filled", opt.param_groups[1]["momentum"], opt.param_groups[1]["weight_decay"],
              opt.param_groups[1]["nesterov"])
    loss = nn.functional.mse_loss(head(torch.relu(backbone(x))), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
sd = opt.state_dict()
print("param ids", [g["params"] for g in sd["param_groups"]])
print("state ids", sorted(sd["state"]))
print("lrs", [g["lr"] for g in sd["param_groups"]])
opt.zero_grad(set_to_none=False)
print("zeroed", head.weight.grad.abs().sum().item())
opt.zero_grad()
print("none", head.weight.grad)
try:
    opt.add_param_group({"params": head.parameters()})
except ValueError as e:
    print("ValueError:", e)
try:
    opt.add_param_group({"params": torch.ones(2, requires_grad=True)})
except TypeError as e:
    print("TypeError:", e)
try:
    torch.optim.SGD([torch.ones(2)], lr=0.1)
    torch.optim.SGD([torch.ones(2, requires_grad=True).mul(2)], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
