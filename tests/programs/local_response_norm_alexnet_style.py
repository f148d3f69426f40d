# Models: the AlexNet paper's local response normalization: F.local_response_norm and
# nn.LocalResponseNorm across channels with size/alpha/beta/k, the formula by hand with
# avg_pool over a padded channel axis, 3-d and 5-d inputs, CrossMapLRN2d, and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)
x = torch.randn(2, 6, 3, 3)
lrn = nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=2.0)
y = lrn(x)
print(lrn)
print(y[0, :, 0, 0])
sq = x.pow(2).unsqueeze(1)
div = F.avg_pool3d(F.pad(sq, (0, 0, 0, 0, 1, 1)), (3, 1, 1), stride=1).squeeze(1)
by_hand = x / (div * 1e-2 + 2.0).pow(0.75)
print("by hand", torch.allclose(y, by_hand, atol=1e-6))
print("size 4 (even)", F.local_response_norm(x, 4)[0, :, 1, 1])
print("3d input", F.local_response_norm(torch.randn(2, 5, 7), 2).shape)
print("5d input", F.local_response_norm(torch.randn(1, 4, 2, 2, 2), 3).shape)
cm = nn.CrossMapLRN2d(3, alpha=1e-2, beta=0.75, k=2.0)
print("cross map equal", torch.allclose(cm(x), y, atol=1e-5))
xr = x.clone().requires_grad_()
lrn(xr).sum().backward()
print("grad", xr.grad[0, :, 0, 0])
try:
    F.local_response_norm(torch.randn(3, 4), 2)
except ValueError as e:
    print("ValueError:", e)
