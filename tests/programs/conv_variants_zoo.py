# Models: the convolution arithmetic guide in code: transposed convolutions with stride,
# output_padding, dilation and groups, padding='same' with dilation and even kernels,
# padding_mode reflect/replicate/circular, depthwise-separable blocks, Conv3d/ConvTranspose3d
# shapes, conv as unfold + matmul, and an encoder/decoder trained for a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 4, 9, 9)
for kw in [dict(stride=2), dict(stride=2, output_padding=1), dict(stride=3, dilation=2),
           dict(stride=2, groups=2, padding=1), dict(stride=(2, 1), padding=(1, 0))]:
    ct = nn.ConvTranspose2d(4, 6, 3, **kw)
    y = ct(x)
    print(kw, tuple(y.shape), f"{y.sum().item():.4f}")
    print(ct(x, output_size=[y.shape[2], y.shape[3]]).shape)
for k, d in [(4, 1), (3, 2), (2, 3)]:
    conv = nn.Conv1d(3, 2, k, padding="same", dilation=d)
    s = torch.randn(1, 3, 10)
    print("same", k, d, conv(s).shape, conv(s)[0, 0, :3])
for mode in ["zeros", "reflect", "replicate", "circular"]:
    conv = nn.Conv2d(4, 2, 3, padding=2, padding_mode=mode, bias=False)
    print(mode, conv(x).shape, conv(x)[1, 1, 0, :4])
dw = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False), nn.Conv2d(4, 8, 1))
print(dw(x).shape, dw(x)[0, 0, 0, :3])
v = torch.randn(1, 2, 5, 6, 7)
c3 = nn.Conv3d(2, 3, (3, 3, 2), stride=(1, 2, 2), padding=(1, 0, 1))
t3 = nn.ConvTranspose3d(3, 2, (3, 3, 2), stride=(1, 2, 2), padding=(1, 0, 1),
                        output_padding=(0, 1, 1))
print(c3(v).shape, t3(c3(v)).shape, t3(c3(v))[0, 1, 2, 0, :3])
w = torch.randn(5, 4, 3, 3)
cols = F.unfold(x, 3, padding=1)
manual = (w.view(5, -1) @ cols).view(2, 5, 9, 9)
print("unfold conv max err < 1e-5:", (manual - F.conv2d(x, w, padding=1)).abs().max().item() < 1e-5)
print(F.conv_transpose1d(torch.ones(1, 1, 4), torch.ones(1, 1, 3), stride=2))
print(F.conv_transpose2d(torch.arange(4.0).view(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2,
                         dilation=1, padding=0))


class EncDec(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(4, 8, 3, stride=2, padding=1, padding_mode="reflect"),
                                 nn.GELU(), nn.Conv2d(8, 8, 3, padding="same", dilation=2))
        self.dec = nn.Sequential(nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1,
                                                    output_padding=0), nn.Tanh())

    def forward(self, x):
        return self.dec(self.enc(x))


net = EncDec()
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
target = torch.tanh(x)
for step in range(6):
    loss = F.mse_loss(net(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f}")
