# Models: a pooling/resampling regression suite: max/avg/lp/adaptive pools, unfold and pixel
# (un)shuffle on float32 data, the output and the input gradient summed at full precision.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
pools = {
    "max2d": lambda x: F.max_pool2d(x, 3, 2, 1),
    "max2d_ceil": lambda x: F.max_pool2d(x, 2, ceil_mode=True),
    "avg2d": lambda x: F.avg_pool2d(x, 3, 2, 1),
    "avg2d_nopad": lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
    "lp2d": lambda x: F.lp_pool2d(x, 2.0, 3, 2), "amax": lambda x: F.adaptive_max_pool2d(x, (4, 3)),
    "aavg": lambda x: F.adaptive_avg_pool2d(x, (5, 4)),
    "unfold": lambda x: F.unfold(x, 3, dilation=2, padding=1),
    "max1d": lambda x: F.max_pool1d(x.flatten(2), 4, 3),
    "avg3d": lambda x: F.avg_pool3d(x.unsqueeze(2), (1, 3, 3)),
    "pixshuf": lambda x: F.pixel_shuffle(x[:, :4], 2),
    "pixunshuf": lambda x: F.pixel_unshuffle(x[..., :12, :10], 2),
}
for name, fn in pools.items():
    x = torch.randn(2, 4, 13, 11, requires_grad=True)
    y = fn(x)
    (gx,) = torch.autograd.grad((y * y).sum(), x)
    print(f"{name:12s} {tuple(y.shape)} {y.sum().item()!r} {gx.sum().item()!r}")
