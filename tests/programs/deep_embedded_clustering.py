# Models: Deep Embedded Clustering (Xie et al. 2016, the public DEC/IDEC re-implementations):
# an autoencoder pretrained on reconstruction, cluster centres initialised by k-means on
# the embeddings, a Student's t soft assignment q, the sharpened target distribution p
# recomputed every few steps, KL(p || q) with F.kl_div(q.log(), p, reduction="batchmean")
# plus IDEC's reconstruction term, and cluster purity against the hidden labels.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
K, D = 3, 10
means = torch.randn(K, 2) * 3
labels = torch.arange(K).repeat_interleave(60)
latent = means[labels] + torch.randn(len(labels), 2) * 1.3
proj = torch.randn(2, D)
X = torch.tanh(latent @ proj) + 0.05 * torch.randn(len(labels), D)
print("data", tuple(X.shape), "labels", torch.bincount(labels).tolist())

enc = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 2))
dec = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, D))
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=5e-3)
for epoch in range(40):
    loss = F.mse_loss(dec(enc(X)), X)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("pretrain reconstruction", round(loss.item(), 6))


def kmeans(z, k, iters=20):
    centres = z[torch.randperm(len(z))[:k]].clone()
    for _ in range(iters):
        assign = torch.cdist(z, centres).argmin(1)
        for j in range(k):
            if (assign == j).any():
                centres[j] = z[assign == j].mean(0)
    return centres, assign


def purity(assign):
    total = 0
    for j in assign.unique():
        total += torch.bincount(labels[assign == j], minlength=K).max().item()
    return total / len(assign)


with torch.no_grad():
    z = enc(X)
    centres, assign = kmeans(z, K)
print("k-means purity", round(purity(assign), 4), "sizes",
      torch.bincount(assign, minlength=K).tolist())
mu = nn.Parameter(centres.clone())


def soft_assign(z, alpha=1.0):
    q = 1.0 / (1.0 + torch.sum((z.unsqueeze(1) - mu) ** 2, 2) / alpha)
    q = q.pow((alpha + 1.0) / 2.0)
    return q / q.sum(1, keepdim=True)


def target_distribution(q):
    weight = q ** 2 / q.sum(0)
    return (weight.t() / weight.sum(1)).t()


opt = torch.optim.SGD(list(enc.parameters()) + list(dec.parameters()) + [mu], lr=0.05,
                      momentum=0.9)
gamma = 0.1
for step in range(60):
    if step % 10 == 0:
        with torch.no_grad():
            p = target_distribution(soft_assign(enc(X)))
            new_assign = p.argmax(1)
            changed = (new_assign != assign).float().mean().item()
            assign = new_assign
        print(f"step {step:2d} purity {purity(assign):.4f} changed {changed:.4f}")
    z = enc(X)
    q = soft_assign(z)
    kl = F.kl_div(q.log(), p, reduction="batchmean")
    rec = F.mse_loss(dec(z), X)
    loss = kl + gamma * rec
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"final kl {kl.item():.6f} rec {rec.item():.6f}")
with torch.no_grad():
    q = soft_assign(enc(X))
print("confidence mean", q.max(1).values.mean().item(), "centres", mu.detach())
print("final purity", round(purity(q.argmax(1)), 4))
