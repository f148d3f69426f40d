# Models: Dive into Deep Learning's "Sequence Models" section: a noisy sine series, features
# built from tau lagged values, an MLP trained with MSE, one-step-ahead versus multi-step
# predictions fed back on themselves, and k-step-ahead prediction matrices; plus the
# "Language Models" section's random and sequential minibatch partitioning.
import random

import torch
from torch import nn

torch.manual_seed(0)
random.seed(0)
T = 400
time = torch.arange(1, T + 1, dtype=torch.float32)
x = torch.sin(0.01 * time) + torch.normal(0, 0.2, (T,))
tau = 4
features = torch.zeros((T - tau, tau))
for i in range(tau):
    features[:, i] = x[i: T - tau + i]
labels = x[tau:].reshape((-1, 1))
batch_size, n_train = 16, 300
print(features.shape, labels.shape, features[:2])


def init_weights(m):
    if type(m) is nn.Linear:
        nn.init.xavier_uniform_(m.weight)


def get_net():
    net = nn.Sequential(nn.Linear(4, 10), nn.ReLU(), nn.Linear(10, 1))
    net.apply(init_weights)
    return net


loss = nn.MSELoss(reduction="none")
net = get_net()
trainer = torch.optim.Adam(net.parameters(), 0.01)
dataset = torch.utils.data.TensorDataset(features[:n_train], labels[:n_train])
train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
for epoch in range(5):
    for X, y in train_iter:
        trainer.zero_grad()
        l = loss(net(X), y)
        l.sum().backward()
        trainer.step()
    with torch.no_grad():
        metric = loss(net(features[:n_train]), labels[:n_train]).sum() / n_train
    print(f"epoch {epoch + 1}, loss: {metric.item():f}")

with torch.no_grad():
    onestep_preds = net(features)
    print("one-step error:", ((onestep_preds - labels) ** 2).mean().item())
    multistep_preds = torch.zeros(T)
    multistep_preds[: n_train + tau] = x[: n_train + tau]
    for i in range(n_train + tau, T):
        multistep_preds[i] = net(multistep_preds[i - tau:i].reshape((1, -1))).squeeze()
    print("multi-step tail:", multistep_preds[-5:])
    max_steps = 64
    features = torch.zeros((T - tau - max_steps + 1, tau + max_steps))
    for i in range(tau):
        features[:, i] = x[i: i + T - tau - max_steps + 1]
    for i in range(tau, tau + max_steps):
        features[:, i] = net(features[:, i - tau:i]).reshape(-1)
    for step in (1, 4, 16, 64):
        err = ((features[:, tau + step - 1] - x[tau + step - 1: T - max_steps + step]) ** 2).mean()
        print(f"{step}-step ahead mse {err.item():.6f}")


def seq_data_iter_random(corpus, batch_size, num_steps):
    corpus = corpus[random.randint(0, num_steps - 1):]
    num_subseqs = (len(corpus) - 1) // num_steps
    initial_indices = list(range(0, num_subseqs * num_steps, num_steps))
    random.shuffle(initial_indices)

    def data(pos):
        return corpus[pos: pos + num_steps]

    num_batches = num_subseqs // batch_size
    for i in range(0, batch_size * num_batches, batch_size):
        initial_indices_per_batch = initial_indices[i: i + batch_size]
        X = [data(j) for j in initial_indices_per_batch]
        Y = [data(j + 1) for j in initial_indices_per_batch]
        yield torch.tensor(X), torch.tensor(Y)


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = random.randint(0, num_steps)
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = torch.tensor(corpus[offset: offset + num_tokens])
    Ys = torch.tensor(corpus[offset + 1: offset + 1 + num_tokens])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


my_seq = list(range(35))
for X, Y in seq_data_iter_random(my_seq, batch_size=2, num_steps=5):
    print("X: ", X, "\nY:", Y)
for X, Y in seq_data_iter_sequential(my_seq, batch_size=2, num_steps=5):
    print("X: ", X, "\nY:", Y)
