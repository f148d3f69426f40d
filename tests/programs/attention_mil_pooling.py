# Models: attention-based deep multiple-instance learning (Ilse et al. 2018, the AMLab
# AttentionDeepMIL repository): bags of a variable number of instances, labelled positive if
# any instance is a "key" instance; an instance encoder, the gated attention
# a_k = softmax(w^T (tanh(V h_k) * sigmoid(U h_k))), padding with pad_sequence and masking
# with -inf before the softmax for batched bags, and which instances the attention picks.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
key = torch.randn(6)


def make_bag():
    n = int(torch.randint(3, 9, ()).item())
    inst = torch.randn(n, 6)
    positive = bool(torch.rand(()) < 0.5)
    where = -1
    if positive:
        where = int(torch.randint(0, n, ()).item())
        inst[where] = key + 0.3 * torch.randn(6)
    return inst, float(positive), where


bags = [make_bag() for _ in range(80)]
print("bag sizes", [len(b[0]) for b in bags[:10]], "positives", sum(b[1] for b in bags))


class GatedAttentionMIL(nn.Module):
    def __init__(self, d=6, h=24, a=12):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(d, h), nn.ReLU())
        self.V = nn.Linear(h, a)
        self.U = nn.Linear(h, a)
        self.w = nn.Linear(a, 1)
        self.cls = nn.Linear(h, 1)

    def forward(self, x, mask):
        h = self.feat(x)
        scores = self.w(torch.tanh(self.V(h)) * torch.sigmoid(self.U(h))).squeeze(-1)
        att = scores.masked_fill(~mask, float("-inf")).softmax(-1)
        z = torch.einsum("bn,bnh->bh", att, h)
        return self.cls(z).squeeze(-1), att


def collate(batch):
    xs = [b[0] for b in batch]
    lengths = torch.tensor([len(x) for x in xs])
    x = pad_sequence(xs, batch_first=True)
    mask = torch.arange(x.shape[1])[None] < lengths[:, None]
    y = torch.tensor([b[1] for b in batch])
    return x, mask, y


model = GatedAttentionMIL()
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-4)
train, test = bags[:60], bags[60:]
for epoch in range(12):
    order = torch.randperm(len(train)).tolist()
    total = 0.0
    for i in range(0, len(order), 10):
        x, mask, y = collate([train[j] for j in order[i:i + 10]])
        logits, att = model(x, mask)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 3 == 2:
        with torch.no_grad():
            x, mask, y = collate(test)
            logits, att = model(x, mask)
            acc = ((logits > 0).float() == y).float().mean().item()
        print(f"epoch {epoch:2d} train loss {total / 6:.5f} test acc {acc:.4f}")

x, mask, y = collate(test)
with torch.no_grad():
    logits, att = model(x, mask)
hits = [int(att[i].argmax()) == test[i][2] for i in range(len(test)) if test[i][1] == 1.0]
print("key instance found by attention", sum(hits), "of", len(hits))
print("attention of first bag", att[0][mask[0]])
print("padded attention is zero", bool((att[~mask] == 0).all()), "rows sum to 1",
      torch.allclose(att.sum(1), torch.ones(len(test))))
single, _ = model(test[0][0].unsqueeze(0), torch.ones(1, len(test[0][0]), dtype=torch.bool))
print("unpadded bag logit equals padded", torch.allclose(single, logits[:1], atol=1e-6))
