"""``ember.cuda``: there is no GPU backend; this answers as a CPU-only torch build answers.

Every value, warning and error below is what torch 2.13 (CPU) gives for the same call,
including the ``AttributeError`` some calls raise there on its missing CUDA bindings.
"""

from __future__ import annotations

import collections as _collections
import contextlib as _contextlib

from .. import _lazy
from .._legacy import CUDA_TYPES as _CUDA_TYPES

globals().update(_CUDA_TYPES)     # cuda.FloatTensor …: no tensor is one

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def _not_compiled(*args, **kwargs):
    raise AssertionError(_NOT_COMPILED)


def _missing_binding(name):
    def fn(*args, **kwargs):
        raise AttributeError(f"module 'torch._C' has no attribute '{name}'")
    return fn


def is_available() -> bool:
    """False: ember runs on the CPU."""
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Accepted and ignored, as torch does without CUDA."""


manual_seed_all = manual_seed


def seed() -> None:
    """Accepted and ignored, as torch does without CUDA."""


seed_all = seed

synchronize = init = current_device = get_device_name = get_device_capability = _not_compiled
get_device_properties = current_stream = default_stream = mem_get_info = _not_compiled
get_rng_state = set_rng_state = get_rng_state_all = set_rng_state_all = ipc_collect = \
    _not_compiled


def memory_allocated(device=None) -> int:
    """0: nothing is allocated on a GPU."""
    return 0


max_memory_allocated = memory_reserved = max_memory_reserved = memory_allocated
memory_cached = max_memory_cached = memory_allocated


def memory_stats(device=None) -> _collections.OrderedDict:
    return _collections.OrderedDict()


def memory_summary(device=None, abbreviated: bool = False) -> str:
    raise KeyError("allocated_bytes.all.current")


def empty_cache() -> None:
    """Nothing to release."""


reset_peak_memory_stats = _missing_binding("_cuda_resetPeakMemoryStats")
reset_accumulated_memory_stats = _missing_binding("_cuda_resetAccumulatedMemoryStats")
_set_device = _missing_binding("_cuda_setDevice")


def reset_max_memory_allocated(device=None) -> None:
    import warnings
    warnings.warn("torch.cuda.reset_max_memory_allocated now calls "
                  "torch.cuda.reset_peak_memory_stats, which resets /all/ peak memory stats.",
                  FutureWarning, stacklevel=2)
    reset_peak_memory_stats(device)


reset_max_memory_cached = reset_max_memory_allocated


def set_device(device) -> None:
    """torch's answers: a negative index is ignored; a CPU device is refused."""
    from .._device import device as _device
    if isinstance(device, str):
        device = _device(device)
    if isinstance(device, _device):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        if device.index is None:
            raise ValueError("Expected a torch.device with a specified index or an integer, "
                             f"but got:{device}")
        device = device.index
    if device is None or device < 0:
        return
    _set_device(device)


class Event:
    """torch's placeholder class: it cannot be instantiated without CUDA."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Tried to instantiate dummy base class Event")


class Stream:
    """torch's placeholder class: it cannot be instantiated without CUDA."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class StreamContext(_contextlib.AbstractContextManager):
    """``with cuda.stream(s):``; a None stream is a no-op, as in torch."""

    def __init__(self, stream):
        self.stream = stream

    def __exit__(self, *exc):
        return None


def stream(stream) -> StreamContext:
    return StreamContext(stream)


class device:
    """``with cuda.device(i):``; an index below zero is a no-op, as in torch."""

    def __init__(self, device):
        from .._device import device as _device
        if isinstance(device, (str, _device)):
            device = _device(device).index
        self.idx = -1 if device is None else device

    def __enter__(self):
        if self.idx >= 0:
            raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, *exc):
        return False

from . import memory, nccl  # noqa: E402,F401  (torch.cuda.memory, torch.cuda.nccl)

_lazy.package(globals(), modules=("amp",))   # (GradScaler's spellings: loaded on first use)
del _lazy
del annotations  # keep dir() to torch's names
