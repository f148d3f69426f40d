# Models: a SegNet-style encoder/decoder tutorial: MaxPool2d(return_indices=True) paired with
# MaxUnpool2d (and 1d), pooling indices inspected, AdaptiveMaxPool1d/2d with indices,
# LPPool2d, AvgPool2d with ceil_mode/count_include_pad, and a tiny segmentation net trained
# on synthetic masks with per-class IoU.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.tensor([[[[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]])
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
out, idx = pool(x)
print(pool, unpool)
print(out, idx)
print(unpool(out, idx))
print(unpool(out, idx, output_size=torch.Size([1, 1, 5, 5])))

s = torch.tensor([[[3.0, 1, 4, 1, 5, 9, 2, 6]]])
o1, i1 = F.max_pool1d(s, 2, return_indices=True)
print(o1, i1, F.max_unpool1d(o1, i1, 2))
ao, ai = nn.AdaptiveMaxPool1d(3, return_indices=True)(s)
print("adaptive1d", ao, ai)
a2, i2 = F.adaptive_max_pool2d(x, (3, 2), return_indices=True)
print("adaptive2d", a2.flatten().tolist(), i2.flatten().tolist())
print(nn.LPPool2d(2, 2)(x))
print(nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)(x))
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=True)(x))
print(F.max_pool2d(x, 3, stride=2, ceil_mode=True), F.max_pool2d(x, 2, dilation=2))

xg = x.clone().requires_grad_(True)
o, i = F.max_pool2d(xg, 2, return_indices=True)
F.max_unpool2d(o * 2, i, 2).sum().backward()
print("grad through pool+unpool", xg.grad[0, 0])


class SegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)
        self.dec2 = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.dec1 = nn.Conv2d(8, n_classes, 3, padding=1)

    def forward(self, x):
        h1 = self.enc1(x)
        p1, i1 = self.pool(h1)
        h2 = self.enc2(p1)
        p2, i2 = self.pool(h2)
        u2 = self.unpool(p2, i2, output_size=h2.shape)
        u1 = self.unpool(self.dec2(u2), i1, output_size=h1.shape)
        return self.dec1(u1)


def make_data(n):
    imgs = torch.zeros(n, 1, 12, 12)
    masks = torch.zeros(n, 12, 12, dtype=torch.long)
    for k in range(n):
        r, c = torch.randint(0, 7, (2,)).tolist()
        imgs[k, 0, r : r + 5, c : c + 5] = 1.0
        masks[k, r : r + 5, c : c + 5] = 1
        r2, c2 = torch.randint(0, 9, (2,)).tolist()
        imgs[k, 0, r2 : r2 + 3, c2 : c2 + 3] = -1.0
        masks[k, r2 : r2 + 3, c2 : c2 + 3] = 2
    return imgs + 0.1 * torch.randn_like(imgs), masks


imgs, masks = make_data(16)
print("class pixel counts", torch.bincount(masks.flatten(), minlength=3).tolist())
model = SegNet()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(25):
    opt.zero_grad()
    loss = F.cross_entropy(model(imgs), masks)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    pred = model(imgs).argmax(1)
for c in range(3):
    inter = ((pred == c) & (masks == c)).sum().item()
    union = ((pred == c) | (masks == c)).sum().item()
    print(f"class {c} IoU {inter / max(union, 1):.3f}")
