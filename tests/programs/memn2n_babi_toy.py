# Models: End-To-End Memory Networks (Sukhbaatar et al.) on bAbI-style toy stories: bag-of-
# words sentence embeddings with position encoding, temporal encoding of memory slots,
# three hops with adjacent weight tying (A_{k+1} = C_k), softmax attention over memories,
# linear start (softmax removed for the first epochs), Adam with gradient clipping at 40, and
# per-hop attention printed for a test story.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PEOPLE = ["mary", "john", "sandra", "daniel"]
PLACES = ["kitchen", "garden", "office", "hallway", "bedroom"]
WORDS = ["<pad>", "moved", "to", "the", "where", "is"] + PEOPLE + PLACES
IDX = {w: i for i, w in enumerate(WORDS)}
MEM, SLEN, D, HOPS = 8, 4, 24, 3


def story(g):
    sents, where = [], {}
    for _ in range(int(torch.randint(3, MEM + 1, (1,), generator=g))):
        p = PEOPLE[int(torch.randint(0, 4, (1,), generator=g))]
        l = PLACES[int(torch.randint(0, 5, (1,), generator=g))]
        sents.append([p, "moved", "to", "the"][:2] + [l])
        where[p] = l
    who = list(where)[int(torch.randint(0, len(where), (1,), generator=g))]
    return sents, ["where", "is", who], where[who]


def encode(batch):
    S = torch.zeros(len(batch), MEM, SLEN, dtype=torch.long)
    Q = torch.zeros(len(batch), SLEN, dtype=torch.long)
    A = torch.zeros(len(batch), dtype=torch.long)
    for b, (sents, q, a) in enumerate(batch):
        for i, s in enumerate(sents[-MEM:]):
            S[b, i, :len(s)] = torch.tensor([IDX[w] for w in s])
        Q[b, :3] = torch.tensor([IDX[w] for w in q])
        A[b] = PLACES.index(a)
    return S, Q, A


def position_encoding(J, d):
    j = torch.arange(1, J + 1).float()[:, None]
    k = torch.arange(1, d + 1).float()[None]
    return (1 - j / J) - (k / d) * (1 - 2 * j / J)


class MemN2N(nn.Module):
    def __init__(self):
        super().__init__()
        V = len(WORDS)
        self.embs = nn.ModuleList([nn.Embedding(V, D, padding_idx=0) for _ in range(HOPS + 1)])
        self.T = nn.ParameterList([nn.Parameter(torch.randn(MEM, D) * 0.1)
                                   for _ in range(HOPS + 1)])
        for e in self.embs:
            nn.init.normal_(e.weight, 0, 0.1)
        self.out = nn.Linear(D, len(PLACES), bias=False)
        self.register_buffer("pe", position_encoding(SLEN, D))
        self.linear_start = True

    def embed(self, k, S):
        return (self.embs[k](S) * self.pe).sum(2) + self.T[k]

    def forward(self, S, Q):
        u = (self.embs[0](Q) * self.pe).sum(1)
        present = (S != 0).any(-1)
        attns = []
        for k in range(HOPS):
            m, c = self.embed(k, S), self.embed(k + 1, S)
            scores = torch.einsum("bmd,bd->bm", m, u)
            if self.linear_start:
                p = scores * present
            else:
                p = scores.masked_fill(~present, float("-inf")).softmax(-1)
            attns.append(p)
            u = u + torch.einsum("bm,bmd->bd", p, c)
        return self.out(u), attns


g = torch.Generator().manual_seed(4)
train = encode([story(g) for _ in range(400)])
test = encode([story(g) for _ in range(100)])
model = MemN2N()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(12):
    if epoch == 4:
        model.linear_start = False
    perm = torch.randperm(400, generator=g)
    tot = 0.0
    for i in range(0, 400, 32):
        idx = perm[i:i + 32]
        logits, _ = model(train[0][idx], train[1][idx])
        loss = F.cross_entropy(logits, train[2][idx])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 40.0)
        opt.step()
        tot += loss.item() * len(idx)
    if epoch % 3 == 2:
        with torch.no_grad():
            acc = (model(test[0], test[1])[0].argmax(1) == test[2]).float().mean().item()
        print(f"epoch {epoch} loss {tot / 400:.5f} test acc {acc:.4f}")
with torch.no_grad():
    logits, attns = model(test[0][:1], test[1][:1])
print("question:", [WORDS[i] for i in test[1][0].tolist() if i])
for s in test[0][0]:
    if s.any():
        print("  ", " ".join(WORDS[i] for i in s.tolist() if i))
for k, a in enumerate(attns):
    print(f"hop {k} attention:", a[0])
print("answer:", PLACES[logits.argmax(1).item()], "truth:", PLACES[test[2][0].item()])
