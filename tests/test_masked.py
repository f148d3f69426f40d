"""MaskedTensor (``torch.masked``) against torch: printing byte for byte, data and mask bits
of op results, the prototype warning, torch's errors, and gradients."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember

from .helpers import torch

LIBS = (torch, ember)
DATA = [[0.0, 1.5, -2.25], [3.0, 1e-5, 123456.0]]
MASK = [[True, False, True], [False, True, True]]

pytestmark = pytest.mark.filterwarnings("ignore:The PyTorch API of MaskedTensors")


def _mt(lib, data=DATA, mask=MASK, dtype=None, requires_grad=False):
    return lib.masked.masked_tensor(lib.tensor(data, dtype=dtype), lib.tensor(mask),
                                    requires_grad=requires_grad)


def _bits(t) -> tuple:
    a = t.detach().numpy()
    return str(t.dtype), a.shape, np.ascontiguousarray(a).view(np.uint8).tobytes()


def _same(want, got) -> None:
    """Same class, print, data bits (the unspecified elements' too) and mask."""
    if isinstance(want, (tuple, list)):
        for w, g in zip(want, got, strict=True):
            _same(w, g)
        return
    assert type(want).__name__ == type(got).__name__
    assert repr(want) == repr(got)
    if isinstance(want, torch.masked.MaskedTensor):
        assert str(want.dtype) == str(got.dtype) and tuple(want.shape) == tuple(got.shape)
        data_w, data_g = want.get_data(), got.get_data()
        mask_w, mask_g = want.get_mask(), got.get_mask()
        assert _bits(mask_w) == _bits(mask_g)
        # (unspecified elements: only where torch defines them, all of them here)
        assert _bits(data_w) == _bits(data_g)
    elif isinstance(want, torch.Tensor):
        assert _bits(want) == _bits(got)
    else:
        assert want == got


def both(fn) -> None:
    _same(fn(torch), fn(ember))


PRINTED = [
    lambda lib: _mt(lib),
    lambda lib: _mt(lib, dtype=lib.float64),
    lambda lib: _mt(lib, [[1, -20, 3], [4, 5, 600]], dtype=lib.int64),
    lambda lib: _mt(lib, [[True, False, True], [False, True, False]]),
    lambda lib: _mt(lib, [1.0, 2.0, 3.0, 4.0], [True, False, False, True]),
    lambda lib: _mt(lib, [[1.0, 2.0]], [[False, False]]),
    lambda lib: _mt(lib, 3.25, True),
    lambda lib: _mt(lib, 3.25, False),
    lambda lib: _mt(lib, 7, True),
    lambda lib: _mt(lib, 7, False),
    lambda lib: _mt(lib, [float("nan"), float("inf"), -1e9], [True, True, True]),
    lambda lib: lib.masked.masked_tensor(lib.arange(24.0).reshape(2, 3, 4) * 1000 - 5000,
                                         lib.arange(24).reshape(2, 3, 4) % 3 == 0),
    lambda lib: lib.masked.masked_tensor(lib.arange(6).reshape(1, 2, 3),
                                         lib.arange(6).reshape(1, 2, 3) > 2),
]


@pytest.mark.parametrize("fn", PRINTED)
def test_printing(fn):
    both(fn)
    both(lambda lib: str(fn(lib)))


def test_parts():
    both(lambda lib: _mt(lib).get_data())
    both(lambda lib: _mt(lib).get_mask())
    both(lambda lib: _mt(lib).to_tensor(-7.0))
    both(lambda lib: [tuple(_mt(lib).shape), str(_mt(lib).dtype), _mt(lib).dim(),
                      _mt(lib).is_sparse, _mt(lib).requires_grad, _mt(lib).numel(),
                      isinstance(_mt(lib), lib.Tensor), lib.masked.is_masked_tensor(_mt(lib)),
                      lib.masked.is_masked_tensor(lib.ones(1))])


def test_prototype_warning():
    def warned(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            _mt(lib)
            data = lib.ones(2, requires_grad=True)
            lib.masked.masked_tensor(data, lib.tensor([True, False]))
        return [(x.category.__name__, str(x.message)) for x in w]
    want, got = warned(torch), warned(ember)
    assert want == got and want[0][1].startswith("The PyTorch API of MaskedTensors")


ERRORS = [
    lambda lib: lib.masked.masked_tensor(lib.ones(2), lib.tensor([1, 0])),
    lambda lib: lib.masked.masked_tensor(lib.ones(2, 3), lib.tensor([True, False])),
    lambda lib: lib.masked.masked_tensor(lib.ones(2, 3), lib.ones(3, 2).bool()),
    lambda lib: lib.masked.masked_tensor([1.0, 2.0], lib.tensor([True, False])),
    lambda lib: lib.masked.masked_tensor(lib.ones(2), [True, False]),
    lambda lib: lib.masked.masked_tensor(_mt(lib), lib.tensor(MASK)),
    lambda lib: lib.masked.masked_tensor(lib.ones(2, dtype=lib.uint8), lib.tensor([True, False])),
    lambda lib: lib.masked.masked_tensor(lib.ones(2, dtype=lib.complex64),
                                         lib.tensor([True, False])),
    lambda lib: _mt(lib) + lib.masked.masked_tensor(lib.tensor(DATA), ~lib.tensor(MASK)),
    lambda lib: lib.mul(_mt(lib), lib.masked.masked_tensor(lib.tensor(DATA), ~lib.tensor(MASK))),
    lambda lib: _mt(lib, [1, 2, 3], [True, False, True]).mean(),
    lambda lib: _mt(lib).clamp(min=lib.tensor(0.0)),
    lambda lib: _mt(lib).sub(_mt(lib), alpha=2),
    lambda lib: 3 - _mt(lib),
    lambda lib: 2 ** _mt(lib),
    lambda lib: _mt(lib).any(),
    lambda lib: _mt(lib).item(),
    lambda lib: _mt(lib, 2.0, False).item(),
    lambda lib: 2 // _mt(lib),
    lambda lib: _mt(lib) @ _mt(lib),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_errors(fn):
    def err(lib):
        with pytest.raises(Exception) as info:
            fn(lib)
        return type(info.value).__name__, str(info.value)
    assert err(torch) == err(ember)


UNARY = ["abs", "neg", "exp", "expm1", "log", "sin", "cos", "tanh", "sigmoid", "sqrt",
         "square", "floor", "sign", "reciprocal", "isnan", "rsqrt", "trunc", "erf"]


@pytest.mark.parametrize("name", UNARY)
def test_unary(name):
    both(lambda lib: getattr(lib, name)(_mt(lib)))
    both(lambda lib: getattr(_mt(lib), name)())


def test_unary_arguments():
    both(lambda lib: lib.clamp(_mt(lib), -1.0, 2.0))
    both(lambda lib: _mt(lib).pow(2))
    both(lambda lib: -_mt(lib))
    both(lambda lib: abs(_mt(lib)))


def test_in_place():
    def run(lib):
        x = _mt(lib)
        y = x.add_(1)
        x.exp_()
        x *= x
        x.clamp_(0, 50.0)
        return [x, y is x]
    both(run)


BINARY = [
    lambda lib: _mt(lib) + _mt(lib),
    lambda lib: _mt(lib) - 1.5,
    lambda lib: 2 * _mt(lib),
    lambda lib: 1 / _mt(lib),
    lambda lib: _mt(lib) ** 2,
    lambda lib: _mt(lib) / _mt(lib),
    lambda lib: _mt(lib) * lib.tensor(DATA),
    lambda lib: lib.tensor(DATA) * _mt(lib),
    lambda lib: lib.tensor(DATA) + _mt(lib),
    lambda lib: _mt(lib) * lib.tensor([1.0, 2.0, 3.0]),
    lambda lib: lib.add(_mt(lib), _mt(lib)),
    lambda lib: lib.sub(_mt(lib), 2.0),
    lambda lib: lib.maximum(_mt(lib), _mt(lib) * 0.5),
    lambda lib: lib.atan2(_mt(lib), _mt(lib) + 1),
    lambda lib: _mt(lib) < 1.0,
    lambda lib: _mt(lib) >= _mt(lib),
    lambda lib: _mt(lib) == _mt(lib),
    lambda lib: _mt(lib) != 0.0,
    lambda lib: lib.gt(_mt(lib), 0.5),
    lambda lib: _mt(lib, [[1, 2, 3], [4, 5, 6]]) // 2,
    lambda lib: _mt(lib, [[1, 2, 3], [4, 5, 6]]) % 4,
]


@pytest.mark.parametrize("fn", BINARY)
def test_binary(fn):
    both(fn)


REDUCTIONS = ["sum", "mean", "amax", "amin", "argmax", "argmin", "prod"]
MASKS = [MASK, [[True, False, False], [False, False, False]],
         [[False, False, False], [False, False, False]], [[True] * 3] * 2]


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions(name, mask):
    both(lambda lib: getattr(_mt(lib, mask=mask), name)())
    both(lambda lib: getattr(lib, name)(_mt(lib, mask=mask)))
    for dim in (0, 1, -1):
        both(lambda lib, dim=dim: getattr(_mt(lib, mask=mask), name)(dim))
        both(lambda lib, dim=dim: getattr(lib, name)(_mt(lib, mask=mask), dim, keepdim=True))
    if name not in ("argmax", "argmin", "prod"):
        both(lambda lib: getattr(_mt(lib, mask=mask), name)(dim=(0, 1)))


@pytest.mark.parametrize("mask", MASKS)
def test_integer_and_bool_reductions(mask):
    ints = [[1, -2, 3], [4, 5, -6]]
    for name in REDUCTIONS[:1] + REDUCTIONS[2:]:
        both(lambda lib, name=name: getattr(_mt(lib, ints, mask), name)())
        both(lambda lib, name=name: getattr(_mt(lib, ints, mask), name)(1))
    both(lambda lib: _mt(lib, mask=mask).sum(1, dtype=lib.float64))
    both(lambda lib: (_mt(lib, mask=mask) > 0).all())
    both(lambda lib: (_mt(lib, mask=mask) > 0).all(1))
    both(lambda lib: lib.all(_mt(lib, mask=mask) > -1, 0))


def test_where():
    cond = [[True, True, False], [False, True, False]]
    both(lambda lib: lib.where(lib.tensor(cond), _mt(lib), _mt(lib, mask=[[False] * 3] * 2)))
    both(lambda lib: lib.where(lib.tensor(cond), _mt(lib), lib.zeros(2, 3)))
    both(lambda lib: lib.where(lib.tensor(cond), lib.ones(2, 3), _mt(lib)))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax(dim):
    mask = [[True, False, True], [False, False, False]]
    both(lambda lib: lib.softmax(_mt(lib, mask=mask), dim))
    both(lambda lib: _mt(lib, mask=MASK).softmax(dim))
    both(lambda lib: lib.nn.functional.softmax(_mt(lib, mask=mask), dim=dim))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dim", [((64, 33), 1), ((5, 64, 7), 1), ((6, 9), 0), ((7,), 0)])
def test_softmax_kernel(shape, dim, dtype):
    """torch's ``_masked_softmax`` loop (double sums, ``std::exp``) and its backward, bit
    for bit: a plain softmax of the input filled with -inf rounds otherwise."""
    rng = np.random.default_rng(len(shape) * 10 + dim)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    keep = rng.random(shape) > 0.3
    keep[0] = False
    w = rng.standard_normal(shape).astype(dtype)

    def run(lib):
        mt = lib.masked.masked_tensor(lib.tensor(x), lib.tensor(keep), requires_grad=True)
        y = lib.softmax(mt, dim)
        (y * lib.masked.masked_tensor(lib.tensor(w), lib.tensor(keep))).sum().backward()
        return [y.get_data().detach(), mt.grad.get_data().detach()]
    both(run)


def test_item():
    both(lambda lib: _mt(lib, 2.5, True).item())
    both(lambda lib: _mt(lib).sum().item())


def test_conversions():
    both(lambda lib: _mt(lib).to(lib.float64))
    both(lambda lib: _mt(lib).double())
    both(lambda lib: _mt(lib).long())
    both(lambda lib: _mt(lib, [1, 0, 2], [True, False, True]).float())
    both(lambda lib: _mt(lib).half())
    both(lambda lib: lib.softmax(_mt(lib), 1, dtype=lib.float64))


def test_indexing():
    both(lambda lib: _mt(lib)[0])
    both(lambda lib: _mt(lib)[:, 1:])
    both(lambda lib: _mt(lib).detach())
    both(lambda lib: _mt(lib).clone())


def _grad(lib, fn, data=DATA, mask=MASK):
    x = _mt(lib, data, mask, requires_grad=True)
    out = fn(lib, x)
    out.backward()
    return [x.grad, out, x.requires_grad, x.is_leaf]


GRADS = [
    lambda lib, x: x.sum(),
    lambda lib, x: lib.exp(x).sum(),
    lambda lib, x: (x * x).mean(),
    lambda lib, x: (x.sin() + 2 * x).sum(),
    lambda lib, x: x.amax(),
    lambda lib, x: (lib.softmax(x, 1) * 2).amax(),
    lambda lib, x: lib.softmax(x, 1).sum(),
    lambda lib, x: (lib.softmax(x, 0) * x).sum(),
    lambda lib, x: x.prod(),
    lambda lib, x: x.amax(1).sum(),
    lambda lib, x: x.mean(1).sum(),
]


@pytest.mark.parametrize("fn", GRADS)
def test_gradients(fn):
    both(lambda lib: _grad(lib, fn))


def test_zero_and_nan_gradient():
    """The tutorial: ``torch.where(mask, exp(x), 1)`` gives NaN gradients where ``exp``
    overflows; the masked version leaves them unspecified."""
    values = [-10.0, -5, 0, 5, 10, 50, 60, 70, 80, 90, 100]

    def plain(lib):
        x = lib.tensor(values, requires_grad=True)
        lib.where(x < 0, lib.exp(x), lib.ones_like(x)).sum().backward()
        return x.grad

    def masked(lib):
        x = lib.tensor(values)
        mask = x < 0
        mx = lib.masked.masked_tensor(x, mask, requires_grad=True)
        my = lib.masked.masked_tensor(lib.ones_like(x), ~mask, requires_grad=True)
        y = lib.where(mask, lib.exp(mx), my)
        s = y.sum()
        s.backward()
        return [s, mx.grad, my.grad]

    both(plain)
    both(masked)


def test_docstring_examples():
    import doctest

    import ember.masked._core as core
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = doctest.testmod(core, optionflags=doctest.ELLIPSIS)
    assert r.attempted and r.failed == 0
