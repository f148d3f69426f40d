# Models: a similarity-search tutorial: pdist condensed distances, cdist with p=1, 2, inf and 0,
# compute_mode options, cosine_similarity with broadcasting, pairwise_distance with eps and
# keepdim, F.normalize, and the similarity matrix's top neighbours.
import torch
import torch.nn.functional as F

torch.manual_seed(6)
a = torch.randn(5, 3, dtype=torch.float64)
b = torch.randn(4, 3, dtype=torch.float64)
print("pdist", F.pdist(a))
print("pdist p=1", F.pdist(a, p=1))
for p in [1.0, 2.0, float("inf"), 0.0, 3.0]:
    print("cdist p", p, torch.cdist(a, b, p=p)[0])
d1 = torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist")
d2 = torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist")
print("modes agree", torch.allclose(d1, d2))
print("cosine", F.cosine_similarity(a[:, None], b[None], dim=-1))
print("cosine eps", F.cosine_similarity(torch.zeros(1, 3), torch.ones(1, 3)))
print("pairwise", F.pairwise_distance(a[:4], b), F.pairwise_distance(a[:4], b, keepdim=True).shape)
print("pairwise p1 eps", F.pairwise_distance(a[:4], b, p=1, eps=0.0))
na = F.normalize(a, dim=1)
print("normalize norms", na.norm(dim=1))
print("normalize p=1", F.normalize(a, p=1, dim=0)[0])
sim = na @ F.normalize(b, dim=1).T
print("top neighbour", sim.argmax(1), sim.topk(2, dim=1).indices)
x = a.clone().requires_grad_()
torch.cdist(x, b).sum().backward()
print("cdist grad", x.grad[0])
x.grad = None
F.pdist(x).sum().backward()
print("pdist grad", x.grad[0])
