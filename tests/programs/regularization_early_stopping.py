# Models: the overfitting/regularisation lab of ML courses: polynomial features, an explicit
# L2 penalty versus weight_decay, L1 penalty, a validation split and early stopping with the
# best state_dict kept in memory.
import copy

import torch
import torch.nn as nn

torch.manual_seed(21)
x = torch.rand(60, 1) * 2 - 1
y = torch.sin(3 * x) + 0.1 * torch.randn(60, 1)
feats = torch.cat([x ** k for k in range(1, 9)], dim=1)
tr, va = slice(0, 40), slice(40, 60)


def fit(l2=0.0, wd=0.0, l1=0.0, epochs=150, patience=20):
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=wd)
    best, best_state, wait = float("inf"), None, 0
    for epoch in range(epochs):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(feats[tr]), y[tr])
        if l2:
            loss = loss + l2 * model.weight.pow(2).sum()
        if l1:
            loss = loss + l1 * model.weight.abs().sum()
        loss.backward()
        opt.step()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(feats[va]), y[va]).item()
        if val < best - 1e-5:
            best, best_state, wait = val, copy.deepcopy(model.state_dict()), 0
        else:
            wait += 1
            if wait >= patience:
                break
    model.load_state_dict(best_state)
    return epoch, best, model


for kw in ({}, {"l2": 0.01}, {"wd": 0.02}, {"l1": 0.005}):
    epoch, best, model = fit(**kw)
    print(kw, epoch, f"{best:.6f}", f"{model.weight.norm().item():.6f}")
print(model.weight)
