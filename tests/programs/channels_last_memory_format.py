# Models: the "(beta) Channels Last Memory Format in PyTorch" tutorial plus the tensor-views
# notes: strides of contiguous vs channels_last tensors, is_contiguous(memory_format=...),
# which ops preserve the format (conv, batchnorm, relu, pooling, elementwise, clone,
# empty_like), model.to(memory_format=...), the 3D and 1x1-spatial corner cases, and views,
# as_strided, expand and contiguous() on the way back.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, C, H, W = 10, 3, 32, 32
x = torch.empty(N, C, H, W)
print(x.stride())
x = x.to(memory_format=torch.channels_last)
print(x.shape)
print(x.stride())
x = x.to(memory_format=torch.contiguous_format)
print(x.stride())
x = x.contiguous(memory_format=torch.channels_last)
print(x.stride())
print(x.is_contiguous(memory_format=torch.channels_last), x.is_contiguous())
x = torch.empty(N, W, H, C).permute(0, 3, 1, 2)
print(x.is_contiguous(memory_format=torch.channels_last), x.stride())
x = torch.empty(N, C, H, W, memory_format=torch.channels_last)
print(x.stride())
y = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
print("clone:", y.clone().stride(), "empty_like:", torch.empty_like(y).stride())
print(
    "zeros_like:",
    torch.zeros_like(y).stride(),
    "contig clone:",
    y.clone(memory_format=torch.contiguous_format).stride(),
)
print("elementwise:", (y + 1).stride(), (y * y).stride(), y.relu().stride(), y.exp().stride())
print("both channels_last:", (y + y.exp()).stride(), torch.maximum(y, y.sin()).stride())
print("sum keeps values:", torch.allclose(y.sum((2, 3)), y.contiguous().sum((2, 3))))

conv = nn.Conv2d(3, 8, 3, padding=1)
out = conv(y)
print("conv out:", out.stride(), out.is_contiguous(memory_format=torch.channels_last))
ref = conv(y.contiguous())
print("conv same values:", torch.allclose(out, ref, atol=1e-6), ref.stride())
conv_cl = nn.Conv2d(3, 8, 3, padding=1).to(memory_format=torch.channels_last)
print("weight:", conv_cl.weight.stride(), conv_cl.weight.is_contiguous())
out2 = conv_cl(torch.randn(2, 3, 4, 5))
print("cl weight, contiguous input:", out2.stride())
bn = nn.BatchNorm2d(8)
print("bn:", bn(out).stride(), "relu:", F.relu(out).stride())
print("maxpool:", F.max_pool2d(out, 2).stride(), "avgpool:", F.avg_pool2d(out, 2).stride())
print("adaptive:", F.adaptive_avg_pool2d(out, 2).stride())
print("interpolate:", F.interpolate(out, scale_factor=2, mode="nearest").stride())


# a small CNN trained in channels_last gives the eager-contiguous result
def make():
    torch.manual_seed(3)
    return nn.Sequential(
        nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 2 * 3, 2)
    )


data = torch.randn(6, 3, 4, 5)
target = torch.randn(6, 2)
losses = []
for fmt in (torch.contiguous_format, torch.channels_last):
    model = make().to(memory_format=fmt)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    inp = data.to(memory_format=fmt)
    for _ in range(5):
        opt.zero_grad()
        loss = F.mse_loss(model(inp), target)
        loss.backward()
        opt.step()
    losses.append(loss.item())
    print(fmt, f"{loss.item():.6f}", model[0].weight.grad.stride())
print("formats agree:", abs(losses[0] - losses[1]) < 1e-5)

# 3D and degenerate cases
v = torch.randn(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)
print("3d:", v.stride(), v.is_contiguous(memory_format=torch.channels_last_3d))
z = torch.randn(2, 3, 1, 1)
print("1x1:", z.is_contiguous(memory_format=torch.channels_last), z.is_contiguous())
z = torch.randn(1, 3, 4, 5).to(memory_format=torch.channels_last)
print("N=1:", z.stride(), z.is_contiguous())
try:
    torch.randn(3, 4).to(memory_format=torch.channels_last)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d)
except RuntimeError as e:
    print("RuntimeError:", e)

# views and strides
t = torch.arange(24.0).view(2, 3, 4)
print(t.stride(), t.t().stride() if t.dim() == 2 else t.transpose(0, 2).stride())
p = t.permute(2, 0, 1)
print(p.stride(), p.is_contiguous(), p.contiguous().stride())
e = torch.tensor([1.0, 2.0, 3.0]).expand(4, 3)
print(e.stride(), e.is_contiguous(), e.contiguous().stride())
s = torch.as_strided(torch.arange(9.0), (2, 2), (3, 1), 1)
print(s, s.stride(), s.storage_offset())
print(t[:, 1].stride(), t[:, :, ::2].stride(), t[..., 1:].storage_offset())
print(t.unfold(2, 2, 1).shape, t.unfold(2, 2, 1).stride())
try:
    p.view(24)
except RuntimeError as e:
    print("RuntimeError:", e)
print(p.reshape(24)[:6])
