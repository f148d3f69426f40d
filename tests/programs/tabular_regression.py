# Models: a tabular regression script (the "house prices with PyTorch" notebooks): a synthetic
# table with numeric and categorical columns, feature statistics (mean/std, quantiles,
# correlation with the target), standardisation, a Dataset + random_split + DataLoader, an MLP
# with an Embedding for the category, Adam with weight decay, StepLR then ReduceLROnPlateau,
# and an evaluation with RMSE and R^2.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(7)
n = 240
area = torch.rand(n) * 150 + 30
rooms = torch.randint(1, 6, (n,)).float()
age = torch.rand(n) * 50
district = torch.randint(0, 4, (n,))
price = (area * 2.0 + rooms * 10 - age * 0.8 + district.float() * 25
         + torch.randn(n) * 10)

numeric = torch.stack([area, rooms, age], dim=1)
print("means", numeric.mean(0))
print("stds", numeric.std(0))
print("quartiles of area", torch.quantile(area, torch.tensor([0.25, 0.5, 0.75])))
print("median price", torch.median(price).item() > 0)
print("corr with price", torch.corrcoef(torch.cat([numeric.T, price[None]]))[-1, :3])
print("feature covariance\n", torch.cov(numeric.T))
mean, std = numeric.mean(0, keepdim=True), numeric.std(0, keepdim=True)
y_mean, y_std = price.mean(), price.std()


class HousingDataset(Dataset):
    def __init__(self, x, cat, y):
        self.x, self.cat, self.y = x, cat, y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return self.x[idx], self.cat[idx], self.y[idx]


ds = HousingDataset((numeric - mean) / std, district, (price - y_mean) / y_std)
train_ds, val_ds = random_split(ds, [200, 40], generator=torch.Generator().manual_seed(0))
train_dl = DataLoader(train_ds, batch_size=32, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=40)


class TabularNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 3)
        self.net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, cat):
        return self.net(torch.cat([x, self.emb(cat)], dim=1)).squeeze(-1)


model = TabularNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
step = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)
loss_fn = nn.MSELoss()
for epoch in range(12):
    model.train()
    total = 0.0
    for xb, cb, yb in train_dl:
        opt.zero_grad()
        loss = loss_fn(model(xb, cb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    model.eval()
    with torch.no_grad():
        xb, cb, yb = next(iter(val_dl))
        val = loss_fn(model(xb, cb), yb).item()
    if epoch < 6:
        step.step()
    else:
        plateau.step(val)
    print(f"epoch {epoch:2d} train {total / len(train_ds):.4f} val {val:.4f} "
          f"lr {opt.param_groups[0]['lr']:.5f}")

with torch.no_grad():
    xb, cb, yb = next(iter(val_dl))
    pred = model(xb, cb) * y_std + y_mean
    true = yb * y_std + y_mean
    rmse = torch.sqrt(torch.mean((pred - true) ** 2))
    r2 = 1 - ((pred - true) ** 2).sum() / ((true - true.mean()) ** 2).sum()
print(f"RMSE {rmse.item():.3f} R2 {r2.item():.4f}")
print("residual quantiles", torch.quantile(pred - true, torch.tensor([0.1, 0.5, 0.9])))
