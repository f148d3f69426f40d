# Models: DeepDream-style gradient ascent on the input: a small fixed random conv net with
# forward hooks capturing a chosen layer, the objective of maximising its activation norm,
# gradient normalisation by its mean absolute value, random jitter with torch.roll and
# un-roll, octave processing (downscale with interpolate, dream, upscale the detail and add
# it back), and clamping to the image range; also the "feature visualisation" variant
# maximising one channel with a total-variation penalty.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
)
net.eval().requires_grad_(False)
captured = {}
handle = net[3].register_forward_hook(lambda m, i, o: captured.__setitem__("act", o))


def dream_step(img, lr, g, channel=None, tv=0.0):
    shift = torch.randint(-2, 3, (2,), generator=g).tolist()
    img = torch.roll(img.detach(), shifts=shift, dims=(-2, -1)).requires_grad_(True)
    net(img)
    act = captured["act"]
    obj = act[:, channel].mean() if channel is not None else act.pow(2).mean()
    if tv:
        obj = obj - tv * ((img[..., 1:, :] - img[..., :-1, :]).abs().mean()
                          + (img[..., :, 1:] - img[..., :, :-1]).abs().mean())
    (grad,) = torch.autograd.grad(obj, img)
    img = img.detach() + lr * grad / (grad.abs().mean() + 1e-8)
    img = torch.roll(img, shifts=[-s for s in shift], dims=(-2, -1))
    return img.clamp(-1, 1), obj.item()


def deepdream(img, g, octaves=3, scale=1.4, steps=6, lr=0.02):
    shapes = [img.shape[-2:]]
    for _ in range(octaves - 1):
        h, w = shapes[-1]
        shapes.append((int(h / scale), int(w / scale)))
    base = img
    detail = torch.zeros_like(F.interpolate(img, size=shapes[-1], mode="bilinear",
                                            align_corners=False))
    for k, shape in enumerate(reversed(shapes)):
        small = F.interpolate(base, size=shape, mode="bilinear", align_corners=False)
        detail = F.interpolate(detail, size=shape, mode="bilinear", align_corners=False)
        x = small + detail
        for _ in range(steps):
            x, obj = dream_step(x, lr, g)
        detail = x - small
        print(f"octave {k} size {tuple(shape)} objective {obj:.6f}")
    return x


g = torch.Generator().manual_seed(1)
img = torch.rand(1, 3, 28, 28, generator=g) * 0.4 - 0.2
out = deepdream(img, g)
print("changed pixels mean |delta|:", f"{(out - img).abs().mean().item():.6f}")
print("output stats:", out.mean((0, 2, 3)), out.std().item() > 0)

vis = torch.zeros(1, 3, 16, 16)
for step in range(20):
    vis, obj = dream_step(vis + 0.01 * torch.randn(vis.shape, generator=g), 0.05, g,
                          channel=3, tv=0.5)
print(f"channel 3 visualisation objective {obj:.6f}")
print("vis centre row:", vis[0, 0, 8, :8])
handle.remove()
net(img)
print("hook removed, capture unchanged:", tuple(captured["act"].shape))
