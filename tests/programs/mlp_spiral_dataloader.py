# Models: an MLP classifier course exercise on the classic 3-arm spiral dataset, trained with
# a shuffled DataLoader and CrossEntropyLoss, evaluated per epoch.
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(12)
N, K = 60, 3
xs, ys = [], []
for k in range(K):
    r = torch.linspace(0.05, 1.0, N)
    t = torch.linspace(k * 4.0, (k + 1) * 4.0, N) + torch.randn(N) * 0.2
    xs.append(torch.stack([r * torch.sin(t), r * torch.cos(t)], dim=1))
    ys.append(torch.full((N,), k, dtype=torch.long))
X, Y = torch.cat(xs), torch.cat(ys)
print(X.shape, Y.shape, Y.bincount())

loader = DataLoader(TensorDataset(X, Y), batch_size=30, shuffle=True)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, K))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
for epoch in range(15):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == Y).float().mean()
    if epoch % 3 == 2:
        print(f"epoch {epoch} loss {total / len(X):.5f} acc {acc:.3f}")
print(model(torch.tensor([[0.0, 0.5], [math.sqrt(0.5), -0.2]])).softmax(-1))
