# Models: few-shot learning exercises: prototypical networks (episodes sampled with randperm,
# class prototypes as support means, negative squared Euclidean distances as logits) and the
# Reptile meta-learning loop on sine-wave regression (inner SGD on a deepcopy, outer update
# by interpolating parameters with torch.no_grad and lerp_).
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# ---- prototypical networks on synthetic "classes" -------------------------------------------
N_CLASSES_TOTAL, DIM = 12, 10
class_means = torch.randn(N_CLASSES_TOTAL, DIM) * 1.5


def sample_episode(n_way=3, k_shot=4, n_query=5):
    classes = torch.randperm(N_CLASSES_TOTAL)[:n_way]
    support = class_means[classes].unsqueeze(1) + torch.randn(n_way, k_shot, DIM)
    query = class_means[classes].unsqueeze(1) + torch.randn(n_way, n_query, DIM)
    return classes, support, query


# distances are translation invariant: a last-layer bias would get no gradient
encoder = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, 16, bias=False))


def proto_loss(support, query):
    n_way, k_shot, _ = support.shape
    n_query = query.shape[1]
    z_support = encoder(support.reshape(-1, DIM)).view(n_way, k_shot, -1)
    prototypes = z_support.mean(1)
    z_query = encoder(query.reshape(-1, DIM))
    dists = torch.cdist(z_query, prototypes).pow(2)
    log_p_y = F.log_softmax(-dists, dim=1)
    target = torch.arange(n_way).repeat_interleave(n_query)
    loss = F.nll_loss(log_p_y, target)
    acc = (log_p_y.argmax(1) == target).float().mean()
    return loss, acc, prototypes


classes, support, query = sample_episode()
print(
    "episode classes:",
    classes.tolist(),
    "support",
    tuple(support.shape),
    "query",
    tuple(query.shape),
)
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
for episode in range(60):
    _, support, query = sample_episode()
    loss, acc, _ = proto_loss(support, query)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if episode % 20 == 19:
        print(f"episode {episode + 1} loss {loss.item():.4f} acc {acc.item():.3f}")
with torch.no_grad():
    accs = torch.stack([proto_loss(*sample_episode(5, 1, 3)[1:])[1] for _ in range(10)])
    print("5-way 1-shot test accuracy:", accs.mean(), accs.std())
    _, _, protos = proto_loss(*sample_episode()[1:])
    print("prototype norms:", protos.norm(dim=1))

# ---- Reptile on sine waves -------------------------------------------------------------------
torch.manual_seed(1)


def sample_task():
    amplitude = torch.empty(1).uniform_(0.5, 2.0).item()
    phase = torch.empty(1).uniform_(0, math.pi).item()
    return lambda x: amplitude * torch.sin(x + phase)


def make_net():
    return nn.Sequential(
        nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)
    )


meta = make_net()
x_all = torch.linspace(-5, 5, 50).unsqueeze(1)
inner_steps, inner_lr, outer_lr = 5, 0.02, 0.1
for it in range(40):
    task = sample_task()
    learner = copy.deepcopy(meta)
    inner_opt = torch.optim.SGD(learner.parameters(), lr=inner_lr)
    for _ in range(inner_steps):
        idx = torch.randint(0, 50, (10,))
        loss = F.mse_loss(learner(x_all[idx]), task(x_all[idx]))
        inner_opt.zero_grad()
        loss.backward()
        inner_opt.step()
    eps = outer_lr * (1 - it / 40)
    with torch.no_grad():
        for p_meta, p_task in zip(meta.parameters(), learner.parameters()):
            p_meta.lerp_(p_task, eps)
    if it % 10 == 9:
        print(f"reptile iter {it + 1} inner loss {loss.item():.4f} eps {eps:.4f}")

test_task = sample_task()
for name, net in [("meta-init", copy.deepcopy(meta)), ("scratch", make_net())]:
    o = torch.optim.SGD(net.parameters(), lr=inner_lr)
    losses = []
    for k in range(8):
        loss = F.mse_loss(net(x_all[::5]), test_task(x_all[::5]))
        losses.append(round(loss.item(), 4))
        o.zero_grad()
        loss.backward()
        o.step()
    print(name, losses)
print(sum(p.numel() for p in meta.parameters()), meta[0].weight.grad)
