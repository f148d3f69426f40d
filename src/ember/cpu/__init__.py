"""``ember.cpu``: the CPU device module (``ember.cpu.amp.autocast`` …)."""

from __future__ import annotations

from .. import _lazy


def is_available() -> bool:
    """True: ember runs on the CPU."""
    return True


def device_count() -> int:
    return 1


def synchronize(device=None) -> None:
    """Nothing to wait for: CPU ops finish before they return."""


_lazy.package(globals(), modules=("amp",))   # (GradScaler's spellings: loaded on first use)
del _lazy
del annotations  # keep dir() to torch's names
