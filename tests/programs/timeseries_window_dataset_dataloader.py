# Models: a PyTorch Dataset for sliding windows over a multivariate series (forecasting
# tutorials): __getitem__ returning (past, future) pairs, train/val split by time, a seeded
# shuffled DataLoader, per-feature standardisation fitted on the train part only.
import torch
from torch.utils.data import DataLoader, Dataset, Subset


class WindowDataset(Dataset):
    def __init__(self, data, lookback, horizon, stride=1):
        self.data, self.lookback, self.horizon, self.stride = data, lookback, horizon, stride

    def __len__(self):
        return (len(self.data) - self.lookback - self.horizon) // self.stride + 1

    def __getitem__(self, i):
        s = i * self.stride
        x = self.data[s : s + self.lookback]
        y = self.data[s + self.lookback : s + self.lookback + self.horizon, 0]
        return x, y


torch.manual_seed(0)
t = torch.arange(100, dtype=torch.float32)
data = torch.stack([torch.sin(t / 5) * 10 + 50, torch.cos(t / 7) + t / 50, torch.randn(100)], 1)
split = 70
mean, std = data[:split].mean(0), data[:split].std(0)
print(mean, std)
norm = (data - mean) / std
ds = WindowDataset(norm, lookback=12, horizon=4, stride=2)
print(len(ds))
train_idx = [i for i in range(len(ds)) if i * 2 + 12 + 4 <= split]
val_idx = [i for i in range(len(ds)) if i * 2 >= split - 12]
print(len(train_idx), len(val_idx), train_idx[-1], val_idx[0])
g = torch.Generator().manual_seed(42)
dl = DataLoader(Subset(ds, train_idx), batch_size=8, shuffle=True, generator=g, drop_last=True)
for xb, yb in dl:
    print(xb.shape, yb.shape, f"{xb.mean().item():.5f}")
vl = DataLoader(Subset(ds, val_idx), batch_size=16)
xb, yb = next(iter(vl))
print(xb.shape, yb[0])
naive = xb[:, -1:, 0].expand(-1, 4)
print("naive mae", (naive - yb).abs().mean().item())
print(ds[0][0][:2], ds[0][1])
