# Models: the torch.optim.swa_utils recipe on a small regression net with BatchNorm:
# AveragedModel for SWA (equal averaging) and EMA (get_ema_multi_avg_fn, use_buffers=True),
# SWALR annealing (cos and linear) after a CosineAnnealingLR phase, update_bn over a loader,
# n_averaged, and comparing losses of the base, SWA and EMA models.
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(96, 3)
y = X[:, :1] * 1.5 - X[:, 1:2] ** 2 + 0.1 * torch.randn(96, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(3, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_start = 6
swa_scheduler = SWALR(opt, swa_lr=0.02, anneal_epochs=2, anneal_strategy="cos")
loss_fn = nn.MSELoss()
for epoch in range(10):
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        ema_model.update_parameters(model)
    if epoch > swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    print(
        f"epoch {epoch} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.5f} n_avg swa "
        f"{swa_model.n_averaged.item()} ema {ema_model.n_averaged.item()}"
    )

print("swa bn before update_bn", swa_model.module[1].running_mean[:3])
update_bn(loader, swa_model)
print("swa bn after update_bn", swa_model.module[1].running_mean[:3])
print(list(swa_model.state_dict().keys())[:3], len(swa_model.state_dict()))
for name, m in [("base", model), ("swa", swa_model), ("ema", ema_model)]:
    m.eval()
    with torch.no_grad():
        print(name, round(loss_fn(m(X), y).item(), 5))

opt2 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
lin = SWALR(opt2, swa_lr=0.1, anneal_epochs=4, anneal_strategy="linear")
lrs = []
for _ in range(6):
    opt2.step()
    lin.step()
    lrs.append(round(opt2.param_groups[0]["lr"], 5))
print("linear anneal", lrs)
avg = AveragedModel(nn.Linear(2, 1), avg_fn=lambda avg, new, n: 0.5 * avg + 0.5 * new)
print(type(avg.module).__name__, avg.n_averaged, avg)
