# Models: sequential recommendation (SASRec / BERT4Rec style): user histories left-padded to a
# fixed length, item and learned position embeddings, nn.TransformerEncoder with a causal mask
# and a key-padding mask, next-item training with one sampled negative per position (BCE on
# dot-product scores), and leave-one-out evaluation with HR@10 and NDCG@10 over 100 sampled
# candidates.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, MAX_LEN, D = 64, 50, 12, 32
# each user walks through items with a user-specific stride, so the next item is predictable
seqs = []
for u in range(N_USERS):
    length = int(torch.randint(6, MAX_LEN + 2, ()))
    start, stride = int(torch.randint(1, N_ITEMS + 1, ())), u % 3 + 1
    seqs.append([(start - 1 + stride * i) % N_ITEMS + 1 for i in range(length)])
print("users", N_USERS, "items", N_ITEMS, "mean length", sum(map(len, seqs)) / N_USERS)


def left_pad(seq, n):
    seq = seq[-n:]
    return [0] * (n - len(seq)) + seq


train_in = torch.tensor([left_pad(s[:-2], MAX_LEN) for s in seqs])
train_pos = torch.tensor([left_pad(s[1:-1], MAX_LEN) for s in seqs])
test_in = torch.tensor([left_pad(s[:-1], MAX_LEN) for s in seqs])
test_target = torch.tensor([s[-1] for s in seqs])
print("padded batch:\n", train_in[:3])


class SASRec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item = nn.Embedding(N_ITEMS + 1, D, padding_idx=0)
        self.pos = nn.Embedding(MAX_LEN, D)
        layer = nn.TransformerEncoderLayer(D, 2, 64, dropout=0.2, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D)
        self.drop = nn.Dropout(0.2)

    def forward(self, seq):
        x = self.item(seq) * math.sqrt(D) + self.pos(torch.arange(seq.shape[1]))
        x = self.drop(x) * (seq != 0).unsqueeze(-1)
        causal = nn.Transformer.generate_square_subsequent_mask(seq.shape[1])
        pad = seq == 0
        pad[:, -1] = False
        pad_mask = pad.float().masked_fill(pad, float("-inf"))
        h = self.encoder(x, mask=causal, src_key_padding_mask=pad_mask)
        return self.norm(h)


model = SASRec()
opt = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.98))
gen = torch.Generator().manual_seed(1)
for epoch in range(20):
    model.train()
    h = model(train_in)
    neg = torch.randint(1, N_ITEMS + 1, train_pos.shape, generator=gen)
    pos_logit = (h * model.item(train_pos)).sum(-1)
    neg_logit = (h * model.item(neg)).sum(-1)
    valid = train_pos != 0
    loss = (F.binary_cross_entropy_with_logits(pos_logit[valid], torch.ones(int(valid.sum())))
            + F.binary_cross_entropy_with_logits(neg_logit[valid], torch.zeros(int(valid.sum()))))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    h = model(test_in)[:, -1]
    cands = torch.randint(1, N_ITEMS + 1, (N_USERS, 100), generator=gen)
    cands[:, 0] = test_target
    scores = (model.item(cands) * h[:, None]).sum(-1)
    rank = (scores > scores[:, :1]).sum(1)
    hit = (rank < 10).float()
    ndcg = torch.where(rank < 10, 1 / torch.log2(rank.float() + 2), torch.zeros(()))
print(f"HR@10 {hit.mean():.4f} NDCG@10 {ndcg.mean():.4f}")
print("ranks of first 10 users:", rank[:10])
print("top-3 next items for user 0:", (model.item.weight[1:] @ h[0]).topk(3).indices + 1,
      "true", test_target[0].item())
