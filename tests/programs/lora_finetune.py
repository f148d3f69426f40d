# Models: the "LoRA from scratch" blog/tutorial pattern: a small pretrained MLP is frozen,
# low-rank adapters (A random, B zeros, alpha/rank scaling) are injected by replacing Linear
# layers (and, the torch.nn.utils.parametrize variant, registered as a parametrization),
# only adapter parameters are trained, trainable-parameter counts are printed, and the
# adapters are merged back into the weights for inference (checked equal to the unmerged model).
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)
X = torch.randn(128, 10)
W_true = torch.randn(10, 3)
Y_pre = (X @ W_true).argmax(1)
Y_task = (X @ (W_true + 0.5 * torch.randn(10, 3))).argmax(1)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.fc2 = nn.Linear(32, 32)
        self.out = nn.Linear(32, 3)

    def forward(self, x):
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


def train(model, y, steps, lr):
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=lr)
    for step in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(X), y)
        loss.backward()
        opt.step()
    acc = (model(X).argmax(1) == y).float().mean().item()
    return loss.item(), acc


base = MLP()
print("pretrain:", train(base, Y_pre, 60, 1e-2))
print("base on new task acc:", (base(X).argmax(1) == Y_task).float().mean().item())


class LoRALinear(nn.Module):
    def __init__(self, linear, rank=4, alpha=8):
        super().__init__()
        self.linear = linear
        self.rank = rank
        self.scaling = alpha / rank
        self.lora_A = nn.Parameter(torch.empty(rank, linear.in_features))
        self.lora_B = nn.Parameter(torch.zeros(linear.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x):
        return self.linear(x) + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling

    def extra_repr(self):
        return f"rank={self.rank}, scaling={self.scaling}"


def count(model):
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    return trainable, total, f"{100 * trainable / total:.2f}%"


torch.manual_seed(1)
lora = copy.deepcopy(base)
for p in lora.parameters():
    p.requires_grad_(False)
for name, module in list(lora.named_children()):
    if isinstance(module, nn.Linear) and name != "out":
        setattr(lora, name, LoRALinear(module))
print(lora)
print("trainable/total:", count(lora))
print([n for n, p in lora.named_parameters() if p.requires_grad])
print("same output before training:", torch.equal(lora(X), base(X)))
print("lora finetune:", train(lora, Y_task, 80, 1e-2))
print("B norms:", [round(m.lora_B.norm().item(), 4) for m in (lora.fc1, lora.fc2)])
print("base weights untouched:", torch.equal(lora.fc1.linear.weight, base.fc1.weight))


# merge for inference
def merge(model):
    merged = copy.deepcopy(model)
    for name, module in list(merged.named_children()):
        if isinstance(module, LoRALinear):
            lin = module.linear
            with torch.no_grad():
                lin.weight += (module.lora_B @ module.lora_A) * module.scaling
            setattr(merged, name, lin)
    return merged


merged = merge(lora)
print(merged)
with torch.no_grad():
    print("merged == adapters:", torch.allclose(merged(X), lora(X), atol=1e-5))
    print(merged(X[:2]))


# the parametrize variant
class LoRAParametrization(nn.Module):
    def __init__(self, fan_out, fan_in, rank=2, alpha=4):
        super().__init__()
        self.lora_A = nn.Parameter(torch.zeros(rank, fan_in))
        self.lora_B = nn.Parameter(torch.zeros(fan_out, rank))
        nn.init.normal_(self.lora_A, std=0.02)
        self.scale = alpha / rank
        self.enabled = True

    def forward(self, W):
        if self.enabled:
            return W + (self.lora_B @ self.lora_A) * self.scale
        return W


torch.manual_seed(2)
pmodel = copy.deepcopy(base)
for layer in (pmodel.fc1, pmodel.fc2):
    parametrize.register_parametrization(
        layer, "weight", LoRAParametrization(layer.out_features, layer.in_features)
    )
for name, p in pmodel.named_parameters():
    p.requires_grad_("lora_" in name)
print(pmodel.fc1)
print("trainable/total:", count(pmodel))
print("parametrize finetune:", train(pmodel, Y_task, 80, 1e-2))
for layer in (pmodel.fc1, pmodel.fc2):
    layer.parametrizations["weight"][0].enabled = False
print("disabled adapters == base:", torch.equal(pmodel(X), base(X)))
for layer in (pmodel.fc1, pmodel.fc2):
    layer.parametrizations["weight"][0].enabled = True
out_before = pmodel(X).detach()
for layer in (pmodel.fc1, pmodel.fc2):
    parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(pmodel.fc1, type(pmodel.fc1.weight).__name__)
print("removed (merged) == before:", torch.allclose(pmodel(X), out_before, atol=1e-6))
print(sorted(pmodel.state_dict().keys()))
