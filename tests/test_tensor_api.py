"""Tensors against torch 2.13: dtypes and promotion, factories, conversions, Python protocols."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .helpers import arr, check, compare_tensors, ember, errors_alike, run_both, torch

DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
PAIRS = list(itertools.product(DTYPES, DTYPES))


def _t(lib, dt, ndim=1):
    shape = (2,) * ndim
    return lib.ones(shape, dtype=getattr(lib, dt))


@pytest.mark.parametrize("a,b", PAIRS)
def test_promote_types(a, b):
    assert str(torch.promote_types(getattr(torch, a), getattr(torch, b))) == \
        str(ember.promote_types(getattr(ember, a), getattr(ember, b)))


@pytest.mark.parametrize("a,b", PAIRS)
@pytest.mark.parametrize("dims", [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_result_type_tensors(a, b, dims):
    t = torch.result_type(_t(torch, a, dims[0]), _t(torch, b, dims[1]))
    e = ember.result_type(_t(ember, a, dims[0]), _t(ember, b, dims[1]))
    assert str(t) == str(e)


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("scalar", [1, 1.5, True, 1 + 2j])
@pytest.mark.parametrize("ndim", [0, 1])
def test_result_type_scalars(a, scalar, ndim):
    if a == "float16" and isinstance(scalar, complex):
        pytest.skip("torch gives complex32, which NumPy (so ember) has no dtype for")
    t = torch.result_type(_t(torch, a, ndim), scalar)
    e = ember.result_type(_t(ember, a, ndim), scalar)
    assert str(t) == str(e)


@pytest.mark.parametrize("a,b", PAIRS)
@pytest.mark.parametrize("op", ["add", "mul", "div", "eq", "lt"])
def test_op_result_dtype_matrix(a, b, op):
    def fn(t):
        x = _t(t, a, 1)
        y = _t(t, b, 0)
        return getattr(t, op)(x, y), getattr(t, op)(y, x), getattr(t, op)(x, _t(t, b, 1))
    res = run_both(fn)
    if res is not None:
        for tt, et in zip(*res):
            assert str(tt.dtype) == str(et.dtype)
            np.testing.assert_array_equal(tt.numpy().astype(np.float64),
                                          et.numpy().astype(np.float64))


def test_default_dtype():
    assert ember.get_default_dtype() is ember.float32
    try:
        ember.set_default_dtype(ember.float64)
        torch.set_default_dtype(torch.float64)
        for fn in (lambda t: t.tensor([1.5]), lambda t: t.ones(2), lambda t: t.arange(0.0, 1, .5),
                   lambda t: t.tensor([1]) * 1.5, lambda t: t.tensor([1]) / 2,
                   lambda t: t.linspace(0, 1, 3), lambda t: t.full((2,), 1.5),
                   lambda t: t.tensor(1j), lambda t: t.tensor([1], dtype=t.float32) * 1.5):
            compare_tensors(fn(torch), fn(ember), "default float64")
        assert str(torch.result_type(torch.tensor([1]), 2.5)) == \
            str(ember.result_type(ember.tensor([1]), 2.5))
    finally:
        ember.set_default_dtype(ember.float32)
        torch.set_default_dtype(torch.float32)
    errors_alike(lambda t: t.set_default_dtype(t.int64))


FACTORIES = {
    "tensor_f": lambda t: t.tensor([[1.0, 2], [3, 4]]),
    "tensor_i": lambda t: t.tensor([1, 2, 3]),
    "tensor_b": lambda t: t.tensor([True, False]),
    "tensor_mixed": lambda t: t.tensor([1, 2.5, True]),
    "tensor_scalar": lambda t: t.tensor(3),
    "tensor_scalar_f": lambda t: t.tensor(3.5),
    "tensor_empty": lambda t: t.tensor([]),
    "tensor_dtype": lambda t: t.tensor([1, 2], dtype=t.float64),
    "tensor_dtype_i": lambda t: t.tensor([1.7, -2.7], dtype=t.int32),
    "tensor_np": lambda t: t.tensor(np.arange(3, dtype=np.int32)),
    "tensor_np_f64": lambda t: t.tensor(np.ones(2)),
    "tensor_npscalar": lambda t: t.tensor([np.float64(1.5), 2.0]),
    "tensor_ragged": lambda t: t.tensor([[1, 2], [3]]),
    "tensor_str": lambda t: t.tensor(["a"]),
    "tensor_rg_int": lambda t: t.tensor([1, 2], requires_grad=True),
    "as_tensor": lambda t: t.as_tensor([1, 2]),
    "as_tensor_dt": lambda t: t.as_tensor(np.ones(3, np.float32), dtype=t.float64),
    "from_numpy": lambda t: t.from_numpy(np.arange(6, dtype=np.int16).reshape(2, 3)),
    "from_numpy_u8": lambda t: t.from_numpy(np.arange(3, dtype=np.uint8)),
    "zeros": lambda t: t.zeros(2, 3),
    "zeros_t": lambda t: t.zeros((2, 3), dtype=t.int64),
    "zeros_0": lambda t: t.zeros(()),
    "zeros_neg": lambda t: t.zeros(2, -1),
    "ones": lambda t: t.ones([3], dtype=t.bool),
    "full": lambda t: t.full((2,), 7),
    "full_f": lambda t: t.full((2,), 7.5),
    "full_b": lambda t: t.full((2,), True),
    "full_dt": lambda t: t.full((2, 2), 3, dtype=t.float16),
    "empty": lambda t: t.empty(2, 3).shape,
    "arange": lambda t: t.arange(5),
    "arange2": lambda t: t.arange(1, 4),
    "arange_f": lambda t: t.arange(0, 1, 0.1),
    "arange_f2": lambda t: t.arange(-1.5, 2.3, 0.3),
    "arange_f3": lambda t: t.arange(0.5, 10.25, 0.7, dtype=t.float64),
    "arange_neg": lambda t: t.arange(5, 0, -1),
    "arange_negf": lambda t: t.arange(1, -1, -0.25),
    "arange_dt": lambda t: t.arange(5, dtype=t.float32),
    "arange_f16": lambda t: t.arange(0, 2, 0.3, dtype=t.float16),
    "arange_int_float": lambda t: t.arange(0, 5.5),
    "arange_bad": lambda t: t.arange(0, 5, -1),
    "arange_zero": lambda t: t.arange(0, 5, 0),
    "linspace": lambda t: t.linspace(0, 1, 5),
    "linspace2": lambda t: t.linspace(-3.3, 7.1, 17),
    "linspace3": lambda t: t.linspace(0, 1, 100),
    "linspace64": lambda t: t.linspace(-1, 1, 11, dtype=t.float64),
    "linspace_int": lambda t: t.linspace(0, 10, 4, dtype=t.int64),
    "linspace1": lambda t: t.linspace(2, 3, 1),
    "linspace0": lambda t: t.linspace(2, 3, 0),
    "linspace_neg": lambda t: t.linspace(0, 1, -1),
    "eye": lambda t: t.eye(3),
    "eye2": lambda t: t.eye(2, 4, dtype=t.int64),
    "zeros_like": lambda t: t.zeros_like(t.ones(2, dtype=t.int32)),
    "ones_like": lambda t: t.ones_like(t.ones(2), dtype=t.float64),
    "full_like": lambda t: t.full_like(t.ones(2, dtype=t.int64), 2.7),
    "full_like_f": lambda t: t.full_like(t.ones(2), 2),
    "empty_like": lambda t: t.empty_like(t.ones(2, 3, dtype=t.int8)).dtype,
    "rg": lambda t: t.zeros(2, requires_grad=True),
    "rg_like": lambda t: t.ones_like(t.ones(2), requires_grad=True),
}


@pytest.mark.parametrize("name", list(FACTORIES))
def test_factories(name):
    check(lambda t: FACTORIES[name](t), grad=False)


RANGES = [(0, 1, 0.1), (-1.5, 2.3, 0.3), (0.1, 0.1 + 0.37 * 12, 0.37), (5, 0, -1), (1, -1, -0.25),
          (0, 5.5), (0.0, 5.5), (10, 0, -3), (0, 10, 3), (0.5, 10.2, 2.5), (-3, 4.5, 1.5),
          (-5, 5, 0.01), (0.1, 1000.3, 0.37)]     # float64's vector lanes: base + i*step fused


@pytest.mark.parametrize("args", RANGES, ids=str)
@pytest.mark.parametrize("dt", [None, "float32", "float64", "int64", "int32", "float16"])
def test_arange_exact(args, dt):
    def fn(t):
        kw = {} if dt is None else {"dtype": getattr(t, dt)}
        return t.arange(*args, **kw)
    res = run_both(fn)
    if res is not None:
        assert str(res[0].dtype) == str(res[1].dtype)
        assert res[0].tolist() == res[1].tolist()


@pytest.mark.parametrize("args", [(0, 1, 5), (-2.5, 13.25, 7), (2, 3, 1), (0, 10, 4), (3, -3, 6)],
                         ids=str)
@pytest.mark.parametrize("dt", [None, "float64", "int64", "float16"])
def test_linspace_exact_small(args, dt):
    def fn(t):
        kw = {} if dt is None else {"dtype": getattr(t, dt)}
        return t.linspace(*args, **kw)
    res = run_both(fn)
    if res is not None:
        assert res[0].tolist() == res[1].tolist()


def test_from_numpy_shares_memory():
    for lib in (torch, ember):
        a = np.zeros(3, np.float32)
        t = lib.from_numpy(a)
        a[0] = 5
        assert t[0].item() == 5
        t.add_(1)
        assert a[1] == 1
        u = lib.as_tensor(a)
        u[2] = 9
        assert a[2] == 9
        c = lib.tensor(a)
        c[0] = -1
        assert a[0] == 6
    errors_alike(lambda t: t.from_numpy([1, 2]))


METHODS = {
    "numpy": lambda t, x: x.numpy(),
    "item": lambda t, x: x.sum().item(),
    "item_many": lambda t, x: x.item(),
    "tolist": lambda t, x: x.tolist(),
    "size": lambda t, x: x.size(),
    "size0": lambda t, x: x.size(0),
    "size_neg": lambda t, x: x.size(-1),
    "size_bad": lambda t, x: x.size(5),
    "shape": lambda t, x: x.shape,
    "dim": lambda t, x: x.dim(),
    "ndim": lambda t, x: x.ndim,
    "numel": lambda t, x: x.numel(),
    "dtype": lambda t, x: str(x.dtype),
    "device": lambda t, x: str(x.device),
    "clone": lambda t, x: x.clone(),
    "contiguous": lambda t, x: x.t().contiguous(),
    "is_contiguous": lambda t, x: (x.is_contiguous(), x.t().is_contiguous()),
    "stride": lambda t, x: (x.stride(), x.t().stride()),
    "float": lambda t, x: x.float(),
    "double": lambda t, x: x.double(),
    "half": lambda t, x: x.half(),
    "long": lambda t, x: x.long(),
    "int": lambda t, x: x.int(),
    "bool": lambda t, x: x.bool(),
    "to_dt": lambda t, x: x.to(t.int16),
    "to_dt_kw": lambda t, x: x.to(dtype=t.float64),
    "to_cpu": lambda t, x: x.to("cpu"),
    "to_dev": lambda t, x: x.to(t.device("cpu"), t.float64),
    "to_other": lambda t, x: x.to(t.ones(1, dtype=t.int8)),
    "cpu": lambda t, x: x.cpu(),
    "type": lambda t, x: x.type(),
    "type_conv": lambda t, x: x.type(t.float64),
    "type_str": lambda t, x: x.type("torch.IntTensor"),
    "type_as": lambda t, x: x.type_as(t.ones(1, dtype=t.int64)),
    "len": lambda t, x: len(x),
    "iter": lambda t, x: list(x),
    "bool_many": lambda t, x: bool(x),
    "bool_one": lambda t, x: bool(x[0, 0]),
    "float_one": lambda t, x: float(x[0, 1]),
    "int_one": lambda t, x: int(x[1, 1]),
    "float_many": lambda t, x: float(x),
    "int_many": lambda t, x: int(x),
    "index": lambda t, x: [0, 1, 2, 3][x.long()[0, 0]],
    "new_zeros": lambda t, x: x.new_zeros(2),
    "new_ones": lambda t, x: x.new_ones((1, 2)),
    "new_full": lambda t, x: x.new_full((2,), 3),
    "new_tensor": lambda t, x: x.new_tensor([1, 2]),
    "element_size": lambda t, x: x.element_size(),
    "is_floating_point": lambda t, x: (x.is_floating_point(), t.is_floating_point(x)),
    "repr_dtype": lambda t, x: repr(x.dtype),
}


@pytest.mark.parametrize("name", list(METHODS))
@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "int32", "bool", "uint8"])
def test_methods(name, dt):
    data = arr((2, 3), dt, 1, positive=True)
    res = check(METHODS[name], data, grad=False)
    if res is not None and name == "numpy":
        assert str(res[0].dtype) == str(res[1].dtype)


@pytest.mark.parametrize("fn", [
    lambda t, x: x.item(),
    lambda t, x: len(x),
    lambda t, x: list(x),
    lambda t, x: bool(x),
    lambda t, x: float(x),
    lambda t, x: int(x),
    lambda t, x: x.tolist(),
    lambda t, x: x.size(),
    lambda t, x: [1, 2, 3][x.long()],
    lambda t, x: [1, 2, 3][x],
])
@pytest.mark.parametrize("dt", ["float32", "int64", "bool"])
def test_zero_dim_protocols(fn, dt):
    check(fn, arr((), dt, 2, positive=True), grad=False)


@pytest.mark.parametrize("fn", [
    lambda t: bool(t.tensor([])),
    lambda t: t.tensor([]).item(),
    lambda t: t.ones(2, requires_grad=True).numpy(),
    lambda t: t.ones(2).cuda(),
    lambda t: t.ones(2).to("cuda"),
    lambda t: t.ones(2, device="cuda"),
    lambda t: t.device("gpu"),
    lambda t: t.ones(2).type("torch.Foo"),
])
def test_errors(fn):
    errors_alike(fn)


def test_device():
    for lib in (torch, ember):
        d = lib.device("cpu")
        assert repr(d) == "device(type='cpu')" and str(d) == "cpu" and d.type == "cpu"
        assert d.index is None
        assert lib.ones(1).device == d
        assert lib.ones(1).device == lib.device("cpu")
        assert repr(lib.device("cpu", 0)) == "device(type='cpu', index=0)"
        assert str(lib.device("cuda:1")) == "cuda:1"
        assert lib.ones(2).cpu().device.type == "cpu"
        assert not lib.ones(1).is_cuda
    x = ember.ones(2)
    assert x.cpu() is x and x.to("cpu") is x
    assert not ember.cuda.is_available()


def test_to_returns_self_or_copy():
    for lib in (torch, ember):
        x = lib.ones(3)
        assert x.to(lib.float32) is x and x.float() is x
        assert x.to(lib.float32, copy=True) is not x
        y = x.contiguous()
        assert y is x


def test_conversion_grad_fn():
    check(lambda t, x: x.double(), arr((3,)))
    check(lambda t, x: x.to(t.float16), arr((3,)))
    check(lambda t, x: x.float(), arr((3,), "float64"))
    check(lambda t, x: x.float(), arr((3,)))
    check(lambda t, x: x.t().contiguous(), arr((2, 3)))
    check(lambda t, x: x.contiguous(), arr((2, 3)))
    check(lambda t, x: x.long(), arr((3,)))
