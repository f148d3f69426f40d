# Models: "tensor gymnastics" exercises from an intro course: cat/stack/hstack/vstack/dstack/
# column_stack/row_stack, split/chunk/tensor_split/unbind, flatten/unflatten, squeeze of several
# dims, repeat vs expand vs tile vs repeat_interleave, roll/flip/rot90, tril/triu/diag_embed/
# block_diag, cartesian_prod/combinations/meshgrid, atleast_Nd, and the error for each misuse.
import torch

a = torch.arange(6).reshape(2, 3)
b = torch.arange(6, 12).reshape(2, 3)
print(
    "cat0",
    torch.cat([a, b]).shape,
    "cat1",
    torch.cat([a, b], 1).shape,
    "stack",
    torch.stack([a, b]).shape,
    torch.stack([a, b], -1).shape,
)
print(
    "hstack",
    torch.hstack([a, b]).shape,
    "vstack",
    torch.vstack([a, b]).shape,
    "dstack",
    torch.dstack([a, b]).shape,
)
print(
    "column_stack",
    torch.column_stack([torch.arange(3), torch.arange(3, 6)]),
    "row_stack",
    torch.row_stack([torch.arange(2), torch.arange(2)]).shape,
)
print("hstack 1-d", torch.hstack([torch.arange(2), torch.arange(3)]))
print(
    "cat with empty",
    torch.cat([a, torch.empty(0, 3, dtype=torch.long)]).shape,
    torch.cat([torch.tensor([]), torch.tensor([1.0])]),
)
x = torch.arange(10)
print(
    "split 3",
    [t.tolist() for t in x.split(3)],
    "split sizes",
    [t.tolist() for t in x.split([2, 3, 5])],
)
print(
    "chunk 4",
    [t.tolist() for t in x.chunk(4)],
    "chunk 6 of 5",
    [t.tolist() for t in torch.arange(5).chunk(6)],
)
print(
    "tensor_split 3",
    [t.tolist() for t in x.tensor_split(3)],
    "indices",
    [t.tolist() for t in x.tensor_split([1, 4])],
)
print("unbind", [t.tolist() for t in a.unbind(1)])
c = torch.arange(24).reshape(2, 3, 4)
print(
    "flatten",
    c.flatten().shape,
    c.flatten(1).shape,
    c.flatten(0, 1).shape,
    "unflatten",
    c.flatten(1).unflatten(1, (3, 4)).shape,
    c.unflatten(-1, (2, -1)).shape,
)
s = torch.zeros(1, 3, 1, 2, 1)
print(
    "squeeze",
    s.squeeze().shape,
    s.squeeze(0).shape,
    s.squeeze((0, 2)).shape,
    s.squeeze(1).shape,
    "unsqueeze",
    s.unsqueeze(-1).shape,
)
v = torch.tensor([1, 2, 3])
print(
    "repeat",
    v.repeat(2),
    v.repeat(2, 2).shape,
    "tile",
    v.tile((2,)),
    torch.tile(a, (2,)).shape,
    "expand",
    v.expand(2, 3),
)
print(
    "repeat_interleave",
    v.repeat_interleave(2),
    v.repeat_interleave(torch.tensor([1, 0, 3])),
    a.repeat_interleave(2, dim=0).shape,
)
print("roll", x.roll(3), a.roll(1, 1), a.roll((1, 1), (0, 1)))
print("flip", a.flip(0), a.fliplr(), a.flipud())
print("rot90", a.rot90(), a.rot90(2), a.rot90(-1).shape)
m = torch.arange(1, 17).reshape(4, 4)
print("tril", m.tril(), m.triu(1), m.tril(-2), sep="\n")
print(
    "diag_embed",
    torch.diag_embed(torch.tensor([[1, 2], [3, 4]])),
    "diagflat",
    torch.diagflat(torch.tensor([1, 2]), 1),
)
print("block_diag", torch.block_diag(torch.ones(2, 2), torch.tensor([[5.0]]), torch.zeros(1, 2)))
print("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(
    "combinations",
    torch.combinations(torch.tensor([1, 2, 3, 4]), r=2),
    torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True).shape,
)
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print("meshgrid xy", gx, gy, sep="\n")
print(
    "atleast",
    torch.atleast_1d(torch.tensor(1)).shape,
    torch.atleast_2d(torch.tensor([1, 2])).shape,
    torch.atleast_3d(torch.ones(2, 2)).shape,
)
print(
    "movedim/swapaxes",
    c.movedim(0, -1).shape,
    c.swapaxes(0, 2).shape,
    c.swapdims(1, 2).shape,
    c.moveaxis((0, 1), (2, 0)).shape,
)
print("narrow/select", c.narrow(2, 1, 2).shape, c.select(1, 0).shape, c.unfold(2, 2, 1).shape)
print("take_along_dim", torch.take_along_dim(a, torch.tensor([[2], [0]]), dim=1))
print(
    "vsplit/hsplit",
    [t.shape for t in torch.vsplit(m, 2)],
    [t.shape for t in torch.hsplit(m, [1, 3])],
)
for bad in [
    lambda: torch.cat([a, torch.arange(4).reshape(2, 2)]),
    lambda: torch.stack([a, a.t()]),
    lambda: torch.cat([]),
    lambda: x.split([3, 3]),
    lambda: x.chunk(0),
    lambda: a.unflatten(1, (2, 2)),
    lambda: v.repeat(2, 2)[None].expand(3, 2, 5),
    lambda: a.repeat(2),
    lambda: torch.cat([a, b], dim=2),
    lambda: a.rot90(1, (0, 0)),
    lambda: torch.block_diag(torch.ones(2, 2, 2)),
]:
    try:
        bad()
    except (RuntimeError, ValueError, IndexError, TypeError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
