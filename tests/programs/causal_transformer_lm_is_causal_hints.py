# Models: a decoder-only language model built from nn.TransformerEncoderLayer the way recent
# tutorials do it: passing mask=generate_square_subsequent_mask with is_causal=True, a key
# padding mask, norm_first layers, tied embeddings, a few steps of training and perplexity.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, D, T = 20, 16, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.zeros(1, T, D))
        layer = nn.TransformerEncoderLayer(D, 2, 32, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(D)
        self.head = nn.Linear(D, V, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx, pad_mask=None):
        t = idx.size(1)
        x = self.tok(idx) + self.pos[:, :t]
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        x = self.blocks(x, mask=mask, is_causal=True, src_key_padding_mask=pad_mask)
        return self.head(self.ln(x))


model = TinyLM()
print(sum(p.numel() for p in model.parameters()), model.head.weight is model.tok.weight)
data = torch.randint(1, V, (6, T + 1))
data[4:, -3:] = 0
x, y = data[:, :-1], data[:, 1:].clone()
pad = x == 0
y[y == 0] = -100
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for it in range(10):
    logits = model(x, pad)
    loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"it {it} loss {loss.item():.5f} ppl {math.exp(loss.item()):.3f}")
model.eval()
with torch.no_grad():
    a = model(x[:1, :5])
    b = model(x[:1, :8])[:, :5]
print(torch.allclose(a, b, atol=1e-5))
with torch.no_grad():
    idx = x[:1, :2]
    for _ in range(4):
        nxt = model(idx)[:, -1].argmax(-1, keepdim=True)
        idx = torch.cat([idx, nxt], 1)
print(idx)
