# Models: a continual-learning tutorial (Kirkpatrick et al. 2017, "Overcoming catastrophic
# forgetting"): two permuted tasks, the diagonal empirical Fisher from per-batch squared
# gradients, an EWC penalty anchored at a deepcopy of the old parameters, compared with plain
# fine-tuning and an L2-to-anchor baseline; accuracy matrices printed after each task.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
D, C = 12, 3


def make_task(perm, n=240):
    centers = torch.randn(C, D) * 1.5
    y = torch.randint(0, C, (n,))
    x = centers[y] + torch.randn(n, D)
    return x[:, perm], y


tasks = [make_task(torch.arange(D)), make_task(torch.randperm(D))]
print("task shapes", [tuple(t[0].shape) for t in tasks], "labels",
      [t[1][:6].tolist() for t in tasks])


def net():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C))


def accuracy(model, task):
    with torch.no_grad():
        return (model(task[0]).argmax(1) == task[1]).float().mean().item()


def fisher_diag(model, task, batches=8):
    fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}
    loader = DataLoader(TensorDataset(*task), batch_size=30, shuffle=True,
                        generator=torch.Generator().manual_seed(3))
    model.eval()
    for i, (x, y) in enumerate(loader):
        if i == batches:
            break
        model.zero_grad()
        F.nll_loss(F.log_softmax(model(x), 1), y).backward()
        for n, p in model.named_parameters():
            fisher[n] += p.grad.detach() ** 2 / batches
    model.train()
    return fisher


def train(model, task, penalty=None, epochs=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(TensorDataset(*task), batch_size=40, shuffle=True,
                        generator=torch.Generator().manual_seed(7))
    for epoch in range(epochs):
        total = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            if penalty is not None:
                loss = loss + penalty(model)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
        if epoch % 2 == 0:
            print(f"    epoch {epoch} loss {total / len(task[1]):.5f}")


for method in ["finetune", "l2", "ewc"]:
    print(method)
    model = net()
    train(model, tasks[0])
    row0 = [accuracy(model, t) for t in tasks]
    anchor = {n: p.detach().clone() for n, p in copy.deepcopy(model).named_parameters()}
    fisher = fisher_diag(model, tasks[0])
    if method == "ewc":
        print("  fisher means", {n: round(f.mean().item(), 6) for n, f in fisher.items()})
        lam = 200.0

        def penalty(m, lam=lam, fisher=fisher, anchor=anchor):
            return lam / 2 * sum((fisher[n] * (p - anchor[n]) ** 2).sum()
                                 for n, p in m.named_parameters())
    elif method == "l2":
        def penalty(m, anchor=anchor):
            return 0.5 * sum(((p - anchor[n]) ** 2).sum() for n, p in m.named_parameters())
    else:
        penalty = None
    train(model, tasks[1], penalty)
    row1 = [accuracy(model, t) for t in tasks]
    print("  accuracy matrix", torch.tensor([row0, row1]))
    drift = torch.cat([(p.detach() - anchor[n]).flatten() for n, p in model.named_parameters()])
    print(f"  parameter drift {drift.norm().item():.5f}")
