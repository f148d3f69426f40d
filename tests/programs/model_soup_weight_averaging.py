# Models: "model soups" / checkpoint averaging scripts: fine-tune copies from one init with
# different seeds and learning rates, uniform soup by averaging state_dicts (skipping integer
# buffers like num_batches_tracked), greedy soup ordered by held-out accuracy.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(120, 5)
w_true = torch.randn(5, 3)
y = (X @ w_true + 0.3 * torch.randn(120, 3)).argmax(1)
Xtr, ytr, Xva, yva = X[:80], y[:80], X[80:], y[80:]
base = nn.Sequential(nn.Linear(5, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))


def finetune(seed, lr):
    torch.manual_seed(seed)
    m = copy.deepcopy(base)
    opt = torch.optim.SGD(m.parameters(), lr=lr, momentum=0.9)
    for ep in range(15):
        perm = torch.randperm(80)
        for i in range(0, 80, 20):
            idx = perm[i : i + 20]
            loss = F.cross_entropy(m(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return m.state_dict()


@torch.no_grad()
def accuracy(sd):
    m = copy.deepcopy(base)
    m.load_state_dict(sd)
    m.eval()
    return (m(Xva).argmax(1) == yva).float().mean().item()


def average(sds):
    out = {}
    for k in sds[0]:
        if sds[0][k].is_floating_point():
            out[k] = torch.stack([sd[k] for sd in sds]).mean(0)
        else:
            out[k] = sds[0][k].clone()
    return out


ingredients = [finetune(s, lr) for s, lr in [(1, 0.05), (2, 0.1), (3, 0.02), (4, 0.08)]]
accs = [accuracy(sd) for sd in ingredients]
print("individual", [round(a, 4) for a in accs])
uniform = average(ingredients)
print("uniform soup", round(accuracy(uniform), 4))
print(uniform["1.num_batches_tracked"], uniform["1.running_mean"][:3])
order = sorted(range(4), key=lambda i: -accs[i])
print("order", order)
soup = [ingredients[order[0]]]
best = accs[order[0]]
for i in order[1:]:
    cand = average(soup + [ingredients[i]])
    a = accuracy(cand)
    if a >= best:
        soup.append(ingredients[i])
        best = a
    print(i, round(a, 4), len(soup))
print("greedy soup", round(best, 4), len(soup))
print({k: v.dtype for k, v in uniform.items() if not v.is_floating_point()})
