# Models: a federated-learning tutorial (McMahan et al. 2017, FedAvg, Flower-free): clients
# get non-IID shards from a Dirichlet split of the labels, train local copies for a few epochs
# from the global state_dict, and the server averages their state_dicts weighted by sample
# counts; FedProx's proximal term and client drift are compared.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Dirichlet

torch.manual_seed(0)
C, D, CLIENTS = 3, 6, 4
centers = torch.randn(C, D) * 2
y_all = torch.randint(0, C, (600,))
x_all = centers[y_all] + torch.randn(600, D)
x_test, y_test = x_all[500:], y_all[500:]
x_all, y_all = x_all[:500], y_all[:500]

props = Dirichlet(torch.full((CLIENTS,), 0.5)).sample((C,))
print("label proportions per client\n", props)
shards = [[] for _ in range(CLIENTS)]
for c in range(C):
    idx = (y_all == c).nonzero().squeeze(1)
    idx = idx[torch.randperm(len(idx))]
    cuts = (torch.cumsum(props[c], 0) * len(idx)).long()[:-1].tolist()
    for k, part in enumerate(torch.tensor_split(idx, cuts)):
        shards[k].append(part)
shards = [torch.cat(s) for s in shards]
print("client sizes", [len(s) for s in shards])
print("client label counts", [torch.bincount(y_all[s], minlength=C).tolist() for s in shards])


def make_model():
    return nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, C))


def evaluate(model):
    with torch.no_grad():
        logits = model(x_test)
        acc = (logits.argmax(1) == y_test).float().mean().item()
        return F.cross_entropy(logits, y_test).item(), acc


def local_train(global_model, idx, mu=0.0, epochs=2, lr=0.1):
    model = copy.deepcopy(global_model)
    anchor = [p.detach().clone() for p in global_model.parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        perm = idx[torch.randperm(len(idx))]
        for batch in perm.split(16):
            loss = F.cross_entropy(model(x_all[batch]), y_all[batch])
            if mu > 0:
                loss = loss + mu / 2 * sum(((p - a) ** 2).sum()
                                           for p, a in zip(model.parameters(), anchor))
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model.state_dict(), len(idx)


def fed_avg(states):
    total = sum(n for _, n in states)
    avg = {}
    for key in states[0][0]:
        avg[key] = sum(sd[key] * (n / total) for sd, n in states)
    return avg


for mu in (0.0, 0.1):
    torch.manual_seed(1)
    global_model = make_model()
    print(f"--- {'FedProx mu=0.1' if mu else 'FedAvg'} ---")
    for rnd in range(5):
        states = [local_train(global_model, s, mu) for s in shards]
        drift = [sum((sd[k] - global_model.state_dict()[k]).norm() ** 2 for k in sd).sqrt().item()
                 for sd, _ in states]
        global_model.load_state_dict(fed_avg(states))
        loss, acc = evaluate(global_model)
        print(f"round {rnd} test loss {loss:.5f} acc {acc:.3f} drift "
              + " ".join(f"{d:.4f}" for d in drift))
    print("keys", list(global_model.state_dict().keys()))
    print("bias", global_model.state_dict()["2.bias"])
