"""Indexing and the gather/scatter/index/mask family against torch 2.13."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import NC, Raw, arr, check

A = arr((3, 4), seed=1)
B = arr((2, 3, 4), seed=2)
I2 = np.array([[0, 1], [2, 0], [1, 1]])
IV = np.array([0, 2])

GET = {
    "int": lambda L, x: x[1], "neg": lambda L, x: x[-1], "int2": lambda L, x: x[1, 2],
    "slice": lambda L, x: x[1:], "step": lambda L, x: x[::2, 1::2],
    "neg_slice": lambda L, x: x[-2:],
    "full": lambda L, x: x[:], "ellipsis": lambda L, x: x[...], "ell_int": lambda L, x: x[..., 1],
    "none": lambda L, x: x[None], "none_mid": lambda L, x: x[:, None, 1],
    "list": lambda L, x: x[[0, 2]], "list_neg": lambda L, x: x[[-1, 0, 0]],
    "tensor_idx": lambda L, x: x[L.tensor([[0, 1], [1, 0]])],
    "int_tensor0d": lambda L, x: x[L.tensor(1)],
    "mask": lambda L, x: x[x > 0], "mask_row": lambda L, x: x[L.tensor([True, False, True])],
    "two_adv": lambda L, x: x[[0, 1], [1, 0]],
    "adv_split": lambda L, x: x[[0, 1], :, [1, 2]], "int_slice_adv": lambda L, x: x[0, :, [0, 1]],
    "slice_adv": lambda L, x: x[:, 0, [0, 1]], "adv_none": lambda L, x: x[None, [1]],
    "adv_last": lambda L, x: x[..., [0, 3]], "slice_then_adv": lambda L, x: x[1:, [0, 1]],
    "mask_and_slice": lambda L, x: x[:, L.tensor([True, False, True])],
    "empty_list": lambda L, x: x[L.tensor([], dtype=L.long)],
    "oob": lambda L, x: x[5], "oob_list": lambda L, x: x[[5]], "oob_adv": lambda L, x: x[:, [0, 5]],
    "float_idx": lambda L, x: x[L.tensor([0.])], "neg_step": lambda L, x: x[::-1],
    "too_many": lambda L, x: x[0, 0, 0, 0],
    "mask_bad": lambda L, x: x[L.tensor([True, False, True])],
    "bcast_bad": lambda L, x: x[[0, 1], [0, 1, 2]],
    "empty_slice": lambda L, x: x[2:1],
}
GET_IN = {"mask_row": A, "mask_bad": B, "adv_split": B, "int_slice_adv": B, "slice_adv": B,
          "adv_none": B, "too_many": B, "mask_and_slice": arr((2, 3, 4), seed=3)}


@pytest.mark.parametrize("name", list(GET))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_getitem(name, dtype):
    x = GET_IN.get(name, B if name in ("ell_int", "none_mid") else A).astype(dtype)
    check(GET[name], x)
    if name in ("step", "two_adv", "slice_then_adv", "mask"):
        check(GET[name], NC(x))


def test_getitem_0d():
    check(lambda L, x: x[...], arr((), seed=1))
    check(lambda L, x: x[None], arr((), seed=1))
    check(lambda L, x: x[0], arr((), seed=1))


SET = {
    "int": lambda L, x, v: x.__setitem__(0, 5.),
    "slice_t": lambda L, x, v: x.__setitem__((slice(None), 1), v[:3]),
    "mask": lambda L, x, v: x.__setitem__(x > 0, 0.),
    "list": lambda L, x, v: x.__setitem__([0, 2], v),
    "list_bcast": lambda L, x, v: x.__setitem__(([0, 2],), v[:1]),
    "adv_slice": lambda L, x, v: x.__setitem__((slice(1, None), [0, 1]), v[:2]),
    "ellipsis": lambda L, x, v: x.__setitem__(Ellipsis, v),
    "step": lambda L, x, v: x.__setitem__((slice(None, None, 2),), v),
}


@pytest.mark.parametrize("name", list(SET))
def test_setitem_on_non_leaf(name):
    """``c[idx] = v`` on a non-leaf: CopySlices / IndexPutBackward0, grads to both."""
    def fn(L, a, v):
        c = a * 1
        SET[name](L, c, v)
        return c
    check(fn, arr((3, 4), "float64"), arr((4,), "float64", seed=5))


@pytest.mark.parametrize("name", list(SET))
def test_setitem_on_leaf_raises(name):
    check(lambda L, a, v: SET[name](L, a, v), A, arr((4,), seed=5))


def test_setitem_into_plain_tensor_records():
    def fn(L, v):
        z = L.zeros(3, 4, dtype=L.float64)
        z[1] = v
        z[[0, 2], 1:3] = v[:2]
        return z
    check(fn, arr((4,), "float64", seed=5))


def test_setitem_casts_value():
    check(lambda L, v: L.zeros(3).__setitem__(0, v) or 0, arr((), "float64"))

    def fn(L, v):
        z = L.zeros(3, dtype=L.int64)
        z[[0, 1]] = v
        return z
    check(fn, np.array([1.7, 2.2]), grad=False)


OPS = {
    "gather": (lambda L, x, i: x.gather(1, i), A, I2),
    "gather_fn": (lambda L, x, i: L.gather(x, 0, i), A, I2[:2]),
    "gather_bad_dim": (lambda L, x, i: x.gather(1, i[0]), A, I2),
    "gather_oob": (lambda L, x, i: x.gather(1, i + 5), A, I2),
    "gather_big": (lambda L, x: x.gather(1, L.zeros(4, 2, dtype=L.long)), A),
    "gather_float": (lambda L, x, i: x.gather(1, i.float()), A, I2),
    "scatter": (lambda L, x, i, s: x.scatter(1, i, s), A, np.array([[0, 1], [2, 3], [1, 0]]),
                arr((3, 2), seed=8)),
    "scatter_value": (lambda L, x, i: x.scatter(1, i, 2.5), A, I2),
    "scatter_bad_dtype": (lambda L, x, i: x.scatter(1, i, x.half()), A, I2),
    "scatter_add": (lambda L, x, i, s: x.scatter_add(0, i, s), A, I2, arr((3, 2), seed=8)),
    "scatter_add_big": (lambda L, x, i, s: x.scatter_add(1, i, s), A, I2, arr((2, 2), seed=8)),
    "scatter_reduce_sum": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "sum"), A, I2,
                           arr((3, 2), seed=8)),
    "scatter_reduce_sum_ex": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "sum",
                                                                  include_self=False),
                              A, I2, arr((3, 2), seed=8)),
    "scatter_reduce_mean": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "mean"), A, I2,
                            arr((3, 2), seed=8)),
    "scatter_reduce_mean_ex": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "mean",
                                                                   include_self=False),
                               A, I2, arr((3, 2), seed=8)),
    "scatter_reduce_amax": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "amax"), A, I2,
                            arr((3, 2), seed=8)),
    "scatter_reduce_amin_ex": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "amin",
                                                                   include_self=False),
                               A, I2, arr((3, 2), seed=8)),
    "scatter_reduce_prod": (lambda L, x, i, s: x.scatter_reduce(0, i, s, "prod"), A, I2,
                            arr((3, 2), seed=8, positive=True)),
    "scatter_reduce_bad": (lambda L, x, i: x.scatter_reduce(1, i, x, "foo"), A, I2),
    "index_select": (lambda L, x, i: x.index_select(0, i), A, IV),
    "index_select1": (lambda L, x, i: L.index_select(x, 1, i), NC(A), np.array([3, 0, 3])),
    "index_select_0d": (lambda L, x: x.index_select(0, L.tensor(1)), A),
    "index_select_vec": (lambda L, x: x.index_select(0, L.tensor([[0]])), A),
    "index_select_float": (lambda L, x: x.index_select(0, L.tensor([0.])), A),
    "index_select_oob": (lambda L, x: x.index_select(0, L.tensor([5])), A),
    "index_add": (lambda L, x, i, s: x.index_add(0, i, s), A, np.array([0, 2, 0]), A),
    "index_add_alpha": (lambda L, x, i, s: x.index_add(1, i, s, alpha=2.), A, IV,
                        arr((3, 2), seed=9)),
    "index_add_bad": (lambda L, x, i: x.index_add(0, i, L.ones(2, 4)), A, np.array([0])),
    "index_add_dtype": (lambda L, x, i: x.index_add(0, i, L.ones(1, 4).double()), A,
                        np.array([0])),
    "index_copy": (lambda L, x, i, s: x.index_copy(0, i, s), A, IV, arr((2, 4), seed=9)),
    "index_copy_bad": (lambda L, x, i: x.index_copy(0, i, L.ones(2, 4)), A, np.array([0])),
    "index_fill": (lambda L, x, i: x.index_fill(1, i, -1.), A, IV),
    "index_fill_t": (lambda L, x, i, v: x.index_fill(1, i, v), A, IV, arr((), seed=3)),
    "index_fill_oob": (lambda L, x: x.index_fill(0, L.tensor([5]), 1.), A),
    "index_fill_bad": (lambda L, x: x.index_fill(0, L.tensor([0]), L.ones(2)), A),
    "index_put": (lambda L, x, v: x.index_put((L.tensor([0, 2]),), v), A, arr((4,), seed=3)),
    "index_put_acc": (lambda L, x, v: x.index_put((L.tensor([0, 0]), L.tensor([1, 1])), v,
                                                  accumulate=True), A, arr((), seed=3)),
    "index_put_dtype": (lambda L, x: x.index_put((L.tensor([0]),), L.ones(1).double()), A),
    "masked_fill": (lambda L, x: x.masked_fill(x > 0, 1.5), A),
    "masked_fill_bcast": (lambda L, x, m: x.masked_fill(m, 0.), A, np.array([True, False] * 2)),
    "masked_fill_t": (lambda L, x, v: x.masked_fill(x > 0, v), A, arr((), seed=3)),
    "masked_fill_float": (lambda L, x: x.masked_fill(x, 1.), A),
    "masked_fill_vec": (lambda L, x: x.masked_fill(x > 0, L.ones(2)), A),
    "masked_fill_bcast_bad": (lambda L, x: x.masked_fill(L.ones(5) > 0, 1.), A),
    "masked_scatter": (lambda L, x, s: x.masked_scatter(x > 0, s), A, arr((3, 4), seed=3)),
    "masked_scatter_small": (lambda L, x: x.masked_scatter(x > 0, L.ones(1)), A),
    "masked_scatter_float": (lambda L, x: x.masked_scatter(x, L.ones(12)), A),
    "masked_select": (lambda L, x: x.masked_select(x > 0), A),
    "masked_select_bcast": (lambda L, x, m: L.masked_select(x, m), A,
                            np.array([True, False, False, True])),
    "masked_select_float": (lambda L, x: x.masked_select(x), A),
    "take": (lambda L, x, i: x.take(i), A, np.array([[0, 11], [-1, 5]])),
    "take_oob": (lambda L, x: x.take(L.tensor([12])), A),
    "take_float": (lambda L, x: x.take(L.tensor([1.])), A),
    "take_along_dim": (lambda L, x, i: x.take_along_dim(i, 1), A, I2),
    "take_along_dim_none": (lambda L, x, i: L.take_along_dim(x, i), A, np.array([0, 5])),
    "take_along_dim_bcast": (lambda L, x, i: x.take_along_dim(i, 1), A, np.array([[0, 3]])),
    "take_along_dim_float": (lambda L, x, i: x.take_along_dim(i.float(), 1), A, I2),
    "take_along_dim_rank": (lambda L, x: x.take_along_dim(L.zeros(2, 2, 2, dtype=L.long), 1),
                            A),
    "nonzero": (lambda L, x: (x > 0).nonzero(), A),
    "nonzero_tuple": (lambda L, x: L.nonzero(x > 0, as_tuple=True), B),
    "argwhere": (lambda L, x: L.argwhere(x > 0), B),
    "count_nonzero": (lambda L, x: L.count_nonzero(x > 0, 1), A),
}


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_op(name, dtype):
    fn, *inputs = OPS[name]
    ins = []
    for a in inputs:
        if isinstance(a, NC):
            ins.append(NC(a.arr.astype(dtype)))
        elif isinstance(a, np.ndarray) and a.dtype.kind == "f":
            ins.append(a.astype(dtype))
        else:
            ins.append(a)
    check(fn, *ins)


INPLACE = {
    "scatter_": lambda L, c, i, s: c.scatter_(1, i, s),
    "scatter_value_": lambda L, c, i, s: c.scatter_(1, i, 0.5),
    "scatter_add_": lambda L, c, i, s: c.scatter_add_(1, i, s),
    "scatter_reduce_": lambda L, c, i, s: c.scatter_reduce_(1, i, s, "sum"),
    "index_add_": lambda L, c, i, s: c.index_add_(1, i[0], s),
    "index_copy_": lambda L, c, i, s: c.index_copy_(1, i[0], s),
    "index_fill_": lambda L, c, i, s: c.index_fill_(1, i[0], 2.),
    "index_put_": lambda L, c, i, s: c.index_put_((i[0],), s[:2, 0].reshape(2, 1)),
    "masked_fill_": lambda L, c, i, s: c.masked_fill_(c > 0, 2.),
    "masked_scatter_": lambda L, c, i, s: c.masked_scatter_(c > 0, s.repeat(2, 2)),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_on_non_leaf(name):
    def fn(L, a, i, s):
        c = a * 1
        INPLACE[name](L, c, i, s)
        return c
    check(fn, arr((3, 4), "float64"), np.array([[0, 1], [2, 0], [1, 1]]),
          arr((3, 2), "float64", seed=8))


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_on_leaf_raises(name):
    check(lambda L, a, i, s: INPLACE[name](L, a, i, s), A, I2, arr((3, 2), seed=8))


@pytest.mark.parametrize("name", ["gather", "scatter", "scatter_add", "index_select",
                                  "index_add_alpha", "index_copy", "index_fill_t", "masked_fill_t",
                                  "masked_scatter", "masked_select", "take", "index_put",
                                  "scatter_reduce_mean", "scatter_reduce_amax"])
def test_gradcheck(name):
    import ember
    fn, *inputs = OPS[name]
    ts = [ember.from_numpy(a.astype("float64")).requires_grad_()
          if isinstance(a, np.ndarray) and a.dtype.kind == "f" else
          (ember.from_numpy(a) if isinstance(a, np.ndarray) else a) for a in inputs]
    diff = [t for t in ts if isinstance(t, ember.Tensor) and t.requires_grad]

    def f(*d):
        it = iter(d)
        return fn(ember, *[next(it) if isinstance(t, ember.Tensor) and t.requires_grad else t
                           for t in ts])
    assert ember.autograd.gradcheck(f, tuple(diff))
    if name not in ("scatter_reduce_amax",):
        assert ember.autograd.gradgradcheck(f, tuple(diff))


def test_getitem_gradgradcheck():
    import ember
    x = ember.from_numpy(arr((3, 4), "float64")).requires_grad_()
    f = lambda t: t[1:, [0, 2]] * t[0, ::2]  # noqa: E731
    assert ember.autograd.gradcheck(f, (x,)) and ember.autograd.gradgradcheck(f, (x,))


def test_raw():
    assert Raw(0).value == 0


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_with_reduce_is_not_differentiable(reduce):
    """torch: a NotImplemented node, and its error on backward; values as torch's."""
    import warnings
    idx = np.array([0, 1, 0])
    x, s = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)     # torch's deprecation of Tensor src
        check(lambda L, x, s: (x * 1).scatter(0, L.tensor(idx), s, reduce=reduce), x, s,
              grad=False)
        check(lambda L, x, s: (x * 1).scatter(0, L.tensor(idx), s, reduce=reduce)
              .sum().backward(), x, s)
        check(lambda L, x: (x * 1).scatter(0, L.tensor(idx), 2.0, reduce=reduce)
              .sum().backward(), x)
        check(lambda L, x: (x * 1).scatter_(0, L.tensor(idx), 2.0, reduce=reduce)
              .grad_fn.name(), x, grad=False)
