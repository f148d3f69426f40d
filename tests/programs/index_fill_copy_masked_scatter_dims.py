# Models: an in-place indexing drill: index_fill_ and index_copy_ with negative dims and tensor
# values, index_add_ on a 3-d tensor, masked_scatter_ with a broadcast mask consuming the source
# in order, put_ with accumulate, and the gradients of index_copy and masked_scatter.
import torch

m = torch.zeros(3, 4)
print("index_fill dim -1\n", m.clone().index_fill_(-1, torch.tensor([0, 3]), 7.0))
print("index_fill tensor value\n", m.clone().index_fill_(0, torch.tensor([1]), torch.tensor(2.5)))
src = torch.arange(8.0).reshape(2, 4)
print("index_copy\n", m.clone().index_copy_(0, torch.tensor([2, 0]), src))
print("index_copy dim 1\n", m.clone().index_copy_(1, torch.tensor([3, 1]),
                                                 torch.ones(3, 2) * torch.tensor([5.0, 6.0])))
cube = torch.zeros(2, 3, 2)
print("index_add 3d\n", cube.index_add_(1, torch.tensor([0, 0, 2]), torch.ones(2, 3, 2)))
mask = torch.tensor([[True], [False], [True]])
print("masked_scatter bcast\n", m.clone().masked_scatter_(mask, torch.arange(100.0, 112.0)))
p = torch.zeros(2, 3)
p.put_(torch.tensor([0, 5, 0]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print("put_ accumulate\n", p)
s = src.clone().requires_grad_()
out = torch.zeros(3, 4).index_copy(0, torch.tensor([2, 0]), s)
(out * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("index_copy grad\n", s.grad, out.grad_fn.name())
s2 = torch.arange(12.0, requires_grad=True)
out2 = torch.zeros(3, 4).masked_scatter(mask.expand(3, 4), s2)
out2.sum().backward()
print("masked_scatter grad", s2.grad, out2.grad_fn.name())
for bad in [lambda: m.clone().index_copy_(0, torch.tensor([0]), torch.ones(2, 4)),
            lambda: m.clone().index_fill_(2, torch.tensor([0]), 1.0),
            lambda: m.clone().masked_scatter_(mask, torch.ones(3)),
            lambda: m.clone().index_fill_(0, torch.tensor([0.0]), 1.0)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
