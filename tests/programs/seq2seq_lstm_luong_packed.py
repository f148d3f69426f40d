# Models: a seq2seq "reverse the sequence" model with an LSTM encoder over packed padded
# sequences (pack_padded_sequence(enforce_sorted=False) / pad_packed_sequence), Luong "general"
# attention with a source-padding mask, teacher forcing with a seeded coin flip, masked NLL
# loss (ignore_index), and greedy decoding with attention weights printed.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
random.seed(0)
PAD, SOS, EOS = 0, 1, 2
V = 10


def make_batch(n):
    lens = torch.randint(3, 7, (n,))
    srcs = [torch.randint(3, V, (int(length),)) for length in lens]
    tgts = [torch.cat([s.flip(0), torch.tensor([EOS])]) for s in srcs]
    return pad_sequence(srcs, batch_first=True), lens, pad_sequence(tgts, batch_first=True)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.rnn = nn.LSTM(16, 32, batch_first=True)

    def forward(self, src, lens):
        packed = pack_padded_sequence(self.emb(src), lens, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.rnn(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        return out, (h, c), out_lens


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.cell = nn.LSTMCell(16, 32)
        self.W = nn.Linear(32, 32, bias=False)
        self.concat = nn.Linear(64, 32)
        self.out = nn.Linear(32, V)

    def forward(self, tok, state, enc, mask):
        h, c = self.cell(self.emb(tok), state)
        scores = torch.bmm(self.W(enc), h.unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(~mask, float("-inf"))
        attn = F.softmax(scores, dim=1)
        ctx = torch.bmm(attn.unsqueeze(1), enc).squeeze(1)
        o = torch.tanh(self.concat(torch.cat([h, ctx], 1)))
        return F.log_softmax(self.out(o), -1), (h, c), attn


enc, dec = Encoder(), Decoder()
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
for step in range(60):
    src, lens, tgt = make_batch(16)
    mask = src != PAD
    out, (h, c), out_lens = enc(src, lens)
    state = (h[0], c[0])
    tok = torch.full((16,), SOS)
    loss = 0.0
    for t in range(tgt.size(1)):
        logp, state, _ = dec(tok, state, out, mask)
        loss = loss + F.nll_loss(logp, tgt[:, t], ignore_index=PAD)
        tok = tgt[:, t] if random.random() < 0.5 else logp.argmax(1)
    loss = loss / tgt.size(1)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
    opt.step()
    if step % 15 == 0:
        print(f"step {step} loss {loss.item():.4f} lens {out_lens.tolist()[:4]}")

with torch.no_grad():
    src, lens, tgt = make_batch(2)
    out, (h, c), _ = enc(src, lens)
    state = (h[0], c[0])
    tok = torch.full((2,), SOS)
    preds, attns = [], []
    for t in range(tgt.size(1)):
        logp, state, attn = dec(tok, state, out, src != PAD)
        tok = logp.argmax(1)
        preds.append(tok)
        attns.append(attn[0])
    print("src ", src.tolist())
    print("tgt ", tgt.tolist())
    print("pred", torch.stack(preds, 1).tolist())
    print(torch.stack(attns)[:3])
    packed = pack_padded_sequence(
        src.unsqueeze(-1).float(), lens, batch_first=True, enforce_sorted=False
    )
    print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
