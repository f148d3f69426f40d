"""Shape and view ops against torch 2.13: values, grads, grad_fn names, views, errors."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import NC, Raw, arr, check, ember, errors_alike, torch

A = arr((3, 4), seed=1)
B = arr((2, 3, 4), seed=2)
V = arr((4,), seed=3)
S = arr((), seed=4)

CASES = {
    "view": (lambda L, x: x.view(4, 3), A),
    "view_m1": (lambda L, x: x.view(-1, 2), A),
    "view_bad": (lambda L, x: x.view(5, -1), A),
    "view_nc": (lambda L, x: x.view(12), NC(A)),
    "reshape_nc": (lambda L, x: x.reshape(12), NC(A)),
    "reshape_as": (lambda L, x: x.reshape_as(x.t()), A),
    "view_as": (lambda L, x: x.view_as(x.t()), A),
    "flatten": (lambda L, x: x.flatten(1), B),
    "flatten0d": (lambda L, x: x.flatten(), S),
    "unflatten": (lambda L, x: x.unflatten(1, (2, -1)), A),
    "unflatten_bad": (lambda L, x: x.unflatten(1, (3, 2)), A),
    "squeeze": (lambda L, x: x[None].squeeze(), A),
    "squeeze_dim": (lambda L, x: x[:, None].squeeze(1), A),
    "squeeze_dims": (lambda L, x: x[None, :, None].squeeze((0, 2)), A),
    "unsqueeze": (lambda L, x: x.unsqueeze(-1), A),
    "unsqueeze_bad": (lambda L, x: x.unsqueeze(4), A),
    "permute": (lambda L, x: x.permute(2, 0, 1), B),
    "permute_bad": (lambda L, x: x.permute(0, 1), B),
    "transpose": (lambda L, x: x.transpose(0, 2), B),
    "swapaxes": (lambda L, x: x.swapaxes(-1, 0), B),
    "t": (lambda L, x: x.t(), A),
    "T": (lambda L, x: x.T, A),
    "mT": (lambda L, x: x.mT, B),
    "mT_bad": (lambda L, x: x.mT, V),
    "H": (lambda L, x: x.H, A),
    "mH": (lambda L, x: x.mH, B),
    "adjoint": (lambda L, x: x.adjoint(), B),
    "movedim": (lambda L, x: x.movedim(0, 2), B),
    "movedim_list": (lambda L, x: L.movedim(x, (0, 1), (2, 0)), B),
    "moveaxis": (lambda L, x: L.moveaxis(x, -1, 0), B),
    "movedim_bad": (lambda L, x: x.movedim((0, 1), (2,)), B),
    "movedim_rep": (lambda L, x: x.movedim((0, 0), (1, 2)), B),
    "expand": (lambda L, x: x.expand(2, 4), V),
    "expand_m1": (lambda L, x: x[None].expand(3, -1), V),
    "expand_bad": (lambda L, x: x.expand(2, 3), V),
    "expand_as": (lambda L, x, y: x.expand_as(y), V, A),
    "broadcast_to": (lambda L, x: x.broadcast_to((2, 3, 4)), V),
    "broadcast_tensors": (lambda L, x, y: L.broadcast_tensors(x, y), V, arr((3, 1), seed=5)),
    "broadcast_tensors_bad": (lambda L, x, y: L.broadcast_tensors(x, y), V, A[:, :3]),
    "repeat": (lambda L, x: x.repeat(2, 1, 3), A),
    "repeat_bad": (lambda L, x: x.repeat(2), A),
    "tile": (lambda L, x: x.tile((2,)), A),
    "tile_more": (lambda L, x: x.tile((2, 1, 2)), V),
    "repeat_interleave": (lambda L, x: x.repeat_interleave(2, dim=1), A),
    "repeat_interleave_flat": (lambda L, x: x.repeat_interleave(3), A),
    "repeat_interleave_t": (lambda L, x, r: x.repeat_interleave(r, dim=0), A,
                            np.array([1, 0, 2])),
    "cat": (lambda L, x, y: L.cat([x, y], 1), A, A[:, :2].copy()),
    "cat_neg": (lambda L, x, y: L.cat((x, y), -2), A, A),
    "cat_bad": (lambda L, x, y: L.cat([x, y]), A, A[:, :2].copy()),
    "cat_empty1d": (lambda L, x, y: L.cat([x, y]), A, np.zeros((0,), np.float32)),
    "concat": (lambda L, x, y: L.concat([x, y]), A, A),
    "stack": (lambda L, x, y: L.stack([x, y], 1), A, A),
    "stack_bad": (lambda L, x, y: L.stack([x, y]), A, V),
    "hstack": (lambda L, x, y: L.hstack([x, y]), A, A),
    "hstack1d": (lambda L, x, y: L.hstack([x, y]), V, V),
    "vstack": (lambda L, x, y: L.vstack([x, y]), V, V),
    "dstack": (lambda L, x, y: L.dstack([x, y]), A, A),
    "dstack1d": (lambda L, x, y: L.dstack([x, y]), V, V),
    "split": (lambda L, x: x.split(2, 1), A),
    "split_sizes": (lambda L, x: x.split([1, 2]), A),
    "split_sizes_bad": (lambda L, x: x.split([1, 1]), A),
    "split_neg": (lambda L, x: x.split(-1), A),
    "chunk": (lambda L, x: x.chunk(3, 1), A),
    "chunk_more": (lambda L, x: L.chunk(x, 5), A),
    "chunk_bad": (lambda L, x: x.chunk(0), A),
    "tensor_split": (lambda L, x: x.tensor_split(3, 1), A),
    "tensor_split_idx": (lambda L, x: x.tensor_split([1, 3], 1), A),
    "tensor_split_neg": (lambda L, x: x.tensor_split([-1, 10], 1), A),
    "unbind": (lambda L, x: x.unbind(1), A),
    "unbind_fn": (lambda L, x: L.unbind(x, -1), B),
    "narrow": (lambda L, x: x.narrow(1, 1, 2), A),
    "narrow_neg": (lambda L, x: x.narrow(-1, -2, 2), A),
    "narrow_bad": (lambda L, x: x.narrow(1, 3, 2), A),
    "select": (lambda L, x: x.select(1, -1), A),
    "select_bad": (lambda L, x: x.select(0, 3), A),
    "flip": (lambda L, x: x.flip(0, 2), B),
    "flip_list": (lambda L, x: L.flip(x, [1]), NC(A)),
    "fliplr": (lambda L, x: x.fliplr(), A),
    "fliplr_bad": (lambda L, x: x.fliplr(), V),
    "flipud": (lambda L, x: x.flipud(), V),
    "roll": (lambda L, x: x.roll(1), A),
    "roll_dims": (lambda L, x: x.roll((1, -2), (0, 1)), A),
    "roll_bad": (lambda L, x: x.roll((1, 2), 0), A),
    "rot90": (lambda L, x: x.rot90(), A),
    "rot90_k": (lambda L, x: x.rot90(3, [1, 2]), B),
    "rot90_neg": (lambda L, x: x.rot90(-1), A),
    "rot90_bad": (lambda L, x: x.rot90(1, [0, 0]), A),
    "meshgrid_ij": (lambda L, x, y: L.meshgrid(x, y, indexing="ij"), V, V[:3].copy()),
    "meshgrid_xy": (lambda L, x, y: L.meshgrid(x, y, indexing="xy"), V, V[:3].copy()),
    "clone": (lambda L, x: x.clone(), NC(A)),
    "contiguous": (lambda L, x: x.contiguous(), NC(A)),
    "unfold": (lambda L, x: x.unfold(1, 2, 1), A),
    "unfold_step": (lambda L, x: x.unfold(0, 2, 2), B),
    "unfold_bad": (lambda L, x: x.unfold(1, 5, 1), A),
    "as_strided": (lambda L, x: x.as_strided((2, 2), (1, 2)), A),
    "as_strided_off": (lambda L, x: x.as_strided((3,), (4,), 1), A),
    "atleast_3d": (lambda L, x: L.atleast_3d(x), V),
    "column_stack": (lambda L, x, y: L.column_stack([x, y]), V, V),
    "swapdims": (lambda L, x: x.swapdims(0, 1), A),
    "empty_cat": (lambda L, x: L.cat([x[:0], x]), A),
    "zero_d_flip": (lambda L, x: x.flip(()), S),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_shape_op(name, dtype):
    fn, *inputs = CASES[name]
    ins = []
    for a in inputs:
        if isinstance(a, NC):
            ins.append(NC(a.arr.astype(dtype)))
        elif isinstance(a, np.ndarray) and a.dtype.kind == "f":
            ins.append(a.astype(dtype))
        else:
            ins.append(a)
    check(fn, *ins)


VIEWS = {
    "view": lambda x: x.view(12), "t": lambda x: x.t(), "T": lambda x: x.T,
    "expand": lambda x: x[None].expand(2, 3, 4), "select": lambda x: x[1],
    "slice": lambda x: x[:, 1:3], "split": lambda x: x.split(2)[1],
    "chunk": lambda x: x.chunk(2)[0],
    "unbind": lambda x: x.unbind()[2], "narrow": lambda x: x.narrow(1, 1, 2),
    "unflatten": lambda x: x.unflatten(1, (2, 2)), "movedim": lambda x: x.movedim(0, 1),
    "diag_unfold": lambda x: x.unfold(1, 2, 1), "as_strided": lambda x: x.as_strided((2,), (1,)),
    "tensor_split": lambda x: x.tensor_split(2)[0], "meshgrid": None,
    "alias": lambda x: x[...], "mT": lambda x: x.mT, "broadcast_to": lambda x: x.broadcast_to(
        (2, 3, 4)),
    "flip": lambda x: x.flip(0), "roll": lambda x: x.roll(1), "repeat": lambda x: x.repeat(1, 1),
    "clone": lambda x: x.clone(), "contiguous_nc": lambda x: x.t().contiguous(),
    "reshape_nc": lambda x: x.t().reshape(12), "index": lambda x: x[[0, 1]],
    "mask": lambda x: x[x > 0],
}


@pytest.mark.parametrize("name", [k for k, v in VIEWS.items() if v is not None])
def test_views_share_storage_and_version(name):
    """A view shares storage and version counter (and has ``_base``) exactly where torch's do."""
    fn = VIEWS[name]
    res = []
    for L in (torch, ember):
        x = L.from_numpy(arr((3, 4), seed=7))
        v = fn(x)
        shared = bool(np.shares_memory(x.numpy(), v.numpy()))
        before = v._version
        x.add_(1)
        res.append((v._is_view(), v._base is x, shared, v._version - before))
    assert res[0] == res[1], f"torch {res[0]} vs ember {res[1]}"


def test_in_place_on_views_gradients():
    """``x = a.clone(); x[0].mul_(2); x[:, 1] = y``: CopySlices gives a and y their gradients."""
    def fn(L, a, y):
        x = a.clone()
        x[0].mul_(2)
        x[:, 1] = y
        x[1:, 2:].exp_()
        return x * x
    check(fn, arr((3, 4), "float64"), arr((3,), "float64", seed=3))


def test_setitem_non_leaf_grad_fn():
    def fn(L, a):
        c = a * 1
        c[0] = 5.
        return c
    t, e = check(fn, A)
    assert type(t.grad_fn).__name__ == type(e.grad_fn).__name__ == "CopySlices"
    assert t.grad_fn.name() == e.grad_fn.name() == "torch::autograd::CopySlices"
    assert repr(t) == repr(e)


@pytest.mark.parametrize("make", [lambda x: x.unbind()[0], lambda x: x.split(2)[1],
                                  lambda x: x.chunk(2)[0], lambda x: x.split([1, 2])[0],
                                  lambda x: x.unbind()[0][1]])
def test_multi_output_view_inplace_errors(make):
    errors_alike(lambda L: make(L.ones(3, 4, requires_grad=True) * 1).mul_(2))
    errors_alike(lambda L: make(L.ones(3, 4, requires_grad=True)).add_(1))


def test_no_grad_view_inplace_error():
    def fn(L):
        x = L.ones(3, requires_grad=True)
        with L.no_grad():
            v = x[:2]
        v.mul_(2)
    errors_alike(fn)


def test_multi_output_view_without_grad_is_fine():
    for L in (torch, ember):
        a = L.ones(3, 4)
        a.unbind()[0].mul_(2)
        assert a.sum().item() == 16


@pytest.mark.parametrize("case", ["unfold", "rot90", "roll", "repeat", "flip", "split",
                                  "as_strided", "movedim", "repeat_interleave_t", "tile_more"])
def test_gradcheck(case):
    fn, *inputs = CASES[case]
    ts = [ember.from_numpy(a.astype("float64")).requires_grad_()
          if isinstance(a, np.ndarray) and a.dtype.kind == "f" else
          (ember.from_numpy(a) if isinstance(a, np.ndarray) else a) for a in inputs]
    diff = [t for t in ts if isinstance(t, ember.Tensor) and t.requires_grad]

    def f(*d):
        it = iter(d)
        args = [next(it) if isinstance(t, ember.Tensor) and t.requires_grad else t for t in ts]
        out = fn(ember, *args)
        return out if isinstance(out, ember.Tensor) else tuple(out)
    assert ember.autograd.gradcheck(f, tuple(diff))
    assert ember.autograd.gradgradcheck(f, tuple(diff))


def test_raw_unused():
    assert Raw(1).value == 1
