"""Fixes found by the seventh batch of real-style programs (``tests/programs``), each checked
against torch: linalg.lstsq names ScalarTypes ("Float", "Double") when the dtypes of its
arguments differ."""

from __future__ import annotations

import pytest

from .helpers import errors_alike


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_lstsq_dtype_mismatch_names_scalar_types(dtypes):
    errors_alike(lambda L: L.linalg.lstsq(L.ones(4, 2, dtype=getattr(L, dtypes[0])),
                                          L.ones(4, 1, dtype=getattr(L, dtypes[1]))))
