# Models: the "guess the output shape" quizzes on pooling and resizing from a computer-vision
# course: avg_pool with ceil_mode / count_include_pad / divisor_override, max_pool with
# dilation and indices into max_unpool, adaptive pools with uneven bins, and F.interpolate's
# modes (nearest, nearest-exact, area, bilinear / bicubic with and without align_corners,
# antialiased downsampling, trilinear), each followed by a tiny fit through the op.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(1, 50, dtype=torch.float32).reshape(1, 1, 7, 7)
print(F.avg_pool2d(x, 3, stride=2))
print(F.avg_pool2d(x, 3, stride=2, ceil_mode=True))
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=True, ceil_mode=True))
print(F.avg_pool2d(x, 2, divisor_override=3))
print(F.avg_pool1d(x[0, :, 0], 4, stride=3, padding=2, ceil_mode=True))
mp, idx = F.max_pool2d(x, 3, stride=2, dilation=2, return_indices=True)
print(mp, idx)
r = torch.randn(1, 2, 6, 6)
pooled, ind = F.max_pool2d(r, 2, return_indices=True, ceil_mode=True)
print(F.max_unpool2d(pooled, ind, 2, output_size=(6, 6))[0, 0])
print(F.max_pool2d(r, 3, stride=2, ceil_mode=True, padding=1).shape)
print(F.adaptive_avg_pool2d(x, (3, 4)))
print(F.adaptive_max_pool2d(x, (4, 3), return_indices=True)[1])
print(F.adaptive_avg_pool1d(torch.arange(10.0).view(1, 1, 10), 4))
small = torch.tensor([[[[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]]]])
for mode in ["nearest", "nearest-exact"]:
    print(mode, F.interpolate(small, scale_factor=1.7, mode=mode))
print("area", F.interpolate(x, size=(3, 5), mode="area"))
for ac in (False, True):
    print("bilinear", ac, F.interpolate(small, size=(3, 5), mode="bilinear", align_corners=ac))
    print("bicubic", ac, F.interpolate(small, size=(4, 4), mode="bicubic", align_corners=ac))
img = torch.rand(1, 3, 16, 16)
print("antialias bilinear", F.interpolate(img, size=(5, 7), mode="bilinear", antialias=True)[0, 0])
aa = F.interpolate(img, scale_factor=0.3, mode="bicubic", antialias=True)
print("antialias bicubic", aa[0, 1])
vol = torch.rand(1, 1, 2, 3, 3)
print("trilinear", F.interpolate(vol, scale_factor=(1.5, 1, 2), mode="trilinear")[0, 0, 1])
print("linear", F.interpolate(torch.tensor([[[0.0, 1.0, 4.0, 9.0]]]), size=7, mode="linear"))
print("recompute", F.interpolate(small, scale_factor=1.5, mode="bilinear",
                                  recompute_scale_factor=True))

target = torch.rand(1, 1, 8, 8)
seed = torch.zeros(1, 1, 4, 4, requires_grad=True)
opt = torch.optim.Adam([seed], lr=0.1)
for step in range(40):
    up = F.interpolate(seed, size=(8, 8), mode="bicubic", align_corners=False)
    smooth = F.avg_pool2d(up, 3, 1, 1, count_include_pad=False)
    loss = F.mse_loss(up, target) + 0.01 * smooth.abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"fit step {step + 1} loss {loss.item():.6f}")
print(seed.detach())
net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False),
                    nn.AvgPool2d(3, 2, 1, ceil_mode=True),
                    nn.Upsample(scale_factor=2, mode="bilinear"), nn.AdaptiveMaxPool2d(3),
                    nn.Flatten(), nn.Linear(36, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
labels = torch.tensor([1])
for step in range(5):
    loss = F.cross_entropy(net(img), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"net step {step} loss {loss.item():.6f}")
