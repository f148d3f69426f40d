# Models: a "decoder shapes" tutorial: ConvTranspose1d/2d output sizes from stride, padding,
# output_padding and dilation, the output_size argument, groups, the shape formula checked
# against the layers, and Conv2d/ConvTranspose2d inverse shapes; the errors for bad sizes.
import torch
import torch.nn as nn

torch.manual_seed(1)


def tconv_len(L, k, s, p, op, d):
    return (L - 1) * s - 2 * p + d * (k - 1) + op + 1


for (k, s, p, op, d) in [(3, 1, 0, 0, 1), (3, 2, 1, 1, 1), (4, 2, 1, 0, 1), (3, 3, 0, 2, 1),
                         (3, 2, 0, 0, 2), (5, 2, 2, 1, 1)]:
    layer = nn.ConvTranspose1d(2, 3, k, stride=s, padding=p, output_padding=op, dilation=d)
    out = layer(torch.randn(1, 2, 7))
    print((k, s, p, op, d), out.shape[-1], tconv_len(7, k, s, p, op, d))
up = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)
x = torch.randn(1, 4, 5, 5)
print("default", up(x).shape)
print("output_size 10", up(x, output_size=[10, 10]).shape)
print("output_size 9", up(x, output_size=(1, 2, 9, 9)).shape)
down = nn.Conv2d(2, 4, 3, stride=2, padding=1)
y = torch.randn(1, 2, 10, 10)
print("down", down(y).shape, "up with output_size", up(down(y), output_size=y.shape[-2:]).shape)
g = nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2, bias=False)
print("groups weight", g.weight.shape, g(x).shape)
w = torch.arange(8.0).reshape(1, 2, 2, 2)
print("functional\n",
      torch.nn.functional.conv_transpose2d(torch.ones(1, 1, 2, 2), w[:, :1], stride=2))
out = up(x)
out.sum().backward()
print("bias grad", up.bias.grad, out.grad_fn.name())
for bad in [lambda: up(x, output_size=[12, 12]),
            lambda: nn.ConvTranspose1d(1, 1, 3, stride=2, output_padding=2)(torch.ones(1, 1, 4)),
            lambda: nn.ConvTranspose2d(3, 2, 3, groups=2)]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
