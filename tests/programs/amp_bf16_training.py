# Models: the "automatic mixed precision on CPU" recipe (torch.autocast with bfloat16 around
# the forward pass, loss in float32, GradScaler enabled=False as recommended for bf16,
# checking dtypes inside the autocast region, bfloat16 tensors printed).
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler("cpu", enabled=False)
x = torch.randn(64, 10)
y = (x[:, :3].sum(1, keepdim=True) > 0).float()
for step in range(20):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        assert logits.dtype == torch.bfloat16
        loss = nn.functional.binary_cross_entropy_with_logits(logits.float(), y)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f} grad dtype {model[0].weight.grad.dtype}")
with torch.autocast("cpu"):
    h = model[0](x[:2])
    print(h.dtype, h[0, :4])
    print(torch.mm(x[:2], x[:2].t()))
    print((x[:2] + 1).dtype, torch.softmax(x[:2, :3], dim=1).dtype)
b = torch.tensor([1.0, 3.14159, -2.5e-3, 65504.0, 1e20], dtype=torch.bfloat16)
print(b, b.float(), b.to(torch.float16))
print(torch.arange(5, dtype=torch.bfloat16) / 3)
print(torch.finfo(torch.bfloat16))
