# Models: self-supervised and metric-learning losses as written in public SimCLR / MoCo /
# triplet-network code -- two augmented views, a projection head, the NT-Xent loss with a
# temperature-scaled cosine-similarity matrix and masked self-similarities, a MoCo-style
# momentum encoder updated under no_grad with a queue of negatives, TripletMarginLoss with
# hard-negative mining via cdist, and CosineEmbeddingLoss / MarginRankingLoss.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D_in = 16, 10
data = torch.randn(N, D_in)


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    mask = (torch.rand_like(x) > 0.1).float()
    return (x + noise) * mask


encoder = nn.Sequential(nn.Linear(D_in, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 16))
projector = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / temperature
    n = z1.shape[0]
    mask = torch.eye(2 * n, dtype=torch.bool)
    sim = sim.masked_fill(mask, float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


opt = torch.optim.SGD(list(encoder.parameters()) + list(projector.parameters()), lr=0.05,
                      momentum=0.9)
for step in range(10):
    v1, v2 = augment(data), augment(data)
    loss = nt_xent(projector(encoder(v1)), projector(encoder(v2)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"simclr step {step} loss {loss.item():.5f}")

with torch.no_grad():
    encoder.eval()
    h = F.normalize(encoder(data), dim=1)
    sims = h @ h.t()
    print("cosine sim matrix diag", sims.diagonal()[:4], "offdiag max",
          sims.masked_fill(torch.eye(N, dtype=torch.bool), -2).max().item() <= 1.0)
    print(F.cosine_similarity(h[:3], h[3:6], dim=1))
encoder.train()

# MoCo: key encoder as an exponential moving average, with a queue
key_encoder = copy.deepcopy(encoder)
for p in key_encoder.parameters():
    p.requires_grad = False
queue = F.normalize(torch.randn(32, 16), dim=1)
m, T = 0.99, 0.2
q_opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
for step in range(4):
    q = F.normalize(encoder(augment(data)), dim=1)
    with torch.no_grad():
        for pq, pk in zip(encoder.parameters(), key_encoder.parameters()):
            pk.data.mul_(m).add_(pq.data, alpha=1 - m)
        k = F.normalize(key_encoder(augment(data)), dim=1)
    l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
    l_neg = torch.einsum("nc,kc->nk", [q, queue.clone().detach()])
    logits = torch.cat([l_pos, l_neg], dim=1) / T
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    loss = F.cross_entropy(logits, labels)
    q_opt.zero_grad()
    loss.backward()
    q_opt.step()
    queue = torch.cat([k, queue], dim=0)[:32]
    print(f"moco step {step} loss {loss.item():.5f} queue {tuple(queue.shape)}")
print("key encoder drift", sum((a - b).abs().sum() for a, b in zip(
    encoder.parameters(), key_encoder.parameters())).item() > 0)

# triplet loss with batch-hard mining
emb = torch.randn(12, 4, requires_grad=True)
labels = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
dist = torch.cdist(emb, emb)
same = labels[:, None] == labels[None, :]
hardest_pos = (dist * same.float()).max(1).values
hardest_neg = dist.masked_fill(same, float("inf")).min(1).values
batch_hard = F.relu(hardest_pos - hardest_neg + 0.3).mean()
batch_hard.backward()
print("batch-hard", batch_hard, emb.grad.abs().sum())
triplet = nn.TripletMarginLoss(margin=1.0, p=2)
a, pz, n = torch.randn(5, 4), torch.randn(5, 4), torch.randn(5, 4)
print("triplet", triplet(a, pz, n), F.triplet_margin_loss(a, pz, n, swap=True))
print("triplet distance fn", nn.TripletMarginWithDistanceLoss(
    distance_function=lambda x, y: 1 - F.cosine_similarity(x, y))(a, pz, n))
print("cosine embedding", nn.CosineEmbeddingLoss(margin=0.2)(a, pz, torch.tensor(
    [1, -1, 1, -1, 1])))
print("margin ranking", nn.MarginRankingLoss(margin=0.1)(a[:, 0], pz[:, 0],
                                                         torch.tensor([1, -1, 1, 1, -1.0])))
print("pairwise", F.pairwise_distance(a, pz), F.pdist(a))
print("hinge", nn.HingeEmbeddingLoss()(dist[0], torch.tensor([1, 1, 1] + [-1] * 9)))
