# Models: the inference-optimisation how-to that folds BatchNorm into the preceding conv and
# linear layers with torch.nn.utils.fusion (fuse_conv_bn_eval, fuse_conv_bn_weights,
# fuse_linear_bn_eval) and checks the fused outputs against the eval-mode originals.
import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval

torch.manual_seed(0)
conv = nn.Conv2d(3, 5, 3, padding=1)
bn = nn.BatchNorm2d(5)
x = torch.randn(4, 3, 6, 6)
bn.train()
for _ in range(3):
    bn(conv(x))
conv.eval()
bn.eval()
print(bn.running_mean)
print(bn.num_batches_tracked)
fused = fuse_conv_bn_eval(conv, bn)
print(fused)
ref = bn(conv(x))
out = fused(x)
print(torch.allclose(ref, out, atol=1e-5), (ref - out).abs().max() < 1e-5)
print(fused.weight.requires_grad, fused.bias.shape)

w, b = fuse_conv_bn_weights(
    conv.weight, None, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
)
print(type(w).__name__, w.shape, b.shape)
print(b)

lin = nn.Linear(6, 4)
bn1 = nn.BatchNorm1d(4)
bn1.train()
z = torch.randn(8, 6)
bn1(lin(z))
lin.eval()
bn1.eval()
fl = fuse_linear_bn_eval(lin, bn1)
print(fl)
print(torch.allclose(fl(z), bn1(lin(z)), atol=1e-5))
print(fl.bias)

tconv = nn.ConvTranspose2d(3, 5, 2, stride=2)
tconv.eval()
ft = fuse_conv_bn_eval(tconv, bn, transpose=True)
print(torch.allclose(ft(x), bn(tconv(x)), atol=1e-5))
