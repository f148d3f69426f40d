"""Complex random tensors: torch draws the real and imaginary parts in turn on
``view_as_real`` (normal with half the variance), so the numbers are torch's bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import LIBS

CASES = {
    "randn_c64": lambda L: L.randn(3, dtype=L.cfloat),
    "randn_c128_vector_path": lambda L: L.randn(20, dtype=L.complex128),
    "rand_c64": lambda L: L.rand(2, dtype=L.cfloat),
    "normal_mean_std": lambda L: L.empty(40, dtype=L.cfloat).normal_(1.0, 2.0),
    "randn_like": lambda L: L.randn_like(L.zeros(17, dtype=L.cdouble)),
    "rand_like": lambda L: L.rand_like(L.zeros(5, dtype=L.cfloat)),
    "normal_transposed": lambda L: L.zeros(4, 6, dtype=L.cfloat).t().normal_(),
    "uniform_strided": lambda L: L.zeros(4, 6, dtype=L.cdouble)[:, ::2].uniform_(-1, 1),
    "normal_tensor_mean": lambda L: L.normal(L.zeros(3, dtype=L.cfloat), 1.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_draws_are_torchs(name):
    got = []
    for lib in LIBS:
        lib.manual_seed(7)
        t = CASES[name](lib)
        got.append((t.numpy().copy(), str(t.dtype), lib.rand(2).numpy()))
    (tv, tdt, tnext), (ev, edt, enext) = got
    assert edt == tdt
    np.testing.assert_array_equal(ev, tv)
    np.testing.assert_array_equal(enext, tnext)      # the generator moved as torch's did
