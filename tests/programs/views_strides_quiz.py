# Models: a "views vs copies" quiz from a PyTorch internals course (Edward Yang's "PyTorch
# internals" blog and the tensor-view docs): strides, storage offsets, contiguity, which ops
# return views (view, transpose, narrow, unfold, expand, as_strided, diagonal, unbind, split)
# and which copy, writes through views, untyped_storage sharing, and view errors.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print("shape", tuple(x.shape), "stride", x.stride(), "contiguous", x.is_contiguous())
t = x.transpose(0, 2)
print("transpose stride", t.stride(), "contiguous", t.is_contiguous())
print("shares storage", t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
p = x.permute(2, 0, 1)
print("permute stride", p.stride(), "contiguous copy stride", p.contiguous().stride())
n = x.narrow(2, 1, 2)
print("narrow offset", n.storage_offset(), "stride", n.stride(), "shape", tuple(n.shape))
d = x[0].diagonal()
print("diagonal", d, "offset", d.storage_offset(), "stride", d.stride())
d2 = x[1].diagonal(offset=1)
print("diagonal offset=1", d2, "storage offset", d2.storage_offset())
u = torch.arange(10.0).unfold(0, 4, 2)
print("unfold", u.shape, u.stride())
print(u)
e = torch.tensor([1.0, 2.0, 3.0]).unsqueeze(1).expand(3, 4)
print("expand stride", e.stride(), "contiguous", e.is_contiguous())
s = torch.arange(9.0).as_strided((3, 3), (1, 3))
print("as_strided (transpose)", s)
win = torch.arange(10.0).as_strided((3, 4), (2, 1), storage_offset=1)
print("sliding windows", win)
print("unbind offsets", [r.storage_offset() for r in x.unbind(1)])
print("split offsets", [c.storage_offset() for c in torch.arange(10).split(3)])
print("chunk sizes", [tuple(c.shape) for c in torch.arange(10).chunk(4)])
print("tensor_split", [c.tolist() for c in torch.arange(7).tensor_split([2, 5])])

# writes through views
base = torch.zeros(3, 4)
base[:, 1].fill_(1.0)
base.t()[2].add_(2.0)
base.narrow(0, 2, 1).mul_(-1)
base.view(-1)[::5] = 7.0
print("after writes")
print(base)
v = base.diagonal()
v += 10
print("diagonal write", base.diagonal())
print("_base is base:", v._base is base, "views", base[0]._is_view(), base.clone()._is_view())

# copies
print("reshape of transposed is copy:", x.transpose(0, 1).reshape(-1).data_ptr() != x.data_ptr())
print("reshape of contiguous is view:", x.reshape(6, 4).data_ptr() == x.data_ptr())
print("flatten of contiguous is view:", x.flatten().data_ptr() == x.data_ptr())
print("fancy index copies:", x[[0, 1]].data_ptr() != x.data_ptr())
m = x[:, ::2, 1::2]
print("strided slice", tuple(m.shape), m.stride(), m.storage_offset())
print(m)
mv = x.movedim(0, -1)
print("movedim", tuple(mv.shape), mv.stride())
print("view as (-1,) after T.contiguous()", x.mT.contiguous().view(-1)[:5])
print("view dtype", torch.tensor([1.0]).view(torch.int32))
print("view_as_real", torch.view_as_real(torch.tensor([1 + 2j, 3 - 1j])))
print("squeeze stride", torch.zeros(2, 1, 3).squeeze(1).stride())
print("unsqueeze stride", torch.zeros(2, 3).unsqueeze(1).stride())
print(
    "channels_last stride", torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last).stride()
)
print(
    "element_size",
    x.element_size(),
    "nbytes",
    x.nbytes,
    "storage nbytes",
    x[0].untyped_storage().nbytes(),
)

for fn in [
    lambda: x.transpose(0, 1).view(-1),
    lambda: x.view(5, 5),
    lambda: torch.arange(10.0).as_strided((3, 3), (4, 1)),
    lambda: x.unfold(2, 5, 1),
    lambda: e.add_(1),
    lambda: torch.tensor([1.0, 2.0, 3.0]).view(torch.float64),
]:
    try:
        fn()
        print("no error")
    except RuntimeError as err:
        print("RuntimeError:", err)
