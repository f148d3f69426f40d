# Models: a NumPy-to-PyTorch course's advanced-indexing quiz: basic vs advanced indexing
# (slices, Ellipsis, None, negative indices, int/bool tensor indices, mixed advanced indices
# separated by a slice), __setitem__ with broadcasting and accumulate=True index_put_, and
# the errors students hit (negative steps, float indices, too many indices, bool mask shape).
import torch

torch.manual_seed(0)


def show(title, fn):
    try:
        out = fn()
        if torch.is_tensor(out):
            out = f"{tuple(out.shape)} {out.flatten()[:8].tolist()}"
        print(f"[ok] {title}: {out}")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


x = torch.arange(24).view(2, 3, 4)
show("basic", lambda: x[1, :, ::2])
show("ellipsis", lambda: x[..., 1])
show("None", lambda: x[:, None, 0].shape)
show("ellipsis and None", lambda: x[None, ..., None].shape)
show("negative index", lambda: x[-1, -1, -1])
show("negative step", lambda: x[:, ::-1])
show("zero step", lambda: x[::0])
show("slice beyond", lambda: x[:, 5:10])
show("int tensor", lambda: x[torch.tensor([1, 0])])
show("two int tensors", lambda: x[torch.tensor([0, 1]), torch.tensor([2, 0])])
show("adv sep by slice", lambda: x[torch.tensor([0, 1]), :, torch.tensor([1, 3])].shape)
show("adv adjacent", lambda: x[:, torch.tensor([0, 2]), torch.tensor([1, 3])].shape)
show("broadcast adv", lambda: x[torch.tensor([[0], [1]]), torch.tensor([0, 2])].shape)
show("bool mask", lambda: x[x % 5 == 0])
show("bool dim mask", lambda: x[:, torch.tensor([True, False, True])].shape)
show("bool mask wrong", lambda: x[torch.tensor([True, False, True])])
show("bool scalar", lambda: x[True].shape)
show("list index", lambda: x[[0, 1], [1, 2]])
show("nested list", lambda: x[[[0, 1]]].shape)
show("float index", lambda: x[torch.tensor([0.0])])
show("float python index", lambda: x[1.0])
show("too many indices", lambda: x[0, 0, 0, 0])
show("out of range", lambda: x[2])
show("out of range dim 2", lambda: x[0, 0, 4])
show("tensor out of range", lambda: x[torch.tensor([0, 3])])
show("negative tensor index", lambda: x[torch.tensor([-1])].shape)
show("int8 index", lambda: x[torch.tensor([1], dtype=torch.int8)])
show("uint8 mask", lambda: x[0, 0][torch.tensor([1, 0, 1, 0], dtype=torch.uint8)])
show("0-d tensor index", lambda: x[torch.tensor(1)].shape)
show("empty index", lambda: x[torch.tensor([], dtype=torch.long)].shape)
show("index with tuple of tensor", lambda: x[(torch.tensor([0]),)].shape)

y = torch.zeros(3, 4)
show("setitem scalar", lambda: y.__setitem__((0, slice(None)), 1.0) or y[0])
show(
    "setitem broadcast row",
    lambda: y.__setitem__(slice(1, 3), torch.tensor([1.0, 2.0, 3.0, 4.0])) or y[2],
)
show("setitem wrong shape", lambda: y.__setitem__(0, torch.ones(3)))
show("setitem mask", lambda: y.__setitem__(y > 2, -1.0) or y)
show(
    "setitem adv dup (last wins?)",
    lambda: (
        torch.zeros(3).index_put_((torch.tensor([0, 0]),), torch.tensor([1.0, 2.0])).tolist()[0]
        in (1.0, 2.0)
    ),
)
show(
    "index_put accumulate",
    lambda: torch.zeros(3).index_put_(
        (torch.tensor([0, 0, 2]),), torch.tensor([1.0, 2.0, 5.0]), accumulate=True
    ),
)
show(
    "index_put bad values",
    lambda: torch.zeros(3).index_put_((torch.tensor([0, 1]),), torch.ones(3)),
)
show(
    "index_put dtype",
    lambda: torch.zeros(3).index_put_((torch.tensor([0]),), torch.ones(1, dtype=torch.float64)),
)
show("setitem dtype cast", lambda: torch.zeros(2, dtype=torch.long).__setitem__(0, 2.7) or None)
show(
    "setitem on leaf requiring grad", lambda: torch.zeros(2, requires_grad=True).__setitem__(0, 1.0)
)
show("index_fill", lambda: torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), 7.0))
show("index_copy", lambda: torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), torch.ones(2, 2)))
show(
    "index_copy bad",
    lambda: torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), torch.ones(3, 2)),
)
show(
    "masked_scatter",
    lambda: torch.zeros(4).masked_scatter(
        torch.tensor([True, False, True, False]), torch.tensor([5.0, 6.0, 7.0])
    ),
)
show("put_", lambda: torch.zeros(2, 2).put_(torch.tensor([3, 0]), torch.tensor([1.0, 2.0])))
show("take", lambda: torch.take(x, torch.tensor([0, 23, -1])))
show("take out of range", lambda: torch.take(x, torch.tensor([24])))
show("narrow", lambda: x.narrow(2, 1, 2).shape)
show("select negative", lambda: x.select(1, -1))
show("unbind", lambda: len(x.unbind(1)))
show(
    "gradient through fancy index",
    lambda: (lambda w: (w[torch.tensor([0, 0, 2])].sum().backward(), w.grad)[1])(
        torch.ones(3, requires_grad=True)
    ),
)
show(
    "nonzero as_tuple",
    lambda: [t.tolist() for t in torch.tensor([[0, 1], [1, 0]]).nonzero(as_tuple=True)],
)
show("argwhere", lambda: torch.argwhere(torch.tensor([0, 3, 0, 4])))
