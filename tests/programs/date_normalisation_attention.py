# Models: a character-level seq2seq translator that normalises written dates ("3 march 1998" ->
# "1998-03-03"): GRU encoder, Luong general attention decoder with teacher forcing, greedy
# decoding, exact-match accuracy and the attention matrix of one example.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
months = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def sample():
    y, m, d = random.randint(1950, 2029), random.randint(1, 12), random.randint(1, 28)
    style = random.randint(0, 2)
    if style == 0:
        src = f"{d} {months[m - 1]} {y}"
    elif style == 1:
        src = f"{months[m - 1][:3]} {d}, {y}"
    else:
        src = f"{d:02d}/{m:02d}/{y}"
    return src, f"{y}-{m:02d}-{d:02d}"


pairs = [sample() for _ in range(300)]
print(pairs[:3])
src_chars = sorted({c for s, _ in pairs for c in s})
tgt_chars = sorted({c for _, t in pairs for c in t})
PAD, SOS, EOS = 0, 1, 2
s2i = {c: i + 1 for i, c in enumerate(src_chars)}
t2i = {c: i + 3 for i, c in enumerate(tgt_chars)}
i2t = {i: c for c, i in t2i.items()}
max_src = max(len(s) for s, _ in pairs)
print("source vocab", len(s2i) + 1, "target vocab", len(t2i) + 3, "max source length", max_src)


def encode_batch(batch):
    S = torch.zeros(len(batch), max_src, dtype=torch.long)
    T = torch.zeros(len(batch), 12, dtype=torch.long)
    for i, (s, t) in enumerate(batch):
        S[i, : len(s)] = torch.tensor([s2i[c] for c in s])
        T[i, 0] = SOS
        T[i, 1:11] = torch.tensor([t2i[c] for c in t])
        T[i, 11] = EOS
    return S, T


class Seq2Seq(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.src_emb = nn.Embedding(len(s2i) + 1, 16, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(len(t2i) + 3, 16)
        self.enc = nn.GRU(16, hid, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hid, hid)
        self.dec = nn.GRUCell(16, hid)
        self.attn = nn.Linear(2 * hid, hid, bias=False)
        self.out = nn.Linear(hid + 2 * hid, len(t2i) + 3)

    def forward(self, S, T_in):
        mem, _ = self.enc(self.src_emb(S))
        mask = S != PAD
        h = torch.tanh(
            self.bridge(mem.masked_fill(~mask[..., None], 0).sum(1) / mask.sum(1, keepdim=True))
        )
        keys = self.attn(mem)
        logits, attns = [], []
        for t in range(T_in.shape[1]):
            h = self.dec(self.tgt_emb(T_in[:, t]), h)
            scores = (keys @ h.unsqueeze(-1)).squeeze(-1).masked_fill(~mask, float("-inf"))
            a = F.softmax(scores, -1)
            ctx = (a.unsqueeze(-1) * mem).sum(1)
            logits.append(self.out(torch.cat([h, ctx], -1)))
            attns.append(a)
        return torch.stack(logits, 1), torch.stack(attns, 1)

    @torch.no_grad()
    def greedy(self, S, steps=11):
        tok = torch.full((S.shape[0], 1), SOS)
        for _ in range(steps):
            logits, attn = self(S, tok)
            tok = torch.cat([tok, logits[:, -1].argmax(-1, keepdim=True)], 1)
        return tok[:, 1:], attn


train, test = pairs[:240], pairs[240:]
S_tr, T_tr = encode_batch(train)
S_te, T_te = encode_batch(test)
model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    perm = torch.randperm(len(train))
    total = 0.0
    for i in range(0, len(train), 40):
        idx = perm[i : i + 40]
        logits, _ = model(S_tr[idx], T_tr[idx, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), T_tr[idx, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / 6:.4f}")
pred, attn = model.greedy(S_te)
decoded = ["".join(i2t.get(int(c), "?") for c in row[:10]) for row in pred]
exact = sum(d == t for d, (_, t) in zip(decoded, test))
char_acc = (pred[:, :10] == T_te[:, 1:11]).float().mean().item()
print(f"exact match {exact}/{len(test)} char accuracy {char_acc:.4f}")
for (s, t), d in list(zip(test, decoded))[:4]:
    print(f"{s!r:22} -> {d} (want {t})")
torch.set_printoptions(precision=2, linewidth=150)
print("attention of example 0 (rows: output chars)\n", attn[0, :4, : len(test[0][0])])
