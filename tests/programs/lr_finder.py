# Models: the learning-rate range test (fastai's lr_find / torch-lr-finder): an exponential LR
# sweep over mini-batches with a LambdaLR-free manual param_group update, an exponentially
# smoothed, bias-corrected loss, stopping when the loss diverges, and the steepest-descent pick.
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(7)
X = torch.randn(512, 10)
w_true = torch.randn(10, 1)
y = (X @ w_true + 0.1 * torch.randn(512, 1) > 0).float()

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
initial_state = copy.deepcopy(model.state_dict())
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-5, momentum=0.9)

start_lr, end_lr, num_iter, beta = 1e-5, 10.0, 60, 0.98
mult = (end_lr / start_lr) ** (1 / num_iter)
lr = start_lr
avg_loss, best_loss = 0.0, math.inf
lrs, losses = [], []
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=32,
                                     shuffle=True)
it = iter(loader)
for i in range(1, num_iter + 1):
    try:
        xb, yb = next(it)
    except StopIteration:
        it = iter(loader)
        xb, yb = next(it)
    for group in optimizer.param_groups:
        group["lr"] = lr
    loss = criterion(model(xb), yb)
    avg_loss = beta * avg_loss + (1 - beta) * loss.item()
    smoothed = avg_loss / (1 - beta ** i)
    if i > 1 and smoothed > 4 * best_loss:
        print(f"stopping at iteration {i}, lr {lr:.3e}")
        break
    best_loss = min(best_loss, smoothed)
    lrs.append(lr)
    losses.append(smoothed)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    lr *= mult
    if i % 10 == 0:
        print(f"iter {i:2d} lr {lr:.3e} smoothed loss {smoothed:.5f}")

t_losses = torch.tensor(losses)
grads = t_losses[1:] - t_losses[:-1]
steepest = grads.argmin().item()
print("points", len(lrs), "steepest at", steepest, f"suggested lr {lrs[steepest]:.3e}")
print("min loss", t_losses.min(), "at lr", f"{lrs[t_losses.argmin()]:.3e}")

model.load_state_dict(initial_state)
print(torch.equal(model[0].weight, initial_state["0.weight"]))
opt = torch.optim.SGD(model.parameters(), lr=lrs[steepest], momentum=0.9)
for epoch in range(3):
    for xb, yb in loader:
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = ((model(X) > 0).float() == y).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.4f}")
