# Models: the Conformer convolution module and macaron feed-forward from speech recognition
# repos: pointwise conv with GLU, depthwise Conv1d with padding, BatchNorm1d, SiLU, half-step
# residual feed-forwards, and relative sinusoidal positions; shapes and a few training steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvModule(nn.Module):
    def __init__(self, d, k=7):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.pw2 = nn.Conv1d(d, d, 1)

    def forward(self, x):
        y = self.ln(x).transpose(1, 2)
        y = F.glu(self.pw1(y), dim=1)
        y = F.silu(self.bn(self.dw(y)))
        return x + self.pw2(y).transpose(1, 2)


class FF(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d)
        )

    def forward(self, x):
        return x + 0.5 * self.net(x)


class ConformerBlock(nn.Module):
    def __init__(self, d=12, heads=3):
        super().__init__()
        self.ff1, self.ff2 = FF(d), FF(d)
        self.ln_att = nn.LayerNorm(d)
        self.att = nn.MultiheadAttention(d, heads, batch_first=True)
        self.conv = ConvModule(d)
        self.ln_out = nn.LayerNorm(d)

    def forward(self, x, pad):
        x = self.ff1(x)
        h = self.ln_att(x)
        x = x + self.att(h, h, h, key_padding_mask=pad, need_weights=False)[0]
        x = self.conv(x)
        return self.ln_out(self.ff2(x))


blk = ConformerBlock()
print(blk.conv)
x = torch.randn(3, 10, 12)
pad = torch.zeros(3, 10, dtype=torch.bool)
pad[2, 7:] = True
print(F.glu(torch.arange(8.0).view(2, 4), dim=1))
y = blk(x, pad)
print(y.shape, y[0, 0, :4])
opt = torch.optim.Adam(blk.parameters(), lr=1e-2)
target = torch.randn(3, 10, 12)
for it in range(5):
    out = blk(x, pad)
    loss = ((out - target) ** 2).masked_fill(pad[..., None], 0).sum() / (~pad).sum() / 12
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
print(blk.conv.bn.running_mean[:4], blk.conv.dw.weight.grad.shape)
