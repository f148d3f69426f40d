# Models: the CPU mixed-precision recipe (torch.autocast(device_type="cpu", dtype=torch.bfloat16))
# in a fine-tuning loop: which ops run in bf16 (linear, matmul, conv) and which stay float32
# (softmax, layer_norm, losses), parameter dtypes unchanged, autocast nesting and disabling.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.ReLU(), nn.Linear(16, 4))
x = torch.randn(10, 8)
y = torch.randint(0, 4, (10,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    h = model[0](x)
    print("linear:", h.dtype)
    print("layernorm:", model[1](h).dtype)
    print("relu:", F.relu(h).dtype)
    print("softmax:", torch.softmax(h, -1).dtype)
    print("matmul:", (x @ x.t()).dtype, "bmm:", torch.bmm(x[None], x.t()[None]).dtype)
    print("add f32+bf16:", (h + x.sum()).dtype)
    print("conv1d:", F.conv1d(x[None], torch.randn(2, 10, 3)).dtype)
    print("mse:", F.mse_loss(h, torch.zeros(10, 16)).dtype)
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
    with torch.autocast(device_type="cpu", enabled=False):
        print("disabled:", model[0](x).dtype, torch.is_autocast_enabled("cpu"))
print(torch.is_autocast_enabled("cpu"))

for step in range(6):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, logits.dtype, loss.dtype, f"{loss.item():.4f}")
print({p.dtype for p in model.parameters()}, model[0].weight.grad.dtype)


@torch.autocast("cpu", dtype=torch.bfloat16)
def f(a, b):
    return a @ b


print(f(torch.ones(2, 3), torch.ones(3, 2)))
with torch.autocast("cpu", dtype=torch.bfloat16):
    print(
        torch.randn(3, 3).mm(torch.eye(3)).dtype,
        torch.eye(3).to(torch.float64).mm(torch.eye(3, dtype=torch.float64)).dtype,
    )
