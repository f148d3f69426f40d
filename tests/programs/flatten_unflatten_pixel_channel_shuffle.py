# Models: a layer-reference notebook for reshaping layers: nn.Flatten with start/end dims,
# nn.Unflatten with sizes and -1, PixelShuffle / PixelUnshuffle round trips, ChannelShuffle,
# torch.flatten vs view, and the errors for indivisible sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 8 * 2 * 2.0).reshape(2, 8, 2, 2)
print(nn.Flatten()(x).shape, nn.Flatten(0, 2)(x).shape, nn.Flatten(-2)(x).shape)
print(nn.Flatten(), nn.Unflatten(1, (2, 4)))
u = nn.Unflatten(1, (2, -1))(x)
print("unflatten", u.shape)
print(nn.Unflatten(1, torch.Size([4, 2]))(x).shape)
ps = nn.PixelShuffle(2)
y = ps(x)
print("pixel shuffle", y.shape)
print(y[0, 0])
back = nn.PixelUnshuffle(2)(y)
print("round trip", torch.equal(back, x))
cs = nn.ChannelShuffle(2)
z = cs(torch.arange(8.0).reshape(1, 8, 1, 1))
print("channel shuffle", z.flatten())
print(F.channel_shuffle(torch.arange(6.0).reshape(1, 6, 1, 1), 3).flatten())
print(torch.flatten(x, 1).shape, x.flatten().shape, torch.flatten(torch.tensor(3.0)).shape)
xr = x.clone().requires_grad_()
F.pixel_shuffle(xr, 2).mul(torch.arange(4.0).repeat(8)[:16].reshape(4, 4)).sum().backward()
print("grad", xr.grad[0, :4])
print(F.pixel_shuffle(xr, 2).grad_fn.name(), nn.Flatten()(xr).grad_fn.name())
for bad in [lambda: nn.PixelShuffle(3)(x),
            lambda: nn.PixelUnshuffle(3)(x),
            lambda: nn.Unflatten(1, (3, 3))(x),
            lambda: nn.ChannelShuffle(3)(x)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
