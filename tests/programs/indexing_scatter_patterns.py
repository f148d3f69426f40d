# Models: the gather/scatter idioms of public code (one-hot by scatter_, segment sums in GNNs,
# label smoothing targets, top-k masking, sparse updates) -- torch.where with scalars and
# broadcasting, nonzero(as_tuple=True), masked_select/masked_scatter, index_put_ with
# accumulate, index_add_/index_copy_/index_fill_, scatter_ with reduce, scatter_add_,
# scatter_reduce (sum/amax/mean with include_self), gather for per-row picks, take/
# take_along_dim, and their gradients.
import torch

torch.manual_seed(0)
x = torch.randn(4, 5)
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, 1.0, -1.0), torch.where(x > 0))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5))
nz = torch.nonzero(x > 0.5)
print(nz, torch.nonzero(x > 0.5, as_tuple=True))
print(x.masked_select(x < -0.5), torch.masked_select(x, torch.tensor([True, False, True,
                                                                      False, True])))
filled = torch.zeros(4, 5).masked_scatter(x > 0, torch.arange(20.0))
print(filled)
print(x.masked_fill(x.abs() < 0.3, 0.0).count_nonzero())

labels = torch.tensor([2, 0, 3, 1])
one_hot = torch.zeros(4, 5).scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot, torch.equal(one_hot, torch.nn.functional.one_hot(labels, 5).float()))
smooth = torch.full((4, 5), 0.1 / 4).scatter_(1, labels[:, None], 0.9)
print("label smoothing", smooth.sum(1))
picked = x.gather(1, labels[:, None]).squeeze(1)
print("gather", picked, torch.take_along_dim(x, labels[:, None], dim=1).flatten())
print("take", torch.take(x, torch.tensor([0, 7, 19])))

src = torch.arange(1.0, 11.0)
index = torch.tensor([0, 1, 0, 1, 2, 1, 4, 4, 3, 0])
print("scatter_add", torch.zeros(5).scatter_add_(0, index, src))
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        out = torch.ones(6).scatter_reduce(0, index, src, reduce=reduce,
                                           include_self=include_self)
        print(reduce, include_self, out)
print("scatter reduce=multiply", torch.full((5,), 2.0).scatter_(0, index[:5], src[:5],
                                                                 reduce="multiply"))
print("scatter reduce=add", torch.zeros(2, 3).scatter_(
    1, torch.tensor([[0, 1, 0], [2, 2, 1]]), torch.ones(2, 3), reduce="add"))
print("scatter value", torch.zeros(3, 4).scatter(1, torch.tensor([[1], [3], [0]]), 7.5))

edge_index = torch.tensor([[0, 1, 1, 2, 3, 3], [1, 0, 2, 1, 2, 0]])
node_feat = torch.randn(4, 3)
msgs = node_feat[edge_index[0]]
agg = torch.zeros(4, 3).index_add_(0, edge_index[1], msgs)
deg = torch.bincount(edge_index[1], minlength=4).clamp(min=1)
print("segment mean", agg / deg[:, None])
seg = edge_index[1][:, None].expand(-1, 3)
print("segment max", torch.zeros(4, 3).scatter_reduce(0, seg, msgs, "amax",
                                                      include_self=False))
print("index_copy", torch.zeros(5, 2).index_copy_(0, torch.tensor([4, 0]),
                                                  torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print("index_fill", torch.arange(6.0).view(2, 3).index_fill_(1, torch.tensor([0, 2]), -1.0))
print("index_select", torch.index_select(node_feat, 0, torch.tensor([3, 3, 0])).shape)

acc = torch.zeros(3)
acc.index_put_((torch.tensor([0, 2, 0, 0]),), torch.tensor([1.0, 2.0, 3.0, 4.0]),
               accumulate=True)
print("index_put accumulate", acc)
grid = torch.zeros(3, 3, dtype=torch.long)
grid[torch.tensor([0, 1, 2]), torch.tensor([2, 1, 0])] = torch.tensor([7, 8, 9])
print(grid)
grid[grid > 7] = -1
print(grid)
grid[[0, 2]] = torch.tensor([5, 5, 5])
print(grid)
rows = torch.tensor([[0], [2]])
cols = torch.tensor([[0, 2]])
print("corners", grid[rows, cols])
k = 2
scores = torch.randn(3, 6)
topv, topi = scores.topk(k, dim=1)
mask = torch.zeros_like(scores, dtype=torch.bool).scatter_(1, topi, True)
print("topk mask", mask.int(), scores.masked_fill(~mask, float("-inf")).softmax(1)[0])

w = torch.randn(5, requires_grad=True)
out = torch.zeros(3).scatter_add(0, torch.tensor([0, 1, 2, 0, 1]), w * 2)
(out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("scatter_add grad", w.grad)
w.grad = None
g = w.gather(0, torch.tensor([4, 4, 0]))
g.sum().backward()
print("gather grad", w.grad)
w.grad = None
m = torch.where(w > 0, w ** 2, -w)
m.sum().backward()
print("where grad", w.grad)
w.grad = None
sel = w.masked_select(w > 0)
(sel * 3).sum().backward()
print("masked_select grad", w.grad)
w.grad = None
red = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 1, 1, 1]), w, "amax",
                                    include_self=False)
red.sum().backward()
print("scatter_reduce amax grad", w.grad)
w.grad = None
z = torch.zeros(4)
z[torch.tensor([1, 3])] = w[:2] * 5
z.sum().backward()
print("index_put grad", w.grad)
