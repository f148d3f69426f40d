# Models: deformable convolution (DCNv1/v2) written without torchvision: an offset branch
# (zero-initialised conv predicting 2 offsets per kernel tap) and a modulation mask, the
# sampling grid built from base kernel positions plus offsets and read with grid_sample
# (bilinear, zero padding), the result folded into a 1x1-equivalent conv over the sampled
# taps; checked to equal a plain Conv2d at zero offset, then trained on rotated-bar
# classification.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DeformConv2d(nn.Module):
    def __init__(self, cin, cout, k=3, modulated=True):
        super().__init__()
        self.k, self.cin, self.cout = k, cin, cout
        self.weight = nn.Parameter(torch.randn(cout, cin, k, k) * 0.1)
        self.bias = nn.Parameter(torch.zeros(cout))
        self.offset = nn.Conv2d(cin, 2 * k * k, 3, padding=1)
        nn.init.zeros_(self.offset.weight)
        nn.init.zeros_(self.offset.bias)
        self.mask = nn.Conv2d(cin, k * k, 3, padding=1) if modulated else None
        if self.mask is not None:
            nn.init.zeros_(self.mask.weight)
            nn.init.zeros_(self.mask.bias)

    def forward(self, x):
        n, c, h, w = x.shape
        k = self.k
        off = self.offset(x).view(n, k * k, 2, h, w)
        ky, kx = torch.meshgrid(torch.arange(k) - k // 2, torch.arange(k) - k // 2,
                                indexing="ij")
        ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        py = ys[None, None] + ky.reshape(1, -1, 1, 1) + off[:, :, 0]
        px = xs[None, None] + kx.reshape(1, -1, 1, 1) + off[:, :, 1]
        grid = torch.stack([2 * px / (w - 1) - 1, 2 * py / (h - 1) - 1], -1)  # (n,kk,h,w,2)
        sampled = F.grid_sample(x, grid.view(n, k * k * h, w, 2), mode="bilinear",
                                padding_mode="zeros", align_corners=True)
        sampled = sampled.view(n, c, k * k, h, w)
        if self.mask is not None:
            sampled = sampled * (2 * torch.sigmoid(self.mask(x))).unsqueeze(1)
        out = torch.einsum("nckhw,ock->nohw", sampled, self.weight.view(self.cout, c, k * k))
        return out + self.bias.view(1, -1, 1, 1)


dc = DeformConv2d(2, 3)
x = torch.randn(2, 2, 7, 7)
ref = F.conv2d(x, dc.weight, dc.bias, padding=1)
print("zero offsets == conv2d:", torch.allclose(dc(x), ref, atol=1e-5))
with torch.no_grad():
    dc.offset.bias.fill_(0.5)
print("shifted output:", dc(x)[0, 0, 3])


def bars(n, g):
    """A bar through the centre at angle 0 (class 0) or 90 degrees (class 1), jittered."""
    y = torch.randint(0, 2, (n,), generator=g)
    img = torch.randn(n, 1, 9, 9, generator=g) * 0.2
    shift = torch.randint(-2, 3, (n,), generator=g)
    for i in range(n):
        r = 4 + shift[i].item()
        if y[i] == 0:
            img[i, 0, r, 1:8] += 1
        else:
            img[i, 0, 1:8, r] += 1
    return img, y


model = nn.Sequential(DeformConv2d(1, 6), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(),
                      nn.Linear(6, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
g = torch.Generator().manual_seed(2)
for step in range(40):
    xb, yb = bars(32, g)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.5f}")
xv, yv = bars(100, g)
with torch.no_grad():
    acc = (model(xv).argmax(1) == yv).float().mean().item()
    offs = model[0].offset(xv[:1])
print(f"val acc {acc:.4f}")
print("learned offset magnitude:", f"{offs.abs().mean().item():.6f}")
print("offset bias:", model[0].offset.bias.detach()[:6])
