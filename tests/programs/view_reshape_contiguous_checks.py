# Models: a forum answer / blog post "view vs reshape vs contiguous" with data_ptr equality
# checks: which calls share memory, when view fails and reshape silently copies, strides after
# each op, and storage_offset of slices, with the error text printed.
import torch

x = torch.arange(12.0).reshape(3, 4)


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


print("x stride", x.stride(), "offset", x.storage_offset())
v = x.view(4, 3)
print("view shares", shares(v, x), "same ptr", v.data_ptr() == x.data_ptr())
t = x.t()
print("t stride", t.stride(), "contiguous", t.is_contiguous())
try:
    t.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
r = t.reshape(12)
print("reshape of t copies", not shares(r, x), r)
r2 = x.reshape(2, 6)
print("reshape of contiguous shares", shares(r2, x))
c = t.contiguous()
print(
    "contiguous copy",
    c.stride(),
    shares(c, x),
    "contiguous of contiguous is self",
    x.contiguous() is x,
)
s = x[1:, 1:3]
print(
    "slice offset",
    s.storage_offset(),
    "stride",
    s.stride(),
    "data_ptr delta",
    (s.data_ptr() - x.data_ptr()) // x.element_size(),
)
print("slice view(-1) possible?", end=" ")
try:
    s.view(-1)
except RuntimeError:
    print("no")
print("flatten of slice shares", shares(s.flatten(), x))
col = x[:, 1]
print("column stride", col.stride(), "contiguous", col.is_contiguous())
print("view on column with size-1 dims", col.view(3, 1).stride())
e = torch.tensor([1.0, 2.0]).expand(3, 2)
print("expand stride", e.stride())
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError:", str(err).split(".")[0])
print("unsqueeze stride", x.unsqueeze(1).stride(), "squeeze", x.unsqueeze(0).squeeze(0).stride())
y = torch.arange(24).reshape(2, 3, 4).permute(1, 0, 2)
print("permuted stride", y.stride(), "contiguous", y.is_contiguous())
print("view with compatible merge", y.view(3, 8).shape if y[:, :, :].is_contiguous() else "no view")
try:
    y.view(3, 8)
except RuntimeError as err:
    print("permuted view RuntimeError:", err)
print("view merging last two of permuted ok", y.view(3, 2, 2, 2).stride())
print("view -1 inference", x.view(-1, 6).shape)
try:
    x.view(-1, -1)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    x.view(5, -1)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    x.reshape(5, 3)
except RuntimeError as err:
    print("RuntimeError:", err)
z = x.clone()
zz = z.view(2, 6)
zz[0, 0] = 100
print("write through view", z[0, 0].item())
print(
    "element_size",
    x.element_size(),
    torch.zeros(1, dtype=torch.int8).element_size(),
    "nbytes",
    x.nbytes,
    "untyped storage nbytes",
    x.untyped_storage().nbytes(),
)
print("is_set_to", x.is_set_to(x), x.is_set_to(v))
print(
    "view as other dtype",
    torch.tensor([1.0]).view(torch.int32),
    torch.tensor([1, 2], dtype=torch.int16).view(torch.int32),
)
print("movedim stride", torch.zeros(2, 3, 4).movedim(0, -1).stride())
print(
    "channels_last strides",
    torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last).stride(),
)
