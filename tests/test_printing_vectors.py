"""Tensor printing against the strings real torch 2.13 produced (tests/data/print_vectors.json)."""

from __future__ import annotations

import json
import math
import sys
import timeit
from pathlib import Path

import numpy as np
import pytest

try:
    from ember import _printing
except ImportError:  # source tree not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from ember import _printing

format_tensor = _printing.format_tensor
set_printoptions = _printing.set_printoptions
get_printoptions = _printing.get_printoptions
printoptions = _printing.printoptions

_VECTORS = json.loads((Path(__file__).parent / "data" / "print_vectors.json").read_text())
CASES = _VECTORS["cases"]

_NP_DTYPES = {
    "float32": np.float32, "float64": np.float64, "float16": np.float16,
    "bfloat16": np.float32, "int64": np.int64, "int32": np.int32, "int16": np.int16,
    "int8": np.int8, "uint8": np.uint8, "bool": np.bool_,
    "complex64": np.complex64, "complex128": np.complex128,
}


def _num(x):
    return float(x) if isinstance(x, str) else x


def _build(case: dict) -> np.ndarray:
    dtype = case["dtype"]
    data = case["data"]
    if dtype.startswith("complex"):
        flat = [complex(_num(re), _num(im)) for re, im in data]
    elif dtype.startswith(("float", "bfloat")):
        flat = [float(_num(v)) for v in data]
    else:
        flat = data
    arr = np.array(flat, dtype=_NP_DTYPES[dtype]).reshape(case["shape"])
    if dtype.startswith(("float", "bfloat", "complex")):
        # Values must survive the conversion exactly (every case holds representable values).
        ref = np.array(flat, dtype=np.complex128 if dtype.startswith("complex") else np.float64)
        np.testing.assert_array_equal(arr.ravel().astype(ref.dtype), ref)
    return arr


def _options(case: dict) -> dict:
    opts = case["printoptions"] or {}
    return {k: (math.inf if v == "inf" else v) for k, v in opts.items()}


@pytest.fixture(autouse=True)
def _reset_options():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case: dict) -> None:
    values = _build(case)
    set_printoptions(**_options(case))
    try:
        got = format_tensor(
            values,
            case["dtype"],
            default_dtype_name=case["default_dtype"] or "float32",
            grad_fn_name=case["grad_fn"],
            requires_grad=case["requires_grad"],
            is_parameter=case["is_parameter"],
        )
    finally:
        set_printoptions(profile="default")
    assert got == case["repr"]
    assert got == case["str"]


def test_vector_count() -> None:
    assert len(CASES) == _VECTORS["count"] == 242


def test_defaults() -> None:
    assert get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None,
    }


def test_sci_mode_reset_by_later_call() -> None:
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    assert format_tensor(np.array([1.5, 2.0], np.float32), "float32") == (
        "tensor([1.5000e+00, 2.0000e+00])")
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None
    assert format_tensor(np.array([1.5, 2.0], np.float32), "float32") == "tensor([1.500, 2.000])"


def test_profile_short_then_overrides() -> None:
    set_printoptions(profile="short")
    assert get_printoptions() == {
        "precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80, "sci_mode": None,
    }
    set_printoptions(profile="short", precision=5, linewidth=40)
    assert get_printoptions() == {
        "precision": 5, "threshold": 1000, "edgeitems": 2, "linewidth": 40, "sci_mode": None,
    }
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == math.inf


def test_profile_short_output() -> None:
    set_printoptions(profile="short", threshold=5)
    got = format_tensor(np.arange(10, dtype=np.float32) + np.float32(0.5), "float32")
    assert got == "tensor([0.50, 1.50,  ..., 8.50, 9.50])"


def test_context_manager_restores() -> None:
    set_printoptions(precision=6, sci_mode=False)
    before = get_printoptions()
    with printoptions(precision=1, threshold=3, edgeitems=1):
        assert get_printoptions() == {
            "precision": 1, "threshold": 3, "edgeitems": 1, "linewidth": 80, "sci_mode": None,
        }
        assert format_tensor(np.array([1.25, 2.0, 3.0, 4.0]), "float64") == (
            "tensor([1.2,  ..., 4.0], dtype=torch.float64)")
    assert get_printoptions() == before


def test_context_manager_restores_on_error() -> None:
    before = get_printoptions()
    with pytest.raises(RuntimeError), printoptions(linewidth=10):
        raise RuntimeError("boom")
    assert get_printoptions() == before


def test_large_tensor_is_fast() -> None:
    big = np.zeros((1000, 1000), np.float32)
    big[0, 0] = 1.5
    t = min(timeit.repeat(lambda: format_tensor(big, "float32"), number=5, repeat=3)) / 5
    assert t < 0.05
    assert format_tensor(big, "float32").startswith("tensor([[1.5000, 0.0000, 0.0000,  ...,")
