"""``ember.backends.cpu``: the CPU's capability, as torch names it."""

from __future__ import annotations


def get_cpu_capability() -> str:
    """The vector instruction set torch's kernels use here (``"AVX512"``, ``"AVX2"`` or
    ``"DEFAULT"``); ember's emulated kernels follow the same one."""
    from .._cpu import capability
    return capability()


del annotations  # keep dir() to torch's names
