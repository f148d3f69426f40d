# Models: click-through-rate prediction with a factorization machine (Rendle 2010) and its
# deep variant DeepFM, as in the public CTR tutorials: sparse categorical fields offset into
# one embedding table, the O(kn) pairwise-interaction identity 0.5 * ((sum v)^2 - sum v^2),
# a multi-hot field pooled with EmbeddingBag(mode="sum", per_sample_weights=...) over
# offsets, BCEWithLogitsLoss with pos_weight, and ROC-AUC computed from ranks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
field_dims = [6, 4, 8]          # user bucket, device, ad category
offsets = torch.tensor([0, 6, 10])
n_tags = 10
N = 512
fields = torch.stack([torch.randint(0, d, (N,)) for d in field_dims], 1)
tag_counts = torch.randint(1, 4, (N,))
tags = torch.randint(0, n_tags, (int(tag_counts.sum()),))
tag_offsets = torch.cat([torch.zeros(1, dtype=torch.long), tag_counts.cumsum(0)[:-1]])
tag_weights = torch.rand(len(tags)) + 0.5
true_pair = torch.randn(6, 8)
logit = true_pair[fields[:, 0], fields[:, 2]] + 0.5 * (fields[:, 1] == 2).float() - 1.5
clicks = (torch.rand(N) < torch.sigmoid(logit)).float()
print("CTR", clicks.mean().item(), "tags", len(tags), "first offsets", tag_offsets[:5].tolist())


class FM(nn.Module):
    def __init__(self, k=6, deep=False):
        super().__init__()
        total = sum(field_dims)
        self.linear = nn.Embedding(total, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.v = nn.Embedding(total, k)
        self.tag_v = nn.EmbeddingBag(n_tags, k, mode="sum")
        nn.init.normal_(self.v.weight, std=0.05)
        nn.init.normal_(self.tag_v.weight, std=0.05)
        nn.init.zeros_(self.linear.weight)
        self.deep = (nn.Sequential(nn.Linear(4 * k, 16), nn.ReLU(), nn.Linear(16, 1))
                     if deep else None)

    def forward(self, fields, tags, tag_offsets, tag_weights):
        idx = fields + offsets
        emb = torch.cat([self.v(idx), self.tag_v(tags, tag_offsets,
                                                 per_sample_weights=tag_weights).unsqueeze(1)], 1)
        square_of_sum = emb.sum(1).pow(2)
        sum_of_square = emb.pow(2).sum(1)
        pair = 0.5 * (square_of_sum - sum_of_square).sum(1)
        out = self.bias + self.linear(idx).sum((1, 2)) + pair
        if self.deep is not None:
            out = out + self.deep(emb.flatten(1)).squeeze(1)
        return out


def auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty_like(order)
    ranks[order] = torch.arange(1, len(scores) + 1)
    pos = labels.bool()
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


train, test = torch.arange(0, 384), torch.arange(384, N)


def batch_tags(rows):
    counts = tag_counts[rows]
    starts = tag_offsets[rows]
    flat = torch.cat([torch.arange(s, s + c) for s, c in zip(starts.tolist(), counts.tolist())])
    offs = torch.cat([torch.zeros(1, dtype=torch.long), counts.cumsum(0)[:-1]])
    return tags[flat], offs, tag_weights[flat]


pos_weight = (1 - clicks[train].mean()) / clicks[train].mean()
print("pos_weight", round(pos_weight.item(), 5))
for deep in (False, True):
    torch.manual_seed(1)
    model = FM(deep=deep)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
    crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    for epoch in range(6):
        perm = train[torch.randperm(len(train))]
        for i in range(0, len(perm), 64):
            rows = perm[i:i + 64]
            out = model(fields[rows], *batch_tags(rows))
            loss = crit(out, clicks[rows])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            scores = model(fields[test], *batch_tags(test))
        if epoch % 2 == 1:
            print(f"{'DeepFM' if deep else 'FM'} epoch {epoch} loss {loss.item():.5f} "
                  f"test AUC {auc(scores, clicks[test]):.5f} "
                  f"logloss {F.binary_cross_entropy_with_logits(scores, clicks[test]).item():.5f}")
    touched = int((model.tag_v.weight.grad.abs().sum(1) > 0).sum())
    print("  tag embedding grad rows touched", touched)
