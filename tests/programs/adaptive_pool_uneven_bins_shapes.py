# Models: a question-and-answer post explaining adaptive pooling: the start/end index formula
# for uneven bins, AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool with output sizes that do not
# divide the input, None entries in output_size, and the gradients spreading over overlaps.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(10.0).reshape(1, 1, 10)
for out in [3, 4, 7, 10, 13]:
    bins = [(math.floor(i * 10 / out), math.ceil((i + 1) * 10 / out)) for i in range(out)]
    by_hand = torch.tensor([x[0, 0, s:e].mean().item() for s, e in bins])
    got = F.adaptive_avg_pool1d(x, out)[0, 0]
    print(out, bins[:4], torch.allclose(got, by_hand), got)
img = torch.arange(35.0).reshape(1, 1, 5, 7)
print("avg2d (2,3)\n", nn.AdaptiveAvgPool2d((2, 3))(img)[0, 0])
print("avg2d (None,3)", nn.AdaptiveAvgPool2d((None, 3))(img).shape)
print("max2d (3,4)\n", nn.AdaptiveMaxPool2d((3, 4))(img)[0, 0])
vol = torch.arange(60.0).reshape(1, 1, 3, 4, 5)
print("avg3d", nn.AdaptiveAvgPool3d((2, 2, 3))(vol).flatten())
print("max1d indices", F.adaptive_max_pool1d(torch.tensor([[[3.0, 1.0, 4.0, 1.0, 5.0]]]), 2,
                                             return_indices=True))
xr = torch.ones(1, 1, 5, requires_grad=True)
F.adaptive_avg_pool1d(xr, 3).sum().backward()
print("overlap grads", xr.grad)
xr2 = img.clone().requires_grad_()
F.adaptive_max_pool2d(xr2, (2, 2)).sum().backward()
print("max grads\n", xr2.grad[0, 0])
try:
    nn.AdaptiveAvgPool2d((0, 2))(img)
except RuntimeError as e:
    print("RuntimeError:", e)
