# Models: the d2l "natural language inference: using attention" chapter on a synthetic SNLI-like
# toy set: the decomposable attention model's Attend (soft alignment with bmm and softmax),
# Compare and Aggregate MLPs, premise/hypothesis padding to fixed length, a three-way
# classifier trained with Adam, accuracy per label, and the attention matrix of one pair.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
words = ["<pad>", "a", "man", "woman", "dog", "cat", "runs", "sleeps", "eats", "is", "not",
         "outside", "inside", "happy", "sad", "the"]
w2i = {w: i for i, w in enumerate(words)}
subjects, verbs = ["man", "woman", "dog", "cat"], ["runs", "sleeps", "eats"]
places = ["outside", "inside"]


def make_pair(g):
    s = subjects[torch.randint(0, 4, (1,), generator=g).item()]
    v = verbs[torch.randint(0, 3, (1,), generator=g).item()]
    p = places[torch.randint(0, 2, (1,), generator=g).item()]
    premise = ["a", s, v, p]
    label = torch.randint(0, 3, (1,), generator=g).item()
    if label == 0:        # entailment
        hyp = ["the", s, v]
    elif label == 1:      # contradiction
        hyp = ["the", s, "is", "not", v] if torch.rand(1, generator=g) < 0.5 else \
            ["a", s, v, places[1 - places.index(p)]]
    else:                 # neutral
        hyp = ["the", s, "is", ["happy", "sad"][torch.randint(0, 2, (1,), generator=g).item()]]
    return premise, hyp, label


def pad(tokens, n=6):
    ids = [w2i[t] for t in tokens][:n]
    return ids + [0] * (n - len(ids))


g = torch.Generator().manual_seed(5)
data = [make_pair(g) for _ in range(300)]
P = torch.tensor([pad(p) for p, _, _ in data])
H = torch.tensor([pad(h) for _, h, _ in data])
Y = torch.tensor([y for _, _, y in data])
print("label counts", torch.bincount(Y).tolist(), "example", data[0])


def mlp(num_inputs, num_hiddens, flatten):
    net = [nn.Dropout(0.2), nn.Linear(num_inputs, num_hiddens), nn.ReLU()]
    if flatten:
        net.append(nn.Flatten(start_dim=1))
    net += [nn.Dropout(0.2), nn.Linear(num_hiddens, num_hiddens), nn.ReLU()]
    if flatten:
        net.append(nn.Flatten(start_dim=1))
    return nn.Sequential(*net)


class Attend(nn.Module):
    def __init__(self, num_inputs, num_hiddens):
        super().__init__()
        self.f = mlp(num_inputs, num_hiddens, flatten=False)

    def forward(self, A, B):
        f_A, f_B = self.f(A), self.f(B)
        e = torch.bmm(f_A, f_B.permute(0, 2, 1))
        beta = torch.bmm(F.softmax(e, dim=-1), B)
        alpha = torch.bmm(F.softmax(e.permute(0, 2, 1), dim=-1), A)
        return beta, alpha, e


class Compare(nn.Module):
    def __init__(self, num_inputs, num_hiddens):
        super().__init__()
        self.g = mlp(num_inputs, num_hiddens, flatten=False)

    def forward(self, A, B, beta, alpha):
        return self.g(torch.cat([A, beta], dim=2)), self.g(torch.cat([B, alpha], dim=2))


class Aggregate(nn.Module):
    def __init__(self, num_inputs, num_hiddens, num_outputs):
        super().__init__()
        self.h = mlp(num_inputs, num_hiddens, flatten=True)
        self.linear = nn.Linear(num_hiddens, num_outputs)

    def forward(self, V_A, V_B):
        return self.linear(self.h(torch.cat([V_A.sum(dim=1), V_B.sum(dim=1)], dim=1)))


class DecomposableAttention(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.attend = Attend(embed_size, num_hiddens)
        self.compare = Compare(embed_size * 2, num_hiddens)
        self.aggregate = Aggregate(num_hiddens * 2, num_hiddens, 3)

    def forward(self, X):
        premises, hypotheses = X
        A, B = self.embedding(premises), self.embedding(hypotheses)
        beta, alpha, self.e = self.attend(A, B)
        V_A, V_B = self.compare(A, B, beta, alpha)
        return self.aggregate(V_A, V_B)


net = DecomposableAttention(len(words), 12, 24)
print(net.aggregate)
opt = torch.optim.Adam(net.parameters(), lr=0.005)
train_idx, test_idx = torch.arange(240), torch.arange(240, 300)
for epoch in range(12):
    net.train()
    perm = train_idx[torch.randperm(240)]
    total = 0.0
    for i in range(0, 240, 30):
        b = perm[i:i + 30]
        loss = F.cross_entropy(net((P[b], H[b])), Y[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 3 == 2:
        net.eval()
        with torch.no_grad():
            pred = net((P[test_idx], H[test_idx])).argmax(1)
        print(f"epoch {epoch + 1} loss {total / 8:.4f} test acc "
              f"{(pred == Y[test_idx]).float().mean().item():.3f}")

net.eval()
with torch.no_grad():
    pred = net((P, H)).argmax(1)
    for c, name in enumerate(["entailment", "contradiction", "neutral"]):
        m = Y == c
        print(f"{name:<13} acc {(pred[m] == c).float().mean().item():.3f}")
    net((P[:1], H[:1]))
    print("alignment scores e[0]:\n", net.e[0, :4, :5])
