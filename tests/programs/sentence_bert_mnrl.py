# Models: sentence-transformers training code: a bi-encoder (embedding + small transformer
# encoder) with attention-mask-aware mean pooling and L2 normalisation, the
# MultipleNegativesRankingLoss (in-batch negatives, scaled cosine similarities into
# cross-entropy), a CosineSimilarityLoss regression head, and retrieval evaluation with
# recall@k and MRR over a toy paraphrase corpus built from synonym substitutions.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, PAD, D = 40, 0, 32
SYN = {i: i + 20 for i in range(1, 20)}   # token i and i+20 are synonyms


def sentence(g, n):
    return torch.randint(1, 20, (n,), generator=g)


def paraphrase(s, g):
    swap = torch.rand(len(s), generator=g) < 0.5
    out = torch.where(swap, s + 20, s)
    perm = torch.randperm(len(s), generator=g)
    return out[perm] if torch.rand(1, generator=g).item() < 0.3 else out


def pad(batch):
    L = max(len(b) for b in batch)
    ids = torch.full((len(batch), L), PAD)
    for i, b in enumerate(batch):
        ids[i, :len(b)] = b
    return ids, ids != PAD


class BiEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D, padding_idx=PAD)
        layer = nn.TransformerEncoderLayer(D, 4, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)

    def forward(self, ids, mask):
        h = self.enc(self.emb(ids), src_key_padding_mask=~mask)
        m = mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return F.normalize(pooled, dim=-1)


def mnrl(a, b, scale=20.0):
    scores = a @ b.t() * scale
    return F.cross_entropy(scores, torch.arange(len(a)))


g = torch.Generator().manual_seed(5)
model = BiEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
for step in range(60):
    anchors = [sentence(g, int(torch.randint(4, 9, (1,), generator=g))) for _ in range(16)]
    positives = [paraphrase(s, g) for s in anchors]
    ea, eb = model(*pad(anchors)), model(*pad(positives))
    loss = mnrl(ea, eb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 14:
        print(f"step {step + 1} MNRL {loss.item():.5f}")

cos_head = nn.CosineEmbeddingLoss(margin=0.2)
pairs_a = [sentence(g, 6) for _ in range(8)]
pairs_b = [paraphrase(s, g) if i % 2 == 0 else sentence(g, 6) for i, s in enumerate(pairs_a)]
labels = torch.tensor([1.0 if i % 2 == 0 else -1.0 for i in range(8)])
with torch.no_grad():
    ea, eb = model(*pad(pairs_a)), model(*pad(pairs_b))
    print("cosine-embedding loss:", f"{cos_head(ea, eb, labels).item():.5f}")
    print("pair cosines:", F.cosine_similarity(ea, eb))

model.eval()
corpus = [sentence(g, 7) for _ in range(20)]
queries = [paraphrase(s, g) for s in corpus]
with torch.no_grad():
    C, Q = model(*pad(corpus)), model(*pad(queries))
sims = Q @ C.t()
ranks = (sims > sims.diag().unsqueeze(1)).sum(1) + 1
print("ranks:", ranks.tolist())
for k in (1, 3, 5):
    print(f"recall@{k}: {(ranks <= k).float().mean().item():.4f}")
print(f"MRR: {(1.0 / ranks.float()).mean().item():.5f}")
print("top-3 for query 0:", sims[0].topk(3))
