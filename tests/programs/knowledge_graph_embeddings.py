# Models: knowledge-graph embedding tutorials (PyKEEN/OpenKE style) in plain PyTorch: TransE,
# DistMult, ComplEx and RotatE scorers over a toy triple store, corrupted-triple negative
# sampling, margin ranking and self-adversarial losses, entity renormalisation, and filtered
# link-prediction metrics (MRR, Hits@k) computed by ranking every candidate tail.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ENT, N_REL, DIM = 20, 3, 8
# a toy graph: relation 0 is "next", relation 1 is "prev", relation 2 links to the "hub" 0
heads = torch.arange(N_ENT - 1)
triples = torch.cat([
    torch.stack([heads, torch.zeros_like(heads), heads + 1], 1),
    torch.stack([heads + 1, torch.ones_like(heads), heads], 1),
    torch.stack([torch.arange(1, N_ENT, 2), torch.full((N_ENT // 2,), 2),
                 torch.zeros(N_ENT // 2, dtype=torch.long)], 1),
])
print("triples:", tuple(triples.shape), "relation counts:", torch.bincount(triples[:, 1]).tolist())
known = {tuple(t) for t in triples.tolist()}


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        bound = 6 / math.sqrt(DIM)
        self.ent = nn.Embedding(N_ENT, DIM)
        self.rel = nn.Embedding(N_REL, DIM)
        nn.init.uniform_(self.ent.weight, -bound, bound)
        nn.init.uniform_(self.rel.weight, -bound, bound)
        with torch.no_grad():
            self.rel.weight.div_(self.rel.weight.norm(dim=1, keepdim=True))

    def score(self, h, r, t):
        return -(self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)

    def normalize(self):
        with torch.no_grad():
            self.ent.weight.div_(self.ent.weight.norm(dim=1, keepdim=True).clamp_min(1.0))


class DistMult(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(N_ENT, DIM)
        self.rel = nn.Embedding(N_REL, DIM)
        nn.init.xavier_uniform_(self.ent.weight)
        nn.init.xavier_uniform_(self.rel.weight)

    def score(self, h, r, t):
        return (self.ent(h) * self.rel(r) * self.ent(t)).sum(-1)

    def normalize(self):
        pass


class ComplEx(DistMult):
    def score(self, h, r, t):
        eh = torch.view_as_complex(self.ent(h).view(*h.shape, DIM // 2, 2))
        er = torch.view_as_complex(self.rel(r).view(*r.shape, DIM // 2, 2))
        et = torch.view_as_complex(self.ent(t).view(*t.shape, DIM // 2, 2))
        return (eh * er * et.conj()).real.sum(-1)


class RotatE(DistMult):
    def score(self, h, r, t):
        phase = self.rel(r)[..., : DIM // 2] * math.pi
        rot = torch.polar(torch.ones_like(phase), phase)
        eh = torch.view_as_complex(self.ent(h).view(*h.shape, DIM // 2, 2))
        et = torch.view_as_complex(self.ent(t).view(*t.shape, DIM // 2, 2))
        return 4.0 - (eh * rot - et).abs().sum(-1)


def corrupt(batch, gen):
    neg = batch.clone()
    flip = torch.rand(len(batch), generator=gen) < 0.5
    rand_ent = torch.randint(0, N_ENT, (len(batch),), generator=gen)
    neg[flip, 0] = rand_ent[flip]
    neg[~flip, 2] = rand_ent[~flip]
    return neg


@torch.no_grad()
def filtered_ranks(model):
    ranks = []
    cand = torch.arange(N_ENT)
    for h, r, t in triples.tolist():
        s = model.score(torch.full((N_ENT,), h), torch.full((N_ENT,), r), cand)
        mask = torch.tensor([(h, r, c) in known and c != t for c in range(N_ENT)])
        s = s.masked_fill(mask, float("-inf"))
        ranks.append(int((s > s[t]).sum()) + 1)
    return torch.tensor(ranks, dtype=torch.float)


MODELS = [("TransE", TransE), ("DistMult", DistMult), ("ComplEx", ComplEx), ("RotatE", RotatE)]
for name, cls in MODELS:
    torch.manual_seed(1)
    model = cls()
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    gen = torch.Generator().manual_seed(2)
    for epoch in range(20):
        perm = torch.randperm(len(triples), generator=gen)
        total = 0.0
        for idx in perm.split(24):
            pos = triples[idx]
            neg = corrupt(pos, gen)
            sp = model.score(pos[:, 0], pos[:, 1], pos[:, 2])
            sn = model.score(neg[:, 0], neg[:, 1], neg[:, 2])
            if name == "TransE":
                loss = F.margin_ranking_loss(sp, sn, torch.ones_like(sp), margin=1.0)
            elif name == "RotatE":
                w = torch.softmax(sn.detach(), 0)
                loss = -(F.logsigmoid(sp).mean() + (w * F.logsigmoid(-sn)).sum())
            else:
                loss = (F.softplus(-sp).mean() + F.softplus(sn).mean()
                        + 1e-3 * model.ent.weight.pow(2).mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.normalize()
            total += loss.item() * len(idx)
        if epoch % 10 == 9:
            print(f"{name:8s} epoch {epoch + 1:2d} loss {total / len(triples):.4f}")
    ranks = filtered_ranks(model)
    print(f"{name:8s} MRR {(1 / ranks).mean():.4f} Hits@1 {(ranks <= 1).float().mean():.3f} "
          f"Hits@3 {(ranks <= 3).float().mean():.3f} mean rank {ranks.mean():.2f}")
    print("  ranks of first 8 triples:", ranks[:8])
