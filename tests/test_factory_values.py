"""Python numbers go straight to the requested dtype, as in torch (never through float32).

``torch.tensor([1e-300, 1e300], dtype=torch.float64)`` keeps both values; an int64 beyond 2**53
stays exact; complex parts keep their precision. Checked against torch for ``tensor``,
``as_tensor``, ``full``, ``new_tensor`` and nested lists: values, dtypes and errors.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

BIG = 2 ** 53 + 1
DATA = [
    ([1e-300, 1e300], "float64"),
    ([1e-300, 1e300], None),
    ([[0.1, 2], [3, 1e-310]], "float64"),
    ([[[0.1], [1e-320]]], "float64"),
    (0.1, "float64"),
    (1e300, "float64"),
    (1e300, "float16"),
    ([1e300], "float32"),
    ([0.1, 1 / 3], "float64"),
    ([BIG, 0.5], "int64"),
    ([BIG], "int64"),
    ([BIG], "float64"),
    ([2 ** 62 + 1, 2], None),
    (2 ** 62 + 1, "int64"),
    ([2 ** 63 - 1], None),
    ([2 ** 64], "float64"),
    ([2 ** 63], "float64"),
    ([1.7, -1.7], "int32"),
    ([2 ** 40 + 1], "int32"),
    ([0.5, 2, 0], "bool"),
    ([True, 2.5], "float64"),
    ([1 + 1e-300j], "complex128"),
    ([1e-300 + 1e300j, 2], "complex128"),
    ([1e300 + 1j], "complex64"),
    ([0.1 + 0.2j], None),
    ([[1, 2.5], [1e-300j, 3]], "complex128"),
]


def _outcome(lib, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn(lib)
        except Exception as e:   # noqa: BLE001 - the error class is compared
            return type(e).__name__
    return str(r.dtype).split(".")[-1], r.tolist()


def _same(fn):
    t, e = _outcome(torch, fn), _outcome(ember, fn)
    assert t == e


def _dt(lib, name):
    return None if name is None else getattr(lib, name)


@pytest.mark.parametrize("data,dtype", DATA, ids=[f"{i}" for i in range(len(DATA))])
def test_tensor_values(data, dtype):
    _same(lambda lib: lib.tensor(data, dtype=_dt(lib, dtype)))


@pytest.mark.parametrize("data,dtype", DATA, ids=[f"{i}" for i in range(len(DATA))])
def test_as_tensor_values(data, dtype):
    _same(lambda lib: lib.as_tensor(data, dtype=_dt(lib, dtype)))


@pytest.mark.parametrize("data,dtype", DATA, ids=[f"{i}" for i in range(len(DATA))])
def test_new_tensor_values(data, dtype):
    _same(lambda lib: lib.zeros(1, dtype=lib.float64).new_tensor(data, dtype=_dt(lib, dtype)))


@pytest.mark.parametrize("value,dtype", [(1e-300, "float64"), (0.1, "float64"),
                                         (BIG, "int64"), (BIG, None), (1e300, None),
                                         (1e-300 + 1e300j, "complex128"), (0.1 + 1j, None),
                                         (1e300, "float16"), (2 ** 62 + 1, "float32"),
                                         (300, "int8"), (-1, "uint8"), (-300, "uint8"),
                                         (float("nan"), "int32"), (1.5, "int64"),
                                         (float("inf"), "float32"), (1e300, "complex64"),
                                         (0.5 + 0j, "float64")])
@pytest.mark.parametrize("size", [(2,), (1,), ()])
def test_full_values(value, dtype, size):
    _same(lambda lib: lib.full(size, value, dtype=_dt(lib, dtype)))
    _same(lambda lib: lib.full_like(lib.zeros(2, dtype=lib.float64), value,
                                    dtype=_dt(lib, dtype)))


def test_new_tensor_keeps_own_dtype():
    x = ember.zeros(1, dtype=ember.float64)
    assert x.new_tensor([1e-300]).tolist() == [1e-300]
    assert np.array_equal(x.new_tensor([0.1]).numpy(), np.array([0.1]))
