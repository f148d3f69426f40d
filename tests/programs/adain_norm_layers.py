# Models: a "normalization layers compared" notebook and the AdaIN style-transfer block:
# BatchNorm2d vs InstanceNorm2d (affine, track_running_stats) vs GroupNorm vs LayerNorm vs
# RMSNorm vs LocalResponseNorm on the same activations, adaptive instance normalisation
# from style statistics, and gradients through each normaliser.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4)
x = torch.randn(2, 4, 3, 3) * 2 + 1

layers = {
    "batch": nn.BatchNorm2d(4),
    "instance": nn.InstanceNorm2d(4),
    "instance_affine": nn.InstanceNorm2d(4, affine=True, track_running_stats=True),
    "group": nn.GroupNorm(2, 4),
    "layer": nn.LayerNorm([4, 3, 3]),
    "rms": nn.RMSNorm([3, 3], eps=1e-6),
    "lrn": nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=1.0),
}
for name, layer in layers.items():
    y = layer(x)
    m = y.mean(dim=(2, 3))
    print(f"{name:16s} {layer}")
    print("   per-channel means", torch.where(m[0].abs() < 1e-5, 0.0, m[0]))
    print(
        "   sample-0 std",
        f"{y[0].std().item():.4f}",
        "rms",
        f"{y[0].pow(2).mean().sqrt().item():.4f}",
    )

inorm = layers["instance_affine"]
print("running", inorm.running_mean, inorm.running_var, inorm.num_batches_tracked)
inorm.eval()
print("eval uses running stats", inorm(x)[0, 0, 0])

# functional forms agree
print(torch.allclose(F.instance_norm(x), layers["instance"](x), atol=1e-6))
print(torch.allclose(F.group_norm(x, 2), layers["group"](x), atol=1e-6))
print(torch.allclose(F.rms_norm(x, (3, 3), eps=1e-6), layers["rms"](x), atol=1e-6))
print(torch.allclose(F.local_response_norm(x, 3, 1e-2, 0.75, 1.0), layers["lrn"](x), atol=1e-6))
print("rms default eps", nn.RMSNorm(3).eps, nn.RMSNorm(3).weight)


def adain(content, style, eps=1e-5):
    c_mean = content.mean(dim=(2, 3), keepdim=True)
    c_std = (content.var(dim=(2, 3), keepdim=True) + eps).sqrt()
    s_mean = style.mean(dim=(2, 3), keepdim=True)
    s_std = (style.var(dim=(2, 3), keepdim=True) + eps).sqrt()
    return (content - c_mean) / c_std * s_std + s_mean


content = torch.randn(1, 4, 5, 5, requires_grad=True)
style = torch.randn(1, 4, 5, 5) * 3 - 2
out = adain(content, style)
print("adain output mean", out.mean(dim=(2, 3)))
print("style mean       ", style.mean(dim=(2, 3)))
print("std match", torch.allclose(out.std(dim=(2, 3)), style.std(dim=(2, 3)), atol=1e-3))
out.pow(2).sum().backward()
print("content grad", content.grad[0, 0, 0])

# gradients through each normaliser
for name in ["batch", "group", "layer", "rms"]:
    layer = layers[name].train()
    xi = x.clone().requires_grad_(True)
    w = torch.arange(xi.numel(), dtype=torch.float).view_as(xi) / xi.numel()
    (layer(xi) * w).sum().backward()
    print(f"{name:6s} grad sum {xi.grad.sum().item():+.4f} grad[0,0,0]", xi.grad[0, 0, 0])
