# Models: 1-d CNN time-series classification notebooks (FCN / "InceptionTime-lite" baselines):
# Conv1d blocks (no bias: the BatchNorm1d after each removes it) with ReLU, dilated
# convolutions, global average pooling via AdaptiveAvgPool1d, a StepLR schedule, and
# per-class precision/recall from a confusion matrix.
import math

import torch
import torch.nn as nn

torch.manual_seed(4)
n, length = 120, 48
t = torch.linspace(0, 4 * math.pi, length)
labels = torch.randint(0, 3, (n,))
freqs = torch.tensor([1.0, 2.0, 3.0])[labels]
X = torch.sin(freqs[:, None] * t[None, :]) + 0.4 * torch.randn(n, length)
X = X.unsqueeze(1)
print(X.shape, torch.bincount(labels))


class FCN(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.blocks = nn.Sequential(
            nn.Conv1d(1, 8, 7, padding=3, bias=False), nn.BatchNorm1d(8), nn.ReLU(),
            nn.Conv1d(8, 8, 5, padding=4, dilation=2, bias=False), nn.BatchNorm1d(8), nn.ReLU(),
            nn.Conv1d(8, 8, 3, padding="same", bias=False), nn.BatchNorm1d(8), nn.ReLU(),
        )
        self.gap = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        return self.fc(self.gap(self.blocks(x)).squeeze(-1))


model = FCN()
print(model.blocks[3], sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
train, test = torch.arange(90), torch.arange(90, 120)
for epoch in range(5):
    model.train()
    perm = train[torch.randperm(len(train))]
    for b in perm.split(18):
        loss = nn.functional.cross_entropy(model(X[b]), labels[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}")

model.eval()
with torch.no_grad():
    pred = model(X[test]).argmax(1)
conf = torch.zeros(3, 3, dtype=torch.long)
for a, p in zip(labels[test], pred):
    conf[a, p] += 1
print(conf)
precision = conf.diag() / conf.sum(0).clamp(min=1)
recall = conf.diag() / conf.sum(1).clamp(min=1)
print(precision, recall, (pred == labels[test]).float().mean())
print(model.blocks[1].running_mean, model.blocks[1].num_batches_tracked)
