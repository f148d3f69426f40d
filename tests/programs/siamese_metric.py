# Models: a metric-learning tutorial (Siamese embedding net, contrastive loss written by hand,
# TripletMarginLoss and CosineEmbeddingLoss, pairwise_distance/cosine_similarity/cdist
# evaluation, nearest-neighbour retrieval with topk).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
centers = torch.randn(4, 10) * 3
labels = torch.arange(4).repeat_interleave(20)
data = centers[labels] + torch.randn(80, 10)

net = nn.Sequential(nn.Linear(10, 32), nn.PReLU(), nn.Linear(32, 8))


def contrastive(e1, e2, same, margin=2.0):
    d = F.pairwise_distance(e1, e2)
    return torch.mean(same * d.pow(2) + (1 - same) * torch.clamp(margin - d, min=0).pow(2))


triplet = nn.TripletMarginLoss(margin=1.0, p=2)
cosine = nn.CosineEmbeddingLoss(margin=0.2)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
g = torch.Generator().manual_seed(11)
for it in range(40):
    i = torch.randint(0, 80, (32,), generator=g)
    j = torch.randint(0, 80, (32,), generator=g)
    same = (labels[i] == labels[j]).float()
    ea, eb = net(data[i]), net(data[j])
    pos = torch.tensor([torch.nonzero(labels == labels[k]).flatten()[it % 20].item() for k in i])
    neg = (i + 20) % 80
    loss = contrastive(ea, eb, same) + triplet(ea, net(data[pos]), net(data[neg])) \
        + cosine(ea, eb, same * 2 - 1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"iter {it} loss {loss.item():.5f} same {int(same.sum())}")
with torch.no_grad():
    emb = F.normalize(net(data), dim=1)
    sim = emb @ emb.T
    sim.fill_diagonal_(-2)
    vals, nn_idx = sim.topk(3, dim=1)
    print("top-1 retrieval acc", (labels[nn_idx[:, 0]] == labels).float().mean().item())
    print(vals[:3])
    d = torch.cdist(emb[:5], emb[:5])
    print(d)
    print(F.cosine_similarity(emb[:3], emb[3:6]))
    print(torch.argsort(d[0], descending=True), d.max(dim=1))
