# Models: a small U-Net (the "U-Net from scratch" tutorials) for binary segmentation of
# synthetic 16x16 images with discs: DoubleConv blocks (Conv2d + BatchNorm2d + ReLU), MaxPool2d
# down, ConvTranspose2d up with torch.cat skip connections, BCEWithLogitsLoss plus a soft Dice
# loss, Adam, and IoU / Dice metrics on a held-out batch, with a state_dict round trip.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)


def make_batch(n):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    c = torch.rand(n, 2, 1, 1) * 8 + 4
    r = torch.rand(n, 1, 1) * 2 + 2.5
    mask = (((xx - c[:, 0]) ** 2 + (yy - c[:, 1]) ** 2) < r ** 2).float().unsqueeze(1)
    img = mask * 0.8 + torch.randn(n, 1, 16, 16) * 0.3
    return img, mask


class DoubleConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True))

    def forward(self, x):
        return self.net(x)


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inc = DoubleConv(1, 4)
        self.down = nn.Sequential(nn.MaxPool2d(2), DoubleConv(4, 8))
        self.up = nn.ConvTranspose2d(8, 4, kernel_size=2, stride=2)
        self.dec = DoubleConv(8, 4)
        self.outc = nn.Conv2d(4, 1, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        u = self.up(x2)
        return self.outc(self.dec(torch.cat([x1, u], dim=1)))


def dice_loss(logits, target, smooth=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum(dim=(2, 3))
    union = prob.sum(dim=(2, 3)) + target.sum(dim=(2, 3))
    return 1 - ((2 * inter + smooth) / (union + smooth)).mean()


model = UNet()
print("parameters", sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
bce = nn.BCEWithLogitsLoss()
for step in range(25):
    img, mask = make_batch(8)
    model.train()
    logits = model(img)
    loss = bce(logits, mask) + dice_loss(logits, mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
restored = UNet()
restored.load_state_dict(torch.load(buf))
restored.eval()
img, mask = make_batch(6)
with torch.no_grad():
    pred = (torch.sigmoid(restored(img)) > 0.5).float()
inter = (pred * mask).sum(dim=(1, 2, 3))
union = ((pred + mask) > 0).float().sum(dim=(1, 2, 3))
print("IoU per image", inter / union.clamp(min=1))
dice = 2 * inter / (pred.sum((1, 2, 3)) + mask.sum((1, 2, 3)))
print("mean Dice", round(dice.mean().item(), 4))
print("upsampled", F.interpolate(pred[:1], scale_factor=0.5, mode="nearest").shape)
