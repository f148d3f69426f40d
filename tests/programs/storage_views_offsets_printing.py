# Models: a tensor-memory walkthrough printing stride(), storage_offset(), is_contiguous() and
# data sharing through slicing, select, narrow, chunk/split, expand, unsqueeze, flatten of views,
# memory_format contiguity checks, contiguous() copies, clone(memory_format) and reshape vs view.
import torch

x = torch.arange(24).reshape(2, 3, 4)


def info(name, t):
    shares = t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(
        f"{name:14s} shape={tuple(t.shape)} stride={t.stride()} offset={t.storage_offset()} "
        f"contig={t.is_contiguous()} shares={shares}"
    )


info("x", x)
info("x[1]", x[1])
info("x[:, 1]", x[:, 1])
info("x[..., ::2]", x[..., ::2])
info("x[1, 1:, 2:]", x[1, 1:, 2:])
info("select(2, 3)", x.select(2, 3))
info("narrow(1, 1, 2)", x.narrow(1, 1, 2))
info("transpose(0,1)", x.transpose(0, 1))
info("mT", x.mT)
info("unsqueeze(1)", x.unsqueeze(1))
info("expand", x[:, :1].expand(2, 5, 4))
info("flatten view", x.flatten(1))
info("flatten copy", x.transpose(1, 2).flatten(1))
info("reshape view", x.reshape(6, 4))
info("reshape copy", x.transpose(0, 2).reshape(-1))
info("contiguous", x.transpose(0, 2).contiguous())
info("unflatten", x.view(2, 12).unflatten(1, (4, 3)))
for k, c in enumerate(x.chunk(2, dim=2)):
    info(f"chunk {k}", c)
for k, c in enumerate(x.split([1, 2], dim=1)):
    info(f"split {k}", c)
for k, c in enumerate(x.unbind(0)):
    info(f"unbind {k}", c)
info("view_as_real-ish", x.view(-1)[3:].view(3, 7))
info("as_strided", x.as_strided((3, 3), (4, 1), 2))
info("movedim", x.movedim(0, -1))
info("squeeze", x[:, :1].squeeze(1))
info("diagonal", x.diagonal(dim1=1, dim2=2))
info("T of 2d", x[0].T)
info("clone", x.clone())
img = torch.arange(2 * 3 * 4 * 5.0).reshape(2, 3, 4, 5)
cl = img.contiguous(memory_format=torch.channels_last)
print(
    "channels_last stride",
    cl.stride(),
    cl.is_contiguous(),
    cl.is_contiguous(memory_format=torch.channels_last),
)
print(
    "clone preserve",
    img.permute(0, 2, 3, 1).clone().stride(),
    img.permute(0, 2, 3, 1).clone(memory_format=torch.contiguous_format).stride(),
)
e = torch.ones(3, 1).expand(3, 4)
print(
    "expanded contiguous",
    e.is_contiguous(),
    e.stride(),
    "after contiguous",
    e.contiguous().stride(),
)
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    x.transpose(0, 1).view(-1)
except RuntimeError as err:
    print("RuntimeError:", err)
s = x[0, :, 1:3]
s.mul_(-1)
print("write through", x[0])
print(
    "size-1 dims contiguous",
    torch.ones(1, 3)[:, ::1].is_contiguous(),
    torch.empty(4, 1).t().is_contiguous(),
)
print("empty stride", torch.empty(0, 3).stride(), torch.empty(2, 0).is_contiguous())
print("scalar", torch.tensor(5).stride(), torch.tensor(5).storage_offset())
