# Models: an image-processing course notebook on convolution and resampling options:
# padding="same"/"valid" with even kernels and dilation, padding_mode variants,
# ConvTranspose2d output_size/output_padding, grouped and depthwise shapes, F.pad modes and
# their size limits, F.interpolate (nearest/nearest-exact/bilinear/bicubic/area, align_corners,
# antialias, recompute_scale_factor), affine_grid/grid_sample modes, with errors printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=4)


def show(title, fn):
    try:
        out = fn()
        if torch.is_tensor(out):
            out = f"{tuple(out.shape)} sum={out.sum().item():.4f}"
        print(f"[ok] {title}: {out}")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


x = torch.randn(1, 2, 7, 6)
show("same odd", lambda: nn.Conv2d(2, 3, 3, padding="same")(x))
show("same even kernel", lambda: nn.Conv2d(2, 3, 4, padding="same")(x))
show("same dilated", lambda: nn.Conv2d(2, 3, 3, padding="same", dilation=2)(x))
show("valid", lambda: nn.Conv2d(2, 3, 3, padding="valid")(x))
show(
    "functional same stride", lambda: F.conv2d(x, torch.randn(3, 2, 3, 3), stride=2, padding="same")
)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    conv = nn.Conv2d(2, 1, 3, padding=2, padding_mode=mode, bias=False)
    nn.init.constant_(conv.weight, 1.0 / 18)
    show(f"padding_mode {mode}", lambda conv=conv: conv(x))
show("reflect pad too big", lambda: nn.Conv2d(2, 1, 3, padding=7, padding_mode="reflect")(x))
show("groups", lambda: nn.Conv2d(4, 6, 3, groups=2).weight.shape)
show("depthwise", lambda: nn.Conv2d(2, 4, 3, groups=2)(x))
show("groups mismatch", lambda: F.conv2d(x, torch.randn(4, 2, 3, 3), groups=2))

up = nn.ConvTranspose2d(2, 1, 3, stride=2, padding=1)
show("transpose default", lambda: up(x))
show("transpose output_size", lambda: up(x, output_size=[14, 12]))
show("transpose bad output_size", lambda: up(x, output_size=[16, 12]))
show(
    "output_padding too big",
    lambda: F.conv_transpose2d(x, torch.randn(2, 1, 3, 3), stride=2, output_padding=2),
)
show("transpose dilation", lambda: F.conv_transpose2d(x, torch.randn(2, 1, 3, 3), dilation=2))

t = torch.arange(16.0).view(1, 1, 4, 4)
for mode in ["constant", "reflect", "replicate", "circular"]:
    show(f"pad {mode}", lambda mode=mode: F.pad(t, (1, 2, 0, 1), mode=mode))
show("pad negative (crop)", lambda: F.pad(t, (-1, -1, 0, 0)))
show("pad reflect too big", lambda: F.pad(t, (4, 0, 0, 0), mode="reflect"))
show("pad odd length", lambda: F.pad(t, (1, 2, 3)))
show("pad too many dims", lambda: F.pad(t, (1, 1, 1, 1, 1, 1), mode="reflect"))
show("pad constant value", lambda: F.pad(t, (1, 1), value=-1.0)[0, 0, 0])
show("circular pad too big", lambda: F.pad(t, (5, 0, 0, 0), mode="circular"))

img = torch.rand(1, 1, 5, 5)
for kw in [
    dict(scale_factor=2, mode="nearest"),
    dict(scale_factor=1.5, mode="nearest-exact"),
    dict(size=(8, 7), mode="bilinear", align_corners=True),
    dict(size=(8, 7), mode="bilinear", align_corners=False),
    dict(scale_factor=0.5, mode="bilinear", antialias=True),
    dict(scale_factor=1.7, mode="bicubic", recompute_scale_factor=True),
    dict(size=3, mode="area"),
]:
    show(f"interpolate {kw}", lambda kw=kw: F.interpolate(img, **kw))
show(
    "interpolate nearest align_corners",
    lambda: F.interpolate(img, scale_factor=2, align_corners=True),
)
show("interpolate no size", lambda: F.interpolate(img))
show("interpolate both", lambda: F.interpolate(img, size=4, scale_factor=2))
show("interpolate bad mode", lambda: F.interpolate(img, size=4, mode="linear"))
show(
    "interpolate antialias nearest",
    lambda: F.interpolate(img, size=4, mode="nearest", antialias=True),
)
show("upsample module", lambda: nn.Upsample(scale_factor=2, mode="bilinear")(img))
print(
    nn.Upsample(scale_factor=2.0, mode="bilinear", align_corners=False),
    nn.UpsamplingNearest2d(size=3),
)

theta = torch.tensor([[[0.8, -0.2, 0.1], [0.2, 0.8, -0.1]]])
grid = F.affine_grid(theta, (1, 1, 5, 5), align_corners=False)
for mode in ["bilinear", "nearest", "bicubic"]:
    for pad in ["zeros", "border", "reflection"]:
        show(
            f"grid_sample {mode}/{pad}",
            lambda m=mode, p=pad: F.grid_sample(
                img, grid, mode=m, padding_mode=p, align_corners=False
            ),
        )
show("grid_sample bad mode", lambda: F.grid_sample(img, grid, mode="area", align_corners=False))
show("affine_grid size mismatch", lambda: F.affine_grid(theta, (2, 1, 5, 5), align_corners=False))
g = torch.zeros(1, 2, 2, 2, requires_grad=True)
F.grid_sample(img, g, align_corners=True).sum().backward()
print("grid grad", g.grad.flatten())
