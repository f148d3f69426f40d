"""``ember.accelerator``: there is no accelerator; the answers and errors of a CPU-only torch."""

from __future__ import annotations

__all__ = ["current_accelerator", "is_available", "device_count", "set_device_index",
           "set_device_idx", "current_device_index", "current_device_idx", "device_index",
           "synchronize", "current_stream", "set_stream", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
           "reset_peak_memory_stats", "reset_accumulated_memory_stats"]

_NONE = "Cannot access accelerator device when none is available."


def current_accelerator(check_available: bool = False):
    """None: no accelerator is present."""
    return None


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def _unavailable(*args, **kwargs):
    raise RuntimeError(_NONE)


set_device_index = set_device_idx = current_device_index = current_device_idx = _unavailable
synchronize = current_stream = set_stream = empty_cache = _unavailable
memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _unavailable
memory_stats = reset_peak_memory_stats = reset_accumulated_memory_stats = _unavailable


class device_index:
    """``with accelerator.device_index(i):``; ``None`` is a no-op, an index raises torch's
    error on entering."""

    def __init__(self, device, /):
        self.idx = device

    def __enter__(self):
        if self.idx is not None:
            raise RuntimeError(_NONE)

    def __exit__(self, *exc):
        return False


del annotations  # keep dir() to torch's names
