"""``ember.utils._triton``: whether Triton kernels can run (never: ember has no GPU compiler)."""

from __future__ import annotations


def has_triton_package() -> bool:
    """Whether the ``triton`` package may be used by the compiler: False."""
    return False


def has_triton() -> bool:
    """Whether Triton can compile for an available device: False, as on a CPU-only torch."""
    return False
