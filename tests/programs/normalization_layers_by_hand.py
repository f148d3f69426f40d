# Models: the "implement every normalisation layer yourself" exercise (CS231n assignment 2's
# spatial batchnorm / groupnorm and the layernorm notebook): spatial batch norm via a reshape
# to (N*H*W, C), layer norm over the last dims, group norm, instance norm and RMSNorm, each
# forward against its nn module and functional, and their input gradients against autograd of
# the built-in, in float64, plus the running statistics a train step leaves behind.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
N, C, H, W = 4, 6, 3, 5
x = 4 * torch.randn(N, C, H, W) + 10
gamma, beta = torch.randn(C), torch.randn(C)
eps = 1e-5


def spatial_batchnorm(x, gamma, beta):
    N, C, H, W = x.shape
    flat = x.permute(0, 2, 3, 1).reshape(-1, C)
    mu, var = flat.mean(0), flat.var(0, unbiased=False)
    out = (flat - mu) / torch.sqrt(var + eps) * gamma + beta
    return out.reshape(N, H, W, C).permute(0, 3, 1, 2), mu, var


def layer_norm(x, shape, w, b):
    dims = tuple(range(-len(shape), 0))
    mu = x.mean(dims, keepdim=True)
    var = x.var(dims, unbiased=False, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def group_norm(x, G, w, b):
    N, C = x.shape[:2]
    g = x.reshape(N, G, -1)
    mu, var = g.mean(-1, keepdim=True), g.var(-1, unbiased=False, keepdim=True)
    out = ((g - mu) / torch.sqrt(var + eps)).reshape(x.shape)
    return out * w.view(1, C, 1, 1) + b.view(1, C, 1, 1)


def instance_norm(x):
    mu = x.mean((2, 3), keepdim=True)
    var = x.var((2, 3), unbiased=False, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps)


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


mine, mu, var = spatial_batchnorm(x, gamma, beta)
bn = nn.BatchNorm2d(C, eps=eps)
with torch.no_grad():
    bn.weight.copy_(gamma)
    bn.bias.copy_(beta)
ref = bn(x)
print("spatial batchnorm max diff", (mine - ref).abs().max().item() < 1e-12)
print("per-channel means after", mine.mean((0, 2, 3)))
print("running_mean", bn.running_mean, "\nrunning_var", bn.running_var)
print("expected running_var", 0.9 * 1 + 0.1 * var * (N * H * W) / (N * H * W - 1))

ln = nn.LayerNorm([H, W], eps=eps)
with torch.no_grad():
    ln.weight.normal_()
    ln.bias.normal_()
print("layer norm diff", (layer_norm(x, [H, W], ln.weight,
      ln.bias) - ln(x)).abs().max().item() < 1e-12)
gn = nn.GroupNorm(3, C, eps=eps)
with torch.no_grad():
    gn.weight.copy_(gamma)
    gn.bias.copy_(beta)
print("group norm diff", (group_norm(x, 3, gamma, beta) - gn(x)).abs().max().item() < 1e-12)
print("instance norm diff", (instance_norm(x) - F.instance_norm(x,
      eps=eps)).abs().max().item() < 1e-12)
rms = nn.RMSNorm(W, eps=eps)
print("rms norm diff", (rms_norm(x, rms.weight) - rms(x)).abs().max().item() < 1e-12)
print(bn, ln, gn, rms, nn.InstanceNorm2d(C, affine=True), sep="\n")

dout = torch.randn(N, C, H, W)
for name, mine_fn, ref_fn in [
        ("batchnorm", lambda t: spatial_batchnorm(t, gamma, beta)[0],
         lambda t: F.batch_norm(t, None, None, gamma, beta, True, 0.1, eps)),
        ("layernorm", lambda t: layer_norm(t, [H, W], 1.0, 0.0), lambda t: F.layer_norm(t, [H, W])),
        ("groupnorm", lambda t: group_norm(t, 2, gamma, beta),
         lambda t: F.group_norm(t, 2, gamma, beta, eps)),
        ("instancenorm", instance_norm, lambda t: F.instance_norm(t, eps=eps))]:
    a, b_ = x.clone().requires_grad_(), x.clone().requires_grad_()
    mine_fn(a).backward(dout)
    ref_fn(b_).backward(dout)
    err = ((a.grad - b_.grad).abs() / (a.grad.abs() + b_.grad.abs()).clamp(min=1e-8)).max()
    print(f"{name} dx relative error < 1e-8: {err.item() < 1e-8}, "
          f"dx norm {b_.grad.norm().item():.6f}")

gn32 = nn.GroupNorm(2, 4).float()
print("float32 group norm output", gn32(torch.arange(32.0, dtype=torch.float32).reshape(1, 4, 2,
      4))[0, 0])
