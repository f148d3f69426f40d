"""``ember.backends.cpu``: the CPU's capability, as torch names it."""

from __future__ import annotations


def get_cpu_capability() -> str:
    """The vector instruction set torch's kernels would use; ember runs NumPy's ("DEFAULT")."""
    return "DEFAULT"


del annotations  # keep dir() to torch's names
