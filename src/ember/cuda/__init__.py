"""``ember.cuda``: there is no GPU backend; this reports so, as a CPU-only torch does."""

from __future__ import annotations


def is_available() -> bool:
    """False: ember runs on the CPU."""
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Accepted and ignored, as torch does without CUDA."""


manual_seed_all = manual_seed


def synchronize(device=None) -> None:
    raise AssertionError("Torch not compiled with CUDA enabled")
