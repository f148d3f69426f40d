# Models: an advanced-indexing lesson: index_put_ with duplicate indices with and without
# accumulate, setitem with tensors, boolean masks combined with slices and ellipsis, None
# (newaxis) indices, broadcasting index arrays, negative indices and the errors.
import torch

x = torch.zeros(5)
idx = torch.tensor([0, 2, 2, 4, 0])
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
print("accumulate", x.clone().index_put_((idx,), vals, accumulate=True))
print("no accumulate last wins?", x.clone().index_put_((idx[[1, 3]],), vals[[1, 3]]))
m = torch.arange(12.0).reshape(3, 4)
rows = torch.tensor([[0], [2]])
cols = torch.tensor([1, 3])
print("broadcast idx\n", m[rows, cols])
m2 = m.clone()
m2[rows, cols] = -1.0
print("setitem broadcast\n", m2)
print("mask + slice", m[m[:, 0] > 0, 1:3])
cube = torch.arange(24).reshape(2, 3, 4)
print("ellipsis", cube[..., 1], cube[1, ...].shape)
print("None", m[None, :, None].shape, m[:, None, 1].shape)
print("negative", m[-1, -2], m[[-1, 0]][:, -1])
m3 = m.clone()
m3[:, [0, 2]] = torch.tensor([100.0, 200.0])
print("column assign\n", m3)
m4 = m.clone()
m4[m4 > 5] = 0
print("mask assign\n", m4)
m5 = m.clone()
m5[torch.tensor([True, False, True])] += 1000
print("bool rows +=\n", m5)
t = torch.zeros(3, 3)
t[[0, 1, 2], [2, 1, 0]] = torch.tensor([7.0, 8.0, 9.0])
print("anti-diagonal\n", t)
g = torch.zeros(4, requires_grad=True)
out = g[torch.tensor([0, 0, 3])] * torch.tensor([1.0, 2.0, 3.0])
out.sum().backward()
print("grad with duplicates", g.grad, out.grad_fn.next_functions[0][0].name())
for bad in [lambda: m[3], lambda: m[:, torch.tensor([4])], lambda: m[torch.tensor([True, False])],
            lambda: m.index_put_((torch.tensor([0]),), torch.ones(2, 4)),
            lambda: m[1.5]]:
    try:
        bad()
    except (IndexError, RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
