# Models: a normalization-layers comparison post: LayerNorm (with and without affine / bias),
# RMSNorm as in T5/LLaMA (module and by hand), GroupNorm with 1 group (LayerNorm-like) and with
# one group per channel (InstanceNorm-like), InstanceNorm1d, and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.randn(4, 6) * 3 + 1
ln = nn.LayerNorm(6)
print(ln, ln(x)[0])
print("no affine", nn.LayerNorm(6, elementwise_affine=False)(x)[0])
print("no bias", sorted(n for n, _ in nn.LayerNorm(6, bias=False).named_parameters()))
rms = nn.RMSNorm(6, eps=1e-6)
print(rms)
by_hand = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
print("rmsnorm", rms(x)[0], by_hand[0])
print("F.rms_norm default eps", F.rms_norm(x, (6,))[0])
img = torch.randn(2, 4, 3, 3)
g1 = nn.GroupNorm(1, 4)(img)
lnimg = F.layer_norm(img, img.shape[1:])
print("group=1 vs layer_norm", torch.allclose(g1, lnimg, atol=1e-5))
gc = nn.GroupNorm(4, 4)(img)
inorm = nn.InstanceNorm2d(4, affine=True)(img)
print("group=C vs instance", torch.allclose(gc, inorm, atol=1e-5))
print("groupnorm(2)", nn.GroupNorm(2, 4)(img)[0, :, 0, 0])
seq = torch.randn(2, 3, 5)
print("instance1d", nn.InstanceNorm1d(3)(seq)[0])
xr = x.clone().requires_grad_()
out = rms(xr)
(out * torch.arange(6.0)).sum().backward()
print("rms grad", xr.grad[0], out.grad_fn.name())
xr.grad = None
(ln(xr) * torch.arange(6.0)).sum().backward()
print("ln grad", xr.grad[0])
try:
    nn.GroupNorm(3, 4)
except ValueError as e:
    print("ValueError:", e)
try:
    ln(torch.randn(2, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
