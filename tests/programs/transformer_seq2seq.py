# Models: the "language translation with nn.Transformer" tutorial in miniature (token and
# sinusoidal positional embeddings, nn.Transformer with causal and padding masks,
# CrossEntropyLoss with ignore_index, greedy decoding) on a toy reverse-the-sequence task.
import math

import torch
import torch.nn as nn

torch.manual_seed(5)
PAD, BOS, EOS, V = 0, 1, 2, 12


def batch(n, L=5):
    src = torch.randint(3, V, (n, L))
    tgt = torch.cat([torch.full((n, 1), BOS), src.flip(1), torch.full((n, 1), EOS)], 1)
    src = torch.cat([src, torch.full((n, 1), PAD)], 1)
    return src, tgt


class PositionalEncoding(nn.Module):
    def __init__(self, d, max_len=32):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, d)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Seq2Seq(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(V, d, padding_idx=PAD)
        self.pos = PositionalEncoding(d)
        self.tf = nn.Transformer(d, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                 dim_feedforward=64, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, V)
        self.d = d

    def forward(self, src, tgt):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        h = self.tf(self.pos(self.emb(src) * math.sqrt(self.d)),
                    self.pos(self.emb(tgt) * math.sqrt(self.d)), tgt_mask=mask,
                    src_key_padding_mask=src == PAD, tgt_key_padding_mask=tgt == PAD,
                    memory_key_padding_mask=src == PAD)
        return self.out(h)


model = Seq2Seq()
print(nn.Transformer.generate_square_subsequent_mask(4))
crit = nn.CrossEntropyLoss(ignore_index=PAD)
opt = torch.optim.Adam(model.parameters(), lr=2e-3, betas=(0.9, 0.98), eps=1e-9)
for step in range(40):
    src, tgt = batch(32)
    logits = model(src, tgt[:, :-1])
    loss = crit(logits.reshape(-1, V), tgt[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.4f}")
model.eval()
src, tgt = batch(3)
ys = torch.full((3, 1), BOS)
with torch.no_grad():
    for _ in range(6):
        nxt = model(src, ys)[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], 1)
print(src)
print(ys)
