"""Device objects and the array module behind each device.

The CPU is backed by NumPy (``xp``); the ``meta`` device holds shapes without data
(:mod:`ember._meta`). Kernels use ``xp`` rather than ``numpy`` by name so that an array module
with NumPy's API can back another device later. Asking for ``cuda`` raises torch's own error
for a build without CUDA. ``DEFAULT`` holds the factories' default device
(``set_default_device``, ``with ember.device(...)``).
"""

from __future__ import annotations

import re

import numpy as xp

__all__ = ["device", "xp"]

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
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
        """``with ember.device('meta'):`` makes this the factories' default device until the
        block ends; a device without kernels raises the error its first factory call would."""
        _ENTERED.append(DEFAULT[0])
        DEFAULT[0] = check(self)
        return self

    def __exit__(self, *exc) -> None:
        DEFAULT[0] = _ENTERED.pop()


device.__module__ = __package__                       # ``ember.device``, as ``torch.device``
CPU = device("cpu")
META = device("meta")
DEFAULT = [CPU]         # the factories' default device
_ENTERED: list = []     # the defaults that the ``with device(...)`` blocks replaced


# the dispatch-key spelling of the backends that a CPU build of torch knows but has no kernels for
_BACKEND_KEYS = {"ipu": "IPU", "hip": "HIP", "ve": "VE", "fpga": "FPGA", "maia": "MAIA",
                 "xla": "XLA", "lazy": "Lazy", "vulkan": "Vulkan", "mps": "MPS"}
_GRANDFATHERED = ("mkldnn", "opengl", "opencl", "ideep")     # Caffe2's device types
_MTIA = ("Torch not compiled with MTIA enabled. Ensure you have `import "
         "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
         "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")


def check(dev, *, copy: bool = False, op: str = "aten::empty.memory_format") -> device:
    """Normalise a ``device=`` argument (None: the default device); every device but the CPU
    and ``meta`` raises the error a CPU build of torch raises: ``copy`` for a copy to the
    device (``Tensor.to``, ``torch.tensor``), else an allocation by the factory ``op``."""
    if dev is None:
        return DEFAULT[0]
    if dev is CPU:
        return CPU
    d = dev if isinstance(dev, device) else device(dev)
    t = d.type
    if t == "cpu":
        return CPU
    if t == "meta":
        return META
    if t in ("cuda", "xpu"):
        raise AssertionError(f"Torch not compiled with {t.upper()} enabled")
    if t == "mtia":
        raise AssertionError(_MTIA)
    if t in ("hpu", "privateuseone"):
        raise ModuleNotFoundError(f"No module named 'torch.{t}'", name=f"torch.{t}")
    if copy and t != "lazy":
        if d.index is None or t in _GRANDFATHERED:
            raise RuntimeError(f"PyTorch is not linked with support for {t} devices")
        if t not in ("ipu", "xla"):
            op = "aten::empty_strided"
    if t in _GRANDFATHERED:
        raise RuntimeError(
            '0 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/c10/core/TensorOptions.h":663, '
            "please report a bug to PyTorch. This is a grandfathered Caffe2 device type "
            f"{t}, it shouldn't ever convert to a DispatchKey.  File a bug describing what you "
            "were doing if you think this is in error.")
    raise NotImplementedError(
        f"Could not run '{op}' with arguments from the '{_BACKEND_KEYS[t]}' backend. This "
        "could be because the operator doesn't exist for this backend, or was omitted during "
        "the selective/custom build process (if using custom build). If you are a Facebook "
        "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        "possible resolutions.")
