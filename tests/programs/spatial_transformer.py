# Models: the PyTorch "Spatial Transformer Networks" tutorial in miniature (a localisation net
# regressing a 2x3 affine matrix initialised to the identity, affine_grid + grid_sample,
# then a small classifier; trained with SGD on synthetic shifted, blurred blobs).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)
n = 64
imgs = torch.zeros(n, 1, 12, 12)
labels = torch.randint(0, 2, (n,))
for i in range(n):
    r, c = torch.randint(2, 8, (2,)).tolist()
    if labels[i] == 0:
        imgs[i, 0, r:r + 3, c:c + 3] = 1.0
    else:
        imgs[i, 0, r:r + 4, c + 1] = 1.0
        imgs[i, 0, r + 1, c:c + 3] = 1.0
imgs = F.avg_pool2d(F.pad(imgs, (1, 1, 1, 1), mode="replicate"), 3, stride=1)  # soft edges


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 5 * 5, 16), nn.ReLU(True), nn.Linear(16, 6))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
        self.conv = nn.Conv2d(1, 6, 3, padding=1)
        self.fc = nn.Linear(6 * 6 * 6, 2)

    def stn(self, x):
        xs = self.localization(x).view(-1, 4 * 5 * 5)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta

    def forward(self, x):
        x, theta = self.stn(x)
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return F.log_softmax(self.fc(x.flatten(1)), dim=1), theta


model = STN()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(15):
    out, theta = model(imgs)
    loss = F.nll_loss(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        acc = (out.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.5f} acc {acc:.3f} "
              f"theta00 {theta[0, 0, 0].item():.5f}")
with torch.no_grad():
    warped, theta = model.stn(imgs[:2])
print(theta)
print(warped[0, 0, 4:8, 4:8])
theta = torch.tensor([[[0.8, 0.2, 0.1], [-0.2, 0.9, 0.0]]])
grid = F.affine_grid(theta, (1, 1, 4, 5), align_corners=True)
for mode in ("bilinear", "nearest", "bicubic"):
    for pad in ("zeros", "border", "reflection"):
        s = F.grid_sample(imgs[:1, :, :4, :5] + torch.arange(20.).view(1, 1, 4, 5), grid,
                          mode=mode, padding_mode=pad, align_corners=True)
        print(mode, pad, s.sum().item())
