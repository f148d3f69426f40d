# Models: sequence-to-sequence code built on nn.Transformer itself (the PyTorch translation
# tutorial pattern): token + sinusoidal positional embeddings scaled by sqrt(d), src/tgt
# padding masks and a causal tgt mask, norm_first and GELU options, the tutorial's
# create_mask helper, greedy decoding with encode / decode split, on a toy task of
# reversing digit strings, and the model's printed structure and parameter count.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD, BOS, EOS, V = 0, 1, 2, 13


class PositionalEncoding(nn.Module):
    def __init__(self, d, maxlen=32):
        super().__init__()
        den = torch.exp(-torch.arange(0, d, 2) * math.log(10000) / d)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pe = torch.zeros(maxlen, d)
        pe[:, 0::2] = torch.sin(pos * den)
        pe[:, 1::2] = torch.cos(pos * den)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, :x.size(1)]


class Seq2Seq(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.d = d
        self.src_emb, self.tgt_emb = nn.Embedding(V, d), nn.Embedding(V, d)
        self.pos = PositionalEncoding(d)
        self.transformer = nn.Transformer(d, 4, 2, 2, 64, dropout=0.0, batch_first=True,
                                          norm_first=True, activation="gelu")
        self.generator = nn.Linear(d, V)

    def encode(self, src, src_pad):
        return self.transformer.encoder(self.pos(self.src_emb(src) * math.sqrt(self.d)),
                                        src_key_padding_mask=src_pad)

    def decode(self, tgt, memory, tgt_mask, tgt_pad=None, mem_pad=None):
        return self.transformer.decoder(self.pos(self.tgt_emb(tgt) * math.sqrt(self.d)),
                                        memory, tgt_mask=tgt_mask,
                                        tgt_key_padding_mask=tgt_pad,
                                        memory_key_padding_mask=mem_pad)

    def forward(self, src, tgt):
        src_pad, tgt_pad, tgt_mask = create_mask(src, tgt)
        mem = self.encode(src, src_pad)
        return self.generator(self.decode(tgt, mem, tgt_mask, tgt_pad, src_pad))


def create_mask(src, tgt):
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.shape[1])
    return src == PAD, tgt == PAD, tgt_mask


def batch(n, g):
    src = torch.full((n, 8), PAD)
    tgt = torch.full((n, 10), PAD)
    for i in range(n):
        L = int(torch.randint(3, 8, (1,), generator=g))
        digits = torch.randint(3, V, (L,), generator=g)
        src[i, :L] = digits
        tgt[i, :L + 2] = torch.cat([torch.tensor([BOS]), digits.flip(0), torch.tensor([EOS])])
    return src, tgt


def greedy(model, src, max_len=10):
    src_pad = src == PAD
    mem = model.encode(src, src_pad)
    ys = torch.full((len(src), 1), BOS)
    for _ in range(max_len - 1):
        mask = nn.Transformer.generate_square_subsequent_mask(ys.shape[1])
        out = model.generator(model.decode(ys, mem, mask, mem_pad=src_pad)[:, -1])
        ys = torch.cat([ys, out.argmax(-1, keepdim=True)], 1)
    return ys


model = Seq2Seq()
print(model.transformer.encoder.layers[0])
print("parameters:", sum(p.numel() for p in model.parameters()))
src, tgt = batch(2, torch.Generator().manual_seed(0))
print("masks:", [m.shape for m in create_mask(src, tgt[:, :-1])])
opt = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.98), eps=1e-9)
g = torch.Generator().manual_seed(1)
for step in range(50):
    src, tgt = batch(16, g)
    logits = model(src, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), tgt[:, 1:].reshape(-1), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.5f}")
model.eval()
src, tgt = batch(6, g)
with torch.no_grad():
    out = greedy(model, src)
for s, t, o in zip(src.tolist()[:3], tgt.tolist()[:3], out.tolist()[:3]):
    print("src", [x for x in s if x], "want", [x for x in t if x], "got", o)
want = [[x for x in t if x] for t in tgt.tolist()]
exact = [o[:len(w)] == w for w, o in zip(want, out.tolist())]
print("exact matches:", sum(exact), "/", len(exact))
