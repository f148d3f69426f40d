# Models: a video-action-recognition tutorial in miniature (C3D / R(2+1)D style): Conv3d,
# BatchNorm3d, MaxPool3d/AvgPool3d, AdaptiveAvgPool3d, a (2+1)D factorised convolution,
# Dropout3d, plus ConvTranspose1d/ConvTranspose3d shapes, on synthetic moving-dot clips.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_clips(n, t=6, s=8):
    clips = torch.zeros(n, 1, t, s, s)
    labels = torch.randint(0, 3, (n,))
    for k in range(n):
        r, c = torch.randint(2, 6, (2,)).tolist()
        for f in range(t):
            dr, dc = [(0, 1), (1, 0), (0, 0)][labels[k]]
            rr, cc = (r + dr * f) % s, (c + dc * f) % s
            clips[k, 0, f, rr, cc] = 1.0
    return clips + 0.05 * torch.randn_like(clips), labels


clips, labels = make_clips(24)
print("clips", tuple(clips.shape), "labels", labels.tolist())


class R2Plus1D(nn.Module):
    def __init__(self, cin, cout, mid):
        super().__init__()
        self.spatial = nn.Conv3d(cin, mid, (1, 3, 3), padding=(0, 1, 1), bias=False)
        self.bn = nn.BatchNorm3d(mid)
        self.temporal = nn.Conv3d(mid, cout, (3, 1, 1), padding=(1, 0, 0), bias=False)

    def forward(self, x):
        return self.temporal(F.relu(self.bn(self.spatial(x))))


class TinyC3D(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(1, 4, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm3d(4)
        self.pool1 = nn.MaxPool3d((1, 2, 2))
        self.block = R2Plus1D(4, 8, 6)
        self.bn2 = nn.BatchNorm3d(8)
        self.drop = nn.Dropout3d(0.1)
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = self.drop(F.relu(self.bn2(self.block(x))))
        return self.fc(self.pool(x).flatten(1))


model = TinyC3D()
print(model)
h = model.pool1(model.conv1(clips[:2]))
print("after pool1", tuple(h.shape), "after block", tuple(model.block(h).shape))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(12):
    model.train()
    opt.zero_grad()
    logits = model(clips)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    if epoch % 3 == 2:
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.3f}")
print("conv1 grad norm", f"{model.conv1.weight.grad.norm().item():.4f}")
model.eval()
with torch.no_grad():
    print(F.softmax(model(clips[:3]), dim=1))

print(nn.AvgPool3d(2)(torch.arange(8.0).view(1, 1, 2, 2, 2)))
print(F.avg_pool3d(clips[:1], (2, 2, 2), stride=2).shape, F.max_pool3d(clips[:1], 2).shape)
up1 = nn.ConvTranspose1d(2, 3, kernel_size=4, stride=2, padding=1, output_padding=1)
print(up1, tuple(up1(torch.randn(1, 2, 5)).shape))
up3 = nn.ConvTranspose3d(2, 1, kernel_size=(1, 2, 2), stride=(1, 2, 2))
v = torch.randn(1, 2, 3, 4, 4, requires_grad=True)
o = up3(v)
o.sum().backward()
print(tuple(o.shape), v.grad[0, :, 0, 0, 0], up3.weight.grad.flatten())
