# Models: a CPU fine-tuning loop combining bf16 autocast with gradient accumulation over micro
# batches (loss / accum_steps), clip_grad_norm_ before the step, an EMA copy updated with
# torch._foreach_lerp_, and evaluation under torch.inference_mode with autocast.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 3))
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
X = torch.randn(48, 10)
y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
accum = 3
step = 0
for epoch in range(3):
    for i in range(0, 48, 8):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(X[i : i + 8])
            loss = F.cross_entropy(logits, y[i : i + 8]) / accum
        loss.backward()
        if (i // 8 + 1) % accum == 0:
            gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            with torch.no_grad():
                torch._foreach_lerp_(list(ema.parameters()), list(model.parameters()), 0.1)
            print(epoch, step, f"{loss.item() * accum:.4f}", f"{gn.item():.4f}", logits.dtype)
with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
    out = model(X)
    out_ema = ema(X)
print(out.dtype, out.requires_grad, torch.is_inference(out))
print(
    "acc",
    (out.argmax(1) == y).float().mean().item(),
    "ema acc",
    (out_ema.argmax(1) == y).float().mean().item(),
)
print(ema[0].bias[:4])
