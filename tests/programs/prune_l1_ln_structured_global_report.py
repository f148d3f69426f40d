# Models: the pruning tutorial extended: random_unstructured, l1_unstructured with an amount
# count, ln_structured over output channels, identity, global_unstructured across layers,
# the forward pre-hook and buffers it adds, prune.remove, and sparsity reports.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc1 = nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.relu(self.conv2(x))
        return self.fc1(x.flatten(1))


model = LeNet()
prune.random_unstructured(model.conv1, name="weight", amount=0.3)
print(list(dict(model.conv1.named_parameters())))
print(list(dict(model.conv1.named_buffers())))
print(model.conv1.weight_mask.sum().item(), model.conv1.weight_mask.numel())
print([type(h).__name__ for h in model.conv1._forward_pre_hooks.values()])
prune.l1_unstructured(model.conv1, name="bias", amount=2)
print("bias", model.conv1.bias, model.conv1.bias_mask)
prune.ln_structured(model.conv2, name="weight", amount=0.5, n=2, dim=0)
print("kept channels", model.conv2.weight_mask.flatten(1).any(1))
prune.identity(model.fc1, "bias")
print("identity mask", model.fc1.bias_mask.all().item())
x = torch.randn(2, 1, 10, 10)
print(model(x))
prune.remove(model.conv1, "weight")
print(list(dict(model.conv1.named_parameters())), type(model.conv1.weight).__name__)
model2 = LeNet()
params = ((model2.conv1, "weight"), (model2.conv2, "weight"), (model2.fc1, "weight"))
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
for m, n in params:
    w = getattr(m, n)
    pct = 100.0 * float(torch.sum(w == 0)) / float(w.nelement())
    print(f"sparsity {type(m).__name__}: {pct:.2f}%")
total = sum(float(torch.sum(getattr(m, n) == 0)) for m, n in params)
print("global", total / sum(getattr(m, n).nelement() for m, n in params))
print(prune.is_pruned(model2), prune.is_pruned(nn.Linear(2, 2)))
prune.l1_unstructured(model2.conv1, "weight", amount=0.5)
hook = next(iter(model2.conv1._forward_pre_hooks.values()))
print(type(hook).__name__, len(hook))
print("zeros after two rounds", int((model2.conv1.weight == 0).sum()))
print(sorted(model2.state_dict()))
try:
    prune.l1_unstructured(model.fc1, "weight", amount=1.5)
except ValueError as e:
    print("ValueError:", e)
