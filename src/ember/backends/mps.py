"""``ember.backends.mps``: there is no Metal backend."""

from __future__ import annotations

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: ember runs on the CPU."""
    return False


def is_built() -> bool:
    """False: ember has no Metal backend."""
    return False


del annotations  # keep dir() to torch's names
