"""Device objects and the array module behind each device.

Only the CPU exists today, backed by NumPy (``xp``). Kernels use ``xp`` rather than ``numpy``
by name so that an array module with NumPy's API can back another device later. Asking for
``cuda`` raises torch's own error for a build without CUDA.
"""

from __future__ import annotations

import re

import numpy as xp

__all__ = ["device", "xp"]

_TYPES = ("cpu", "cuda", "mps", "meta", "xpu")
# c10::Device's grammar: a name of letters and underscores, then ':' and an index without
# leading zeros
_DEVICE_STRING = re.compile(r"([A-Za-z_]+)(?::(0|[1-9][0-9]*))?")


class device:
    """``ember.device('cpu')``, ``device('cuda', 0)``, ``device('cuda:1')``, as torch's."""

    __slots__ = ("type", "index")

    def __init__(self, type: str | device, index: int | None = None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__})")
        if not type:
            raise RuntimeError("Device string must not be empty")
        match = _DEVICE_STRING.fullmatch(type)
        if match is None:
            raise RuntimeError(f"Invalid device string: '{type}'")
        name, idx = match.groups()
        if name not in _TYPES:
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                f"at start of device string: {name}")
        if idx:
            index = int(idx)
        self.type, self.index = name, index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    def __enter__(self) -> device:
        """``with ember.device('cpu'):`` makes this the factories' default device; only the
        CPU exists, so any other device raises the error its first factory call would."""
        check(self)
        return self

    def __exit__(self, *exc) -> None:
        return None


device.__module__ = __package__                       # ``ember.device``, as ``torch.device``
CPU = device("cpu")


def check(dev) -> device:
    """Normalise a ``device=`` argument; every device but the CPU raises torch's error."""
    if dev is None or dev is CPU:
        return CPU
    d = dev if isinstance(dev, device) else device(dev)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    raise RuntimeError(f"Could not run operations on the '{d.type}' backend: ember runs on "
                       "the CPU only")
