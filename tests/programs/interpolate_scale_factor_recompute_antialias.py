# Models: a resizing pitfalls post: F.interpolate with non-integer scale_factor with and
# without recompute_scale_factor, align_corners differences, antialias for bilinear/bicubic
# downsampling, nearest vs nearest-exact, area mode, and the warnings and errors printed.
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(25.0).reshape(1, 1, 5, 5)
for rec in [None, True]:
    y = F.interpolate(x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=rec)
    print("recompute", rec, y.shape, y[0, 0, 0])
print("align_corners\n", F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)[0, 0])
print("no align\n", F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=False)[0, 0])
big = torch.randn(1, 1, 12, 12)
for mode in ["bilinear", "bicubic"]:
    plain = F.interpolate(big, size=(4, 4), mode=mode)
    aa = F.interpolate(big, size=(4, 4), mode=mode, antialias=True)
    print(mode, "antialias diff", (plain - aa).abs().max().item() > 0, aa[0, 0, 0])
print("nearest", F.interpolate(x, scale_factor=0.6, mode="nearest")[0, 0])
print("nearest-exact", F.interpolate(x, scale_factor=0.6, mode="nearest-exact")[0, 0])
print("area", F.interpolate(x, size=(2, 2), mode="area")[0, 0])
print("linear 1d", F.interpolate(torch.arange(4.0).reshape(1, 1, 4), scale_factor=1.5,
                                 mode="linear"))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=None)
    F.upsample(x, scale_factor=2)
    print("warnings", [str(m.message)[:70] for m in w])
for bad in [lambda: F.interpolate(x, size=(3, 3), scale_factor=2),
            lambda: F.interpolate(x, mode="bilinear"),
            lambda: F.interpolate(x, size=3, mode="linear"),
            lambda: F.interpolate(x, size=(3, 3), mode="nearest", align_corners=True)]:
    try:
        bad()
    except (ValueError, NotImplementedError) as e:
        print(type(e).__name__ + ":", e)
