# Models: the "language modeling with nn.Transformer" tutorial: positional encoding, causal mask,
# label smoothing, gradient clipping, greedy decoding, and perplexity.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
V, D, H, L = 17, 32, 4, 2


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(0)])


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.pos = PositionalEncoding(D)
        layer = nn.TransformerEncoderLayer(D, H, 64, dropout=0.1)
        self.enc = nn.TransformerEncoder(layer, L, enable_nested_tensor=False)
        self.out = nn.Linear(D, V)

    def forward(self, src, mask):
        x = self.pos(self.emb(src) * math.sqrt(D))
        return self.out(self.enc(x, mask))


model = LM()
print(sum(p.numel() for p in model.parameters()))
data = torch.randint(0, V, (200,))


def batchify(d, bsz):
    n = d.size(0) // bsz
    return d[: n * bsz].view(bsz, n).t().contiguous()


train = batchify(data, 4)
crit = nn.CrossEntropyLoss(label_smoothing=0.05)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.95)
bptt = 10
mask = nn.Transformer.generate_square_subsequent_mask(bptt)
print(mask[:3, :3])
for epoch in range(3):
    model.train()
    total = 0.0
    for i in range(0, train.size(0) - 1, bptt):
        seq = min(bptt, train.size(0) - 1 - i)
        x, y = train[i : i + seq], train[i + 1 : i + 1 + seq].reshape(-1)
        out = model(x, mask[:seq, :seq])
        loss = crit(out.view(-1, V), y)
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        total += loss.item()
    sched.step()
    print(
        f"epoch {epoch} loss {total:.4f} ppl {math.exp(total / 5):.3f} "
        f"lr {sched.get_last_lr()[0]:.4f} norm {norm:.4f}"
    )
model.eval()
with torch.no_grad():
    seq = train[:5, :1]
    for _ in range(5):
        m = nn.Transformer.generate_square_subsequent_mask(seq.size(0))
        nxt = model(seq, m)[-1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], 0)
    print(seq.squeeze(1).tolist())
    mha = nn.MultiheadAttention(D, H, batch_first=True)
    q = torch.randn(2, 5, D)
    o, w = mha(q, q, q, key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2))
    print(o.sum(), w.shape, w[0, 0])
    o2, w2 = mha(
        q,
        q,
        q,
        need_weights=True,
        average_attn_weights=False,
        attn_mask=torch.ones(5, 5).tril() == 0,
    )
    print(o2.norm(), w2.shape)
