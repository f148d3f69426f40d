# Models: the PyTorch "Pruning Tutorial" (l1_unstructured, random_unstructured, ln_structured,
# global_unstructured, custom pruning via the weight_mask/weight_orig reparametrisation,
# pruning hooks, remove to make it permanent) on a LeNet-like model.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


model = LeNet()
module = model.conv1
print(list(module.named_parameters())[0][0], list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
print(int(module.weight_mask.sum()), module._forward_pre_hooks.__len__())
prune.l1_unstructured(module, name="bias", amount=3)
print(module.bias_mask)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight_mask.sum(dim=(1, 2, 3)))
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        print(type(hook).__name__, [type(h).__name__ for h in hook])
prune.remove(module, "weight")
print([n for n, _ in module.named_parameters()])
parameters_to_prune = ((model.conv2, "weight"), (model.fc1, "weight"), (model.fc2, "weight"),
                       (model.fc3, "weight"))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, _ in parameters_to_prune:
    print(f"sparsity {100.0 * float(torch.sum(m.weight == 0)) / float(m.weight.nelement()):.2f}%")


class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


FooBarPruningMethod.apply(model.fc3, "bias")
print(model.fc3.bias_mask)
out = model(torch.randn(2, 1, 28, 28))
out.sum().backward()
print(out.shape, model.fc1.weight_orig.grad.abs().sum().item() > 0,
      prune.is_pruned(model), prune.is_pruned(nn.Linear(2, 2)))
