"""Factories with ``out=``: the result is computed in ``out``'s dtype, written into ``out``
(resized when needed) and ``out`` itself is returned, as torch does; a draw into ``out``
gives the numbers the same call without it gives."""

import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

CASES = {
    "zeros": lambda lib, o: lib.zeros(3, out=o),
    "ones_2d": lambda lib, o: lib.ones(2, 2, out=o),
    "full": lambda lib, o: lib.full((2,), 1.5, out=o),
    "arange": lambda lib, o: lib.arange(5, out=o),
    "arange_float_steps": lambda lib, o: lib.arange(0, 1, 0.25, out=o),
    "linspace": lambda lib, o: lib.linspace(0, 1, 5, out=o),
    "logspace": lambda lib, o: lib.logspace(0, 1, 3, out=o),
    "eye": lambda lib, o: lib.eye(2, out=o),
    "rand": lambda lib, o: lib.rand(3, out=o),
    "randn": lambda lib, o: lib.randn(4, out=o),
    "randint": lambda lib, o: lib.randint(5, (3,), out=o),
    "randperm": lambda lib, o: lib.randperm(6, out=o),
    "normal": lambda lib, o: lib.normal(0.0, 2.0, (3,), out=o),
    "dtype_mismatch": lambda lib, o: lib.zeros(3, dtype=lib.float64, out=o),
}


def _run(lib, name, dtype, size):
    lib.manual_seed(0)
    out = lib.empty(size, dtype=getattr(lib, dtype))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = CASES[name](lib, out)
        except Exception as e:       # noqa: BLE001 - the error is what is compared
            return "err", type(e).__name__, str(e)
    msgs = [str(x.message).split(" (Triggered")[0] for x in w]
    return (r is out, str(out.dtype), tuple(out.shape), np.asarray(out.numpy()).tolist(), msgs)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype,size", [("float32", 3), ("float64", 2), ("int64", 3)])
def test_factory_out_as_torch(name, dtype, size):
    if dtype == "int64" and name in ("rand", "randn", "normal", "logspace", "linspace"):
        pytest.skip("torch has no integer kernel for these draws")
    assert repr(_run(ember, name, dtype, size)).replace("ember", "torch") == \
        repr(_run(torch, name, dtype, size))
