# Models: the torch.nn.utils.prune tutorial on a LeNet: random_unstructured, l1_unstructured
# with a number of weights, ln_structured along channels, iterative pruning (PruningContainer
# history), global_unstructured across layers with a sparsity report, a custom pruning method,
# forward pre hooks, prune.remove making it permanent, and state_dict keys before and after.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc1 = nn.Linear(8 * 5 * 5, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        x = x.flatten(1)
        return self.fc2(F.relu(self.fc1(x)))


model = LeNet()
module = model.conv1
print(list(module.named_parameters()).__len__(), list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
print("mask zeros", int((module.weight_mask == 0).sum()), "of", module.weight_mask.numel())
print({k: type(v).__name__ for k, v in module._forward_pre_hooks.items()})
prune.l1_unstructured(module, name="bias", amount=3)
print("bias", module.bias)
print("bias_mask", module.bias_mask)

prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print("channels kept", (module.weight.flatten(1).abs().sum(1) != 0).tolist())
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(type(hook).__name__, [type(h).__name__ for h in hook])

print(sorted(model.state_dict().keys()))
prune.remove(module, "weight")
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])

model = LeNet()
parameters_to_prune = (
    (model.conv1, "weight"),
    (model.conv2, "weight"),
    (model.fc1, "weight"),
    (model.fc2, "weight"),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
total = 0
zeros = 0
for m, name in parameters_to_prune:
    w = getattr(m, name)
    z = int(torch.sum(w == 0))
    print(f"Sparsity in {type(m).__name__ + str(tuple(w.shape))}: {100.0 * z / w.nelement():.2f}%")
    total += w.nelement()
    zeros += z
print(f"Global sparsity: {100.0 * zeros / total:.2f}%")


class FooBarPruningMethod(prune.BasePruningMethod):
    """Prune every other entry in a tensor"""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


m = nn.Linear(3, 4)
foobar_unstructured(m, name="bias")
print(m.bias_mask)
out = model(torch.randn(2, 1, 16, 16))
print(out.shape, out.sum().item())
out.sum().backward()
print(
    "grad zero where pruned:",
    bool((model.fc2.weight_orig.grad[model.fc2.weight_mask == 0] == 0).all()),
)
print(prune.is_pruned(model), prune.is_pruned(nn.Linear(2, 2)))
