# Models: the "Automatic Mixed Precision" recipe run on CPU: torch.autocast("cpu",
# dtype=torch.bfloat16) around the forward pass (dtypes of linear/conv/matmul outputs vs
# softmax/layer_norm/sum kept float32), loss computed outside autocast, GradScaler("cpu",
# enabled=False) scale/step/update/get_scale, nested autocast(enabled=False), and an
# is_autocast_enabled check inside a custom module.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(4, 8)
b = torch.randn(8, 3)
with torch.autocast("cpu", dtype=torch.bfloat16):
    print("mm", (a @ b).dtype)
    print("linear", F.linear(a, b.t()).dtype)
    print("conv", F.conv1d(a.unsqueeze(0), torch.randn(2, 4, 3)).dtype)
    print("softmax of bf16", F.softmax(a @ b, -1).dtype)
    print("layer_norm", F.layer_norm(a @ b, (3,)).dtype)
    print("sum", (a @ b).sum().dtype, "add", (a + 1).dtype)
    print("enabled", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
    with torch.autocast("cpu", enabled=False):
        print("inner disabled", (a @ b).dtype, torch.is_autocast_enabled("cpu"))
    print(
        "bmm",
        torch.bmm(a.unsqueeze(0), b.unsqueeze(0)).dtype,
        "baddbmm",
        torch.addmm(torch.zeros(3), a, b).dtype,
    )
print("outside", (a @ b).dtype, torch.is_autocast_enabled("cpu"))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        if torch.is_autocast_enabled("cpu"):
            self.seen = h.dtype
        return self.fc2(h)


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
X = torch.randn(64, 8)
y = torch.randint(0, 4, (64,))
for step in range(8):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(X)
    loss = F.cross_entropy(out.float(), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    if step % 2 == 0:
        print(
            f"step {step} loss {loss.item():.3f} out {out.dtype} hidden {model.seen} grad "
            f"{model.fc1.weight.grad.dtype}"
        )
print("scale", scaler.get_scale(), scaler.is_enabled(), scaler.state_dict())
print(scaler.scale(torch.tensor(3.0)))

with torch.autocast("cpu", dtype=torch.float16):
    print("fp16 autocast mm", (a @ b).dtype)


@torch.autocast("cpu", dtype=torch.bfloat16)
def decorated(x, w):
    return x @ w


print("decorated", decorated(a, b).dtype)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = torch.mm(a.double(), b.double())
    print("double stays", out.dtype)
    print(
        "int matmul",
        (torch.ones(2, 2, dtype=torch.long) @ torch.ones(2, 2, dtype=torch.long)).dtype,
    )
    print("cat mixed", torch.cat([a @ b, torch.zeros(1, 3)]).dtype)
