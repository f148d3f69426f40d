# Models: a metric-learning cheat sheet: MarginRankingLoss, CosineEmbeddingLoss,
# HingeEmbeddingLoss, TripletMarginLoss and TripletMarginWithDistanceLoss (custom distance,
# swap), MultiLabelMarginLoss, MultiMarginLoss with p and weights, PoissonNLLLoss and
# GaussianNLLLoss, each with reduction none and its gradient.
import torch
import torch.nn as nn

torch.manual_seed(21)
x1, x2 = torch.randn(5, requires_grad=True), torch.randn(5)
y = torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0])
print("margin ranking", nn.MarginRankingLoss(margin=0.2, reduction="none")(x1, x2, y))
l = nn.MarginRankingLoss(0.2)(x1, x2, y)
l.backward()
print(l, x1.grad, l.grad_fn.name())
a, b = torch.randn(4, 6), torch.randn(4, 6)
t = torch.tensor([1, -1, 1, -1])
print("cosine emb", nn.CosineEmbeddingLoss(margin=0.1, reduction="none")(a, b, t))
print("hinge emb", nn.HingeEmbeddingLoss(margin=1.5, reduction="none")(x2.abs(), y))
anc, pos, neg = (torch.randn(3, 8, requires_grad=True) for _ in range(3))
print("triplet", nn.TripletMarginLoss(margin=1.0, p=2)(anc, pos, neg))
print("triplet swap none", nn.TripletMarginLoss(swap=True, reduction="none")(anc, pos, neg))
cos_d = lambda u, v: 1 - nn.functional.cosine_similarity(u, v)  # noqa: E731
twd = nn.TripletMarginWithDistanceLoss(distance_function=cos_d, margin=0.5)
lt = twd(anc, pos, neg)
lt.backward()
print("triplet cosine", lt, anc.grad[0])
inp = torch.randn(2, 4)
ml_t = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]])
print("multilabel margin", nn.MultiLabelMarginLoss(reduction="none")(inp, ml_t))
scores = torch.randn(3, 4, requires_grad=True)
cls = torch.tensor([0, 3, 1])
mm = nn.MultiMarginLoss(p=2, margin=0.8, weight=torch.tensor([1.0, 2.0, 0.5, 1.0]))
lm = mm(scores, cls)
lm.backward()
print("multi margin", lm, scores.grad)
rate_log = torch.randn(6, requires_grad=True)
counts = torch.tensor([0.0, 1.0, 3.0, 2.0, 0.0, 5.0])
print("poisson", nn.PoissonNLLLoss()(rate_log, counts))
print("poisson full", nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")(
    rate_log.exp(), counts))
mu, var = torch.randn(4, 2), torch.rand(4, 2) + 0.1
tgt = torch.randn(4, 2)
print("gaussian nll", nn.GaussianNLLLoss()(mu, tgt, var))
print("gaussian nll full none", nn.GaussianNLLLoss(full=True, reduction="none")(mu, tgt, var))
print("gaussian homoscedastic", nn.GaussianNLLLoss()(mu, tgt, torch.ones(4, 1)))
try:
    nn.GaussianNLLLoss()(mu, tgt, -var)
except ValueError as e:
    print("ValueError:", e)
