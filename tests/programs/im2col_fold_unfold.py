# Models: an "im2col explained" notebook: nn.Unfold/F.unfold patch extraction, convolution
# written as unfold + matmul + fold-free reshape (checked against F.conv2d, with stride,
# padding and dilation), overlapping patch reassembly with nn.Fold and its divisor map,
# ViT-style patchify/unpatchify, PixelUnshuffle/PixelShuffle and ChannelShuffle.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).reshape(2, 3, 5, 5) / 10
unfold = nn.Unfold(kernel_size=3)
cols = unfold(x)
print("unfold", tuple(cols.shape), unfold)
print(cols[0, :9, :4])


def conv2d_im2col(inp, weight, bias, stride=1, padding=0, dilation=1):
    n, c, h, w = inp.shape
    oc, _, kh, kw = weight.shape
    cols = F.unfold(inp, (kh, kw), dilation=dilation, padding=padding, stride=stride)
    out = weight.view(oc, -1) @ cols + bias.view(1, oc, 1)
    oh = (h + 2 * padding - dilation * (kh - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (kw - 1) - 1) // stride + 1
    return out.view(n, oc, oh, ow)


weight = torch.randn(4, 3, 3, 3)
bias = torch.randn(4)
for cfg in [dict(), dict(stride=2), dict(padding=1), dict(dilation=2, padding=2)]:
    mine = conv2d_im2col(x, weight, bias, **cfg)
    ref = F.conv2d(x, weight, bias, **cfg)
    print(cfg, tuple(mine.shape), torch.allclose(mine, ref, atol=1e-4))
print(conv2d_im2col(x, weight, bias, stride=2)[1, 2])

# gradients flow through unfold
inp = torch.randn(1, 2, 4, 4, requires_grad=True)
patches = F.unfold(inp, kernel_size=2, stride=1)
(patches**2).sum().backward()
print("grad counts each pixel's patch memberships:")
print((inp.grad / (2 * inp.detach()))[0, 0])

# overlapping patches: fold sums the overlaps, so divide by fold(unfold(ones))
img = torch.rand(1, 1, 6, 6)
fold = nn.Fold(output_size=(6, 6), kernel_size=3, stride=1)
print(fold)
p = F.unfold(img, kernel_size=3, stride=1)
summed = fold(p)
divisor = fold(F.unfold(torch.ones_like(img), kernel_size=3, stride=1))
print(divisor[0, 0])
print("reconstruction error", (summed / divisor - img).abs().max().item())

# non-overlapping patches are a bijection
p2 = F.unfold(img, kernel_size=2, stride=2)
back = F.fold(p2, output_size=6, kernel_size=2, stride=2)
print("exact", torch.equal(back, img), tuple(p2.shape))

# ViT patchify with unfold vs reshape/permute
images = torch.randn(2, 3, 8, 8)
ps = 4
a = F.unfold(images, kernel_size=ps, stride=ps).transpose(1, 2)
b = images.reshape(2, 3, 2, ps, 2, ps).permute(0, 2, 4, 1, 3, 5).reshape(2, 4, 3 * ps * ps)
print("patchify", tuple(a.shape), torch.equal(a, b))
embed = nn.Linear(3 * ps * ps, 6)
tokens = embed(a)
print(tokens.mean(dim=-1))
unpatch = F.fold(a.transpose(1, 2), output_size=8, kernel_size=ps, stride=ps)
print("unpatchify", torch.equal(unpatch, images))

# pixel (un)shuffle and channel shuffle
t = torch.arange(16.0).view(1, 1, 4, 4)
down = nn.PixelUnshuffle(2)(t)
print(down.shape, down[0, :, 0, 0], down[0, 1])
print(torch.equal(nn.PixelShuffle(2)(down), t))
c = torch.arange(6.0).view(1, 6, 1, 1)
print(nn.ChannelShuffle(2)(c).flatten(), nn.ChannelShuffle(3))

# local mean filter via unfold and its gradient wrt a learnable kernel
k = torch.full((1, 9), 1 / 9, requires_grad=True)
blur = (k @ F.unfold(img, 3, padding=1)).view(1, 1, 6, 6)
loss = F.mse_loss(blur, img)
loss.backward()
print(f"blur loss {loss.item():.6f}")
print(k.grad.view(3, 3))
