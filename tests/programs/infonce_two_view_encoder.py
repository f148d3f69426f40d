# Models: contrastive representation learning with InfoNCE / NT-Xent (SimCLR-style) on toy
# vectors: two random augmentations (noise + feature dropout masks), a projection head,
# L2-normalised embeddings, similarity matrix with the diagonal masked by masked_fill, labels
# built with torch.arange, temperature scaling, top-1 retrieval accuracy, and alignment /
# uniformity metrics.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D = 16, 8
protos = torch.randn(4, D)
data = protos.repeat_interleave(4, 0) + 0.3 * torch.randn(N, D)
classes = torch.arange(4).repeat_interleave(4)


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.1 * torch.randn_like(x)


encoder = nn.Sequential(nn.Linear(D, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 16))
head = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))
opt = torch.optim.AdamW(
    list(encoder.parameters()) + list(head.parameters()), lr=3e-3, weight_decay=1e-4
)


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    n = z1.size(0)
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets), sim


def info_nce(q, k, tau=0.1):
    q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)
    logits = q @ k.T / tau
    labels = torch.arange(q.size(0))
    return F.cross_entropy(logits, labels), (logits.argmax(1) == labels).float().mean()


for step in range(30):
    x1, x2 = augment(data), augment(data)
    z1, z2 = head(encoder(x1)), head(encoder(x2))
    loss, sim = nt_xent(z1, z2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0:
        l2, acc = info_nce(z1.detach(), z2.detach())
        print(
            f"step {step:2d} nt-xent {loss.item():.4f} infonce {l2.item():.4f} top1 "
            f"{acc.item():.3f}"
        )

encoder.eval()
with torch.no_grad():
    e1 = F.normalize(encoder(augment(data)), dim=1)
    e2 = F.normalize(encoder(augment(data)), dim=1)
    align = (e1 - e2).norm(dim=1).pow(2).mean()
    uniform = torch.pdist(e1, p=2).pow(2).mul(-2).exp().mean().log()
    print(f"alignment {align.item():.4f} uniformity {uniform.item():.4f}")
    sim = e1 @ e1.T
    sim.fill_diagonal_(-2)
    nn_idx = sim.argmax(1)
    print("nearest neighbour class agreement", (classes[nn_idx] == classes).float().mean().item())
    print("inf entries masked:", torch.isinf(nt_xent(z1, z2)[1]).sum().item())
