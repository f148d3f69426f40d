# Models: a GraphSAGE tutorial without PyTorch Geometric: an edge list, neighbour sampling with
# torch.multinomial, mean/max aggregation via scatter_reduce (include_self=False) and index_add_,
# degree normalisation with bincount, unique(return_inverse) to relabel a sampled subgraph,
# and full-batch node classification on a planted-partition graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
n, k = 60, 3
labels = torch.arange(n) % k
p_in, p_out = 0.25, 0.03
same = labels[:, None] == labels[None, :]
probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
adj = (torch.rand(n, n) < probs).triu(1)
adj = adj | adj.T
src, dst = adj.nonzero(as_tuple=True)
print("edges", src.numel(), "density", f"{adj.float().mean().item():.4f}")
deg = torch.bincount(dst, minlength=n)
print("degree stats", deg.min().item(), deg.max().item(), deg.float().mean().item())
print("isolated", (deg == 0).nonzero().flatten().tolist())
x = F.one_hot(labels, k).float() * 0.5 + torch.randn(n, k) * 0.6
x = torch.cat([x, deg[:, None].float().log1p()], 1)


def aggregate(h, src, dst, n, how):
    msg = h[src]
    if how == "mean":
        out = torch.zeros(n, h.shape[1]).index_add_(0, dst, msg)
        cnt = torch.bincount(dst, minlength=n).clamp(min=1)
        return out / cnt[:, None]
    out = torch.zeros(n, h.shape[1])
    idx = dst[:, None].expand_as(msg)
    return out.scatter_reduce(0, idx, msg, reduce=how, include_self=False)


h0 = x[:6]
print(aggregate(x, src, dst, n, "mean")[:3])
print(aggregate(x, src, dst, n, "amax")[:3])
print(aggregate(x, src, dst, n, "amin")[:2])
print(aggregate(x, src, dst, n, "prod")[:2])
print(torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 5.0, 2.0]),
                                    "mean", include_self=True))
print(torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 5.0, 2.0]),
                                    "mean", include_self=False))


class SAGE(nn.Module):
    def __init__(self, d_in, d_out, how):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nbr_lin = nn.Linear(d_in, d_out, bias=False)
        self.how = how

    def forward(self, h, src, dst):
        agg = aggregate(h, src, dst, h.shape[0], self.how)
        out = self.self_lin(h) + self.nbr_lin(agg)
        return F.normalize(out, dim=1) if self.how == "mean" else out


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = SAGE(k + 1, 16, "mean")
        self.l2 = SAGE(16, k, "amax")

    def forward(self, h, src, dst):
        return self.l2(F.relu(self.l1(h, src, dst)), src, dst)


model = Model()
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
train = torch.rand(n) < 0.5
for epoch in range(40):
    opt.zero_grad()
    out = model(x, src, dst)
    loss = F.cross_entropy(out[train], labels[train])
    loss.backward()
    opt.step()
    if epoch % 8 == 7:
        pred = out.argmax(1)
        acc_tr = (pred[train] == labels[train]).float().mean().item()
        acc_te = (pred[~train] == labels[~train]).float().mean().item()
        print(f"epoch {epoch + 1:2d} loss {loss.item():.5f} train {acc_tr:.3f} test {acc_te:.3f}")
print(model.l2.nbr_lin.weight.grad)
seeds = torch.tensor([0, 5, 17])
weights = adj[seeds].float()
sampled = torch.multinomial(weights, 3, replacement=False)
print("sampled neighbours\n", sampled)
nodes, inverse = torch.unique(torch.cat([seeds, sampled.flatten()]), return_inverse=True)
print(nodes, inverse)
sub_src = inverse[3:]
sub_dst = inverse[:3].repeat_interleave(3)
uniq, counts = torch.unique(sub_src, return_counts=True)
print(uniq, counts, sub_dst)
with torch.no_grad():
    sub_out = model(x[nodes], sub_src, sub_dst)
print(sub_out[inverse[:3]])
ei = torch.stack([src, dst])
order = torch.argsort(ei[1] * n + ei[0])
print(ei[:, order][:, :8])
csr_ptr = torch.zeros(n + 1, dtype=torch.long)
csr_ptr[1:] = torch.cumsum(torch.bincount(ei[1], minlength=n), 0)
print(csr_ptr[:10])
