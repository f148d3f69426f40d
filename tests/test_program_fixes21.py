"""Regression tests for what the seventh batch of real programs found, each against torch 2.13:
``~`` on a float tensor is the Python binding's ``TypeError``."""

from __future__ import annotations

import pytest

from .helpers import errors_alike


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "bfloat16"])
def test_invert_of_a_non_integral_tensor_is_a_type_error(dtype):
    errors_alike(lambda lib: ~lib.zeros(2, dtype=getattr(lib, dtype)))
    errors_alike(lambda lib: ~lib.zeros(2, dtype=getattr(lib, dtype)).t().requires_grad_())
    # the function and the method keep the kernel's message
    errors_alike(lambda lib: lib.bitwise_not(lib.zeros(2, dtype=getattr(lib, dtype))))
