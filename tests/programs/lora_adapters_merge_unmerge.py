# Models: a hand-written LoRA fine-tuning script (the "LoRA from scratch" blog posts): low-rank
# A/B adapters around frozen nn.Linear layers injected by module surgery, alpha/r scaling,
# trainable-parameter counts, training a few steps, merging the adapter into the base weight.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8, dropout=0.0):
        super().__init__()
        self.base = base
        self.r, self.scaling = r, alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.dropout = nn.Dropout(dropout)
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (self.dropout(x) @ self.lora_A.t() @ self.lora_B.t()) * self.scaling
        return out

    def merge(self):
        self.base.weight.data += (self.lora_B @ self.lora_A) * self.scaling
        self.merged = True

    def extra_repr(self):
        return f"r={self.r}, scaling={self.scaling}"


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(10, 16)
        self.v_proj = nn.Linear(16, 16)
        self.out = nn.Linear(16, 3)

    def forward(self, x):
        return self.out(F.gelu(self.v_proj(F.gelu(self.q_proj(x)))))


model = MLP()
for p in model.parameters():
    p.requires_grad_(False)
for name in ["q_proj", "v_proj"]:
    setattr(model, name, LoRALinear(getattr(model, name), r=2, alpha=4))
print(model)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(
    f"trainable params: {trainable} || all params: {total} || "
    f"trainable%: {100 * trainable / total:.4f}"
)
print([n for n, p in model.named_parameters() if p.requires_grad])

x = torch.randn(32, 10)
y = torch.randint(0, 3, (32,))
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
base_before = model.q_proj.base.weight.clone()
for step in range(20):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.5f}")
print(torch.equal(base_before, model.q_proj.base.weight))
print(model.out.weight.grad is None, model.q_proj.lora_B.grad.shape)
model.eval()
with torch.no_grad():
    before = model(x)
    model.q_proj.merge()
    model.v_proj.merge()
    after = model(x)
print("merged max diff small:", (before - after).abs().max().item() < 1e-5)
print(model.q_proj.base.weight[0, :4])
lora_sd = {k: v for k, v in model.state_dict().items() if "lora_" in k}
print({k: tuple(v.shape) for k, v in lora_sd.items()})
