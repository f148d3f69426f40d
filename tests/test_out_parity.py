"""``out=`` on ops as torch handles it: resizing (with its warning), the dtype rule of
TensorIterator ops, and the error for an output whose elements share memory."""

import warnings

import pytest

import ember

torch = pytest.importorskip("torch")

CASES = {
    "add_out_resize": lambda L: L.add(L.ones(3), 1, out=L.empty(2)),
    "add_out_empty": lambda L: L.add(L.ones(3), 1, out=L.empty(0)),
    "add_out_dtype": lambda L: L.add(L.ones(3), 1, out=L.empty(3, dtype=L.long)),
    "add_out_grad": lambda L: L.add(L.ones(3, requires_grad=True), 1, out=L.empty(3)),
    "mm_out": lambda L: L.mm(L.ones(2, 3), L.ones(3, 2), out=L.empty(2, 2)),
    "mm_out_wrong": lambda L: L.mm(L.ones(2, 3), L.ones(3, 2), out=L.empty(3, 3)),
    "sum_out": lambda L: L.sum(L.ones(2, 3), 1, out=L.empty(2)),
    "cat_out": lambda L: L.cat([L.ones(2), L.ones(1)], out=L.empty(3)),
    "cat_out_resize": lambda L: L.cat([L.ones(2), L.ones(1)], out=L.empty(5)),
    "exp_out_noncontig": lambda L: (lambda o: (L.exp(L.ones(2, 3), out=o), o.stride())[1])(
        L.empty(3, 2).t()
    ),
    "max_out": lambda L: L.max(L.ones(2, 3), 1, out=(L.empty(2), L.empty(2, dtype=L.long))),
    "matmul_out": lambda L: L.matmul(L.ones(2, 3), L.ones(3), out=L.empty(2)),
    "where_out": lambda L: L.where(L.ones(2) > 0, L.ones(2), L.zeros(2), out=L.empty(2)),
    "arange_out": lambda L: L.arange(5, out=L.empty(2)),
    "linspace_out": lambda L: L.linspace(0, 1, 5, out=L.empty(5, dtype=L.float64)),
    "randn_out": lambda L: L.randn(3, out=L.empty(3)),
    "zeros_out": lambda L: L.zeros(2, 2, out=L.empty(4)),
    "mul_out_int": lambda L: L.mul(L.ones(2, dtype=L.long), 2.5, out=L.empty(2)),
    "div_out_int": lambda L: L.div(L.ones(2, dtype=L.long), 2, out=L.empty(2, dtype=L.long)),
    "clamp_out": lambda L: L.clamp(L.randn(3), -0.5, 0.5, out=L.empty(3)),
    "sort_out": lambda L: L.sort(L.tensor([3.0, 1, 2]), out=(L.empty(3), L.empty(3, dtype=L.long))),
    "topk_out": lambda L: L.topk(
        L.tensor([3.0, 1, 2]), 2, out=(L.empty(2), L.empty(2, dtype=L.long))
    ),
    "abs_out_self": lambda L: (lambda a: (L.abs(a, out=a), a)[1])(L.tensor([-1.0, 2])),
    "add_out_overlap": lambda L: (lambda a: L.add(a, 1, out=a.expand(2, 2)))(L.ones(2)),
}


def _outcome(lib, fn):
    lib.manual_seed(0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            y = fn(lib)
            if isinstance(y, tuple) and y and isinstance(y[0], int):
                value = ("ok", y)
            elif isinstance(y, tuple):
                value = ("ok", [(tuple(v.shape), str(v.dtype)[6:], v.tolist()) for v in y])
            else:
                value = ("ok", tuple(y.shape), str(y.dtype)[6:], y.tolist())
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            value = ("err", type(e).__name__, str(e))
    return value, [(x.category.__name__, str(x.message).split(" (Triggered")[0]) for x in w]


@pytest.mark.parametrize("name", sorted(CASES))
def test_out_as_torch(name):
    got, want = _outcome(ember, CASES[name]), _outcome(torch, CASES[name])
    assert repr(got).replace("ember", "torch") == repr(want)
