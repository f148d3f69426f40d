# Models: a learning-to-rank tutorial (RankNet, LambdaRank and ListNet as in the public
# "learning to rank with PyTorch" notebooks and allRank): query groups of documents with graded
# relevance, a shared MLP scorer, pairwise RankNet loss, nn.MarginRankingLoss, the ListNet
# top-one cross-entropy, LambdaRank's |delta NDCG| pair weights, and NDCG@k / MRR evaluation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
n_queries, docs, feats = 24, 8, 10
w_true = torch.randn(feats)
X = torch.randn(n_queries, docs, feats)
score_true = X @ w_true + 0.5 * torch.randn(n_queries, docs)
rel = torch.bucketize(score_true, torch.tensor([-1.0, 0.5, 1.5, 2.5]))
print("relevance grades", torch.bincount(rel.flatten(), minlength=5), rel[0])


def dcg(gains, k):
    disc = 1.0 / torch.log2(torch.arange(2, gains.shape[-1] + 2, dtype=torch.float32))
    return ((2.0 ** gains[..., :k] - 1) * disc[:k]).sum(-1)


def ndcg_at_k(scores, rel, k=5):
    order = scores.argsort(dim=-1, descending=True)
    ranked = torch.gather(rel.float(), -1, order)
    ideal = rel.float().sort(dim=-1, descending=True).values
    return (dcg(ranked, k) / dcg(ideal, k).clamp(min=1e-10)).mean()


def mrr(scores, rel):
    order = scores.argsort(dim=-1, descending=True)
    ranked = torch.gather(rel, -1, order) >= 3
    first = torch.where(ranked.any(-1), ranked.float().argmax(-1) + 1, torch.zeros(len(rel)))
    return torch.where(first > 0, 1.0 / first.clamp(min=1), torch.zeros_like(first)).mean()


print("random ndcg@5", ndcg_at_k(torch.randn(n_queries, docs), rel).item())
print("oracle ndcg@5", ndcg_at_k(rel.float(), rel).item(), "mrr", mrr(score_true, rel).item())


def ranknet_loss(s, rel):
    diff = s[:, :, None] - s[:, None, :]
    target = (rel[:, :, None] > rel[:, None, :]).float()
    mask = rel[:, :, None] != rel[:, None, :]
    return F.binary_cross_entropy_with_logits(diff[mask], target[mask])


def listnet_loss(s, rel):
    return -(F.softmax(rel.float(), -1) * F.log_softmax(s, -1)).sum(-1).mean()


def lambdarank_loss(s, rel, k=docs):
    order = s.detach().argsort(-1, descending=True)
    ranks = torch.empty_like(order)
    ranks.scatter_(-1, order, torch.arange(docs).expand_as(order))
    disc = 1.0 / torch.log2(ranks.float() + 2)
    gain = 2.0 ** rel.float() - 1
    ideal = dcg(rel.float().sort(-1, descending=True).values, k)[:, None, None]
    delta = (
        (gain[:, :, None] - gain[:, None, :]) * (disc[:, :, None] - disc[:, None, :])
    ).abs() / ideal
    diff = s[:, :, None] - s[:, None, :]
    better = (rel[:, :, None] > rel[:, None, :]).float()
    return (delta * better * F.softplus(-diff)).sum() / better.sum()


margin_loss = nn.MarginRankingLoss(margin=0.5)
for name, loss_fn in [
    ("ranknet", ranknet_loss),
    ("listnet", listnet_loss),
    ("lambdarank", lambdarank_loss),
    ("margin", None),
]:
    torch.manual_seed(1)
    scorer = nn.Sequential(nn.Linear(feats, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(scorer.parameters(), lr=0.01)
    for epoch in range(40):
        s = scorer(X).squeeze(-1)
        if loss_fn is None:
            i, j = torch.triu_indices(docs, docs, 1)
            a, b = s[:, i].flatten(), s[:, j].flatten()
            y = torch.sign(rel[:, i] - rel[:, j]).flatten().float()
            keep = y != 0
            loss = margin_loss(a[keep], b[keep], y[keep])
        else:
            loss = loss_fn(s, rel)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        s = scorer(X).squeeze(-1)
    print(
        f"{name:10s} loss {loss.item():.5f} ndcg@3 {ndcg_at_k(s, rel, 3).item():.4f} "
        f"ndcg@5 {ndcg_at_k(s, rel, 5).item():.4f} mrr {mrr(s, rel).item():.4f}"
    )
print("top docs of query 0", s[0].topk(3).indices, "true", score_true[0].topk(3).indices)
print(
    "pairwise accuracy",
    ((s[:, :, None] > s[:, None, :]) == (rel[:, :, None] > rel[:, None, :]))[
        rel[:, :, None] != rel[:, None, :]
    ]
    .float()
    .mean()
    .item(),
)
