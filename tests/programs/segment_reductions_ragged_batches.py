# Models: a GNN/recsys utility module: ragged batches described by lengths, offsets by cumsum,
# segment ids by repeat_interleave, segment sum/mean/max via index_add_ and scatter_reduce,
# segment softmax, bincount, and padding back to a dense batch.
import torch

torch.manual_seed(4)
lengths = torch.tensor([3, 1, 4, 2])
values = torch.randn(int(lengths.sum()))
print("values", values)
offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
print("offsets", offsets)
seg = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
print("segment ids", seg)
ssum = torch.zeros(4).index_add_(0, seg, values)
print("segment sum", ssum)
print("segment mean", ssum / lengths)
smax = torch.full((4,), float("-inf")).scatter_reduce(0, seg, values, "amax")
print("segment max", smax)
smin = torch.zeros(4).scatter_reduce(0, seg, values, "amin", include_self=False)
print("segment min", smin)
sprod = torch.ones(4).scatter_reduce(0, seg, values, "prod")
print("segment prod", sprod)
smean = torch.zeros(4).scatter_reduce(0, seg, values, "mean", include_self=False)
print("scatter mean", smean)
e = (values - smax[seg]).exp()
soft = e / torch.zeros(4).index_add_(0, seg, e)[seg]
print("segment softmax", soft)
print("sums to one", torch.zeros(4).index_add_(0, seg, soft))
print("bincount", torch.bincount(seg), torch.bincount(seg, weights=values))
pos = torch.arange(len(values)) - offsets[seg]
dense = torch.zeros(4, int(lengths.max())).index_put_((seg, pos), values)
print("dense\n", dense)
mask = torch.arange(int(lengths.max()))[None] < lengths[:, None]
print("mask\n", mask)
print("back to ragged", dense[mask])
print("split", [t.tolist() for t in values.split(lengths.tolist())])
v = values.clone().requires_grad_()
out = torch.zeros(4).scatter_reduce(0, seg, v, "amax", include_self=False)
out.sum().backward()
print("amax grad", v.grad)
print(out.grad_fn.name())
v2 = values.clone().requires_grad_()
torch.zeros(4).scatter_reduce(0, seg, v2, "mean", include_self=False).sum().backward()
print("mean grad", v2.grad)
