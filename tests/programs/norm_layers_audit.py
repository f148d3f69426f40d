# Models: a normalisation-layer regression suite: BatchNorm1d/2d/3d in training (running
# stats, momentum=None cumulative averaging) and eval, GroupNorm, InstanceNorm2d with affine
# and running stats, LayerNorm without affine, RMSNorm, and F.batch_norm on channels-last
# input, each forward output and input gradient summed (float32 and float64, to 12 digits).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    layers = [
        ("bn1d", nn.BatchNorm1d(6), (9, 6)),
        ("bn1d_seq", nn.BatchNorm1d(6, momentum=None), (4, 6, 7)),
        ("bn2d", nn.BatchNorm2d(5), (3, 5, 6, 7)), ("bn3d", nn.BatchNorm3d(3), (2, 3, 4, 5, 3)),
        ("gn", nn.GroupNorm(3, 6), (4, 6, 5, 5)),
        ("gn1", nn.GroupNorm(1, 6, affine=False), (4, 6, 9)),
        ("in2d", nn.InstanceNorm2d(5, affine=True, track_running_stats=True), (3, 5, 6, 7)),
        ("ln", nn.LayerNorm((6, 7), elementwise_affine=False), (3, 6, 7)),
        ("rms", nn.RMSNorm(7, eps=1e-5), (3, 6, 7)),
    ]
    for name, layer, shape in layers:
        layer = layer.to(dt)
        with torch.no_grad():
            for p in layer.parameters():
                p.uniform_(0.5, 1.5)
        layer.train()
        for _ in range(2):
            x = torch.randn(shape, dtype=dt) * 2 + 0.5
            x.requires_grad_()
            y = layer(x)
            weights = torch.linspace(-1, 1, y.numel(), dtype=dt).view(y.shape)
            (g,) = torch.autograd.grad((y * weights).sum(), x)
        rm = getattr(layer, "running_mean", None)
        stats = "" if rm is None else \
            f" rm {rm.sum().item():.12g} rv {layer.running_var.sum().item():.12g}"
        ys, gs = y.pow(2).sum().item(), g.abs().sum().item()
        print(f"{str(dt):13s} {name:8s} train y {ys:.12g} g {gs:.12g}{stats}")
        layer.eval()
        x = torch.randn(shape, dtype=dt, requires_grad=True)
        y = layer(x)
        (g,) = torch.autograd.grad(y.sin().sum(), x)
        ys, gs = y.pow(2).sum().item(), g.abs().sum().item()
        print(f"{str(dt):13s} {name:8s} eval  y {ys:.12g} g {gs:.12g}")
    x = torch.randn(2, 4, 5, 5, dtype=dt).to(memory_format=torch.channels_last).requires_grad_()
    w, b = torch.rand(4, dtype=dt), torch.rand(4, dtype=dt)
    y = F.batch_norm(x, None, None, w, b, training=True)
    (g,) = torch.autograd.grad(y.pow(3).sum(), x)
    cl = y.is_contiguous(memory_format=torch.channels_last)
    ys, gs = y.pow(2).sum().item(), g.abs().sum().item()
    print(f"{str(dt):13s} bn_cl    y {ys:.12g} g {gs:.12g} {cl}")
