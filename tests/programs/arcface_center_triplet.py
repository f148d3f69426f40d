# Models: face-recognition style metric learning from public repos: an ArcFace / CosFace margin
# head (normalised weights, acos/cos margins, easy-margin switch), center loss with a
# hand-written center update, batch-hard triplet mining on a pairwise distance matrix,
# TripletMarginWithDistanceLoss with a custom distance, and retrieval accuracy.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, EMB = 4, 8
centers_true = torch.randn(N_CLASSES, 6) * 2
labels = torch.arange(N_CLASSES).repeat_interleave(12)
X = centers_true[labels] + 0.7 * torch.randn(len(labels), 6)


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=16.0, m=0.3, easy_margin=False):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s, self.m, self.easy_margin = s, m, easy_margin
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th, self.mm = math.cos(math.pi - m), math.sin(math.pi - m) * m

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - cosine.pow(2)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros_like(cosine).scatter_(1, label.view(-1, 1).long(), 1)
        return self.s * (one_hot * phi + (1.0 - one_hot) * cosine)


class CenterLoss(nn.Module):
    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, x, labels):
        batch = x.size(0)
        distmat = (
            x.pow(2).sum(1, keepdim=True).expand(batch, N_CLASSES)
            + self.centers.pow(2).sum(1, keepdim=True).expand(N_CLASSES, batch).t()
        )
        distmat.addmm_(x, self.centers.t(), beta=1, alpha=-2)
        mask = labels.unsqueeze(1).expand(batch, N_CLASSES).eq(torch.arange(N_CLASSES))
        return (distmat * mask.float()).clamp(min=1e-12, max=1e12).sum() / batch


def batch_hard_triplet(emb, labels, margin=0.3):
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    hardest_pos = (dist * same.float()).max(1).values
    hardest_neg = dist.masked_fill(same, float("inf")).min(1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean(), (hardest_pos, hardest_neg)


encoder = nn.Sequential(nn.Linear(6, 16), nn.PReLU(), nn.Linear(16, EMB))
arc = ArcMarginProduct(EMB, N_CLASSES)
center = CenterLoss(N_CLASSES, EMB)
print(arc.weight.shape, center.centers.shape, encoder[1].weight)
opt = torch.optim.SGD(list(encoder.parameters()) + list(arc.parameters()), lr=0.05, momentum=0.9)
opt_center = torch.optim.SGD(center.parameters(), lr=0.5)
for epoch in range(30):
    perm = torch.randperm(len(X))
    for i in range(0, len(X), 16):
        idx = perm[i : i + 16]
        emb = encoder(X[idx])
        logits = arc(emb, labels[idx])
        loss_arc = F.cross_entropy(logits, labels[idx])
        loss_c = center(emb, labels[idx])
        loss_t, _ = batch_hard_triplet(emb, labels[idx])
        loss = loss_arc + 0.01 * loss_c + loss_t
        opt.zero_grad()
        opt_center.zero_grad()
        loss.backward()
        for p in center.parameters():
            p.grad.data *= 1.0 / 0.01
        opt.step()
        opt_center.step()
    if epoch % 10 == 9:
        print(
            f"epoch {epoch + 1} arc {loss_arc.item():.4f} center {loss_c.item():.4f} "
            f"triplet {loss_t.item():.4f}"
        )

with torch.no_grad():
    emb = F.normalize(encoder(X))
    cos = F.linear(emb, F.normalize(arc.weight))
    acc = (cos.argmax(1) == labels).float().mean()
    print("arc head accuracy:", acc.item())
    sim = emb @ emb.t()
    sim.fill_diagonal_(-2)
    nn_idx = sim.argmax(1)
    print("1-NN retrieval accuracy:", (labels[nn_idx] == labels).float().mean().item())
    loss_t, (hp, hn) = batch_hard_triplet(emb, labels)
    print("hardest pos/neg (first 4):", hp[:4], hn[:4])
    theta = torch.acos(cos.gather(1, labels[:, None]).clamp(-1 + 1e-7, 1 - 1e-7))
    print("mean angle to own class (deg):", torch.rad2deg(theta).mean())

triplet = nn.TripletMarginWithDistanceLoss(
    distance_function=lambda a, b: 1.0 - F.cosine_similarity(a, b), margin=0.5, swap=True
)
a, p, n = torch.randn(3, 5, EMB).unbind(0)
print(triplet, triplet(a, p, n))
print(nn.TripletMarginLoss(margin=1.0, p=1)(a, p, n), F.triplet_margin_loss(a, p, n, swap=True))
print(F.margin_ranking_loss(a[:, 0], p[:, 0], torch.sign(n[:, 0]), margin=0.1))
easy = ArcMarginProduct(EMB, N_CLASSES, easy_margin=True)
out = easy(a, torch.tensor([0, 1, 2, 3, 0]))
print(out.shape, out.grad_fn.name())
