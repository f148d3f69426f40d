"""Padding layers: Constant/Zero/Reflection/Replication/CircularPad 1d/2d/3d, as torch's.

Each pads the last 1, 2 or 3 dims by ``padding`` (an int for every side, or a tuple in
``F.pad`` order: last dim first, left then right) through ``F.pad``.
"""

from __future__ import annotations

from collections.abc import Iterable as _Iterable

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]


def _ntuple(x, n: int) -> tuple:
    return tuple(x) if isinstance(x, _Iterable) else (x,) * n


class _PadNd(Module):
    _mode = "constant"
    _nd = 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._nd)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def _check_input_dim(self, input: Tensor) -> None:
        d = self._nd + 1
        if input.dim() != d and input.dim() != d + 1:
            raise ValueError(f"expected {d}D or {d + 1}D input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        return F.pad(input, self.padding, "circular")


class _ConstantPadNd(Module):
    _nd = 1

    def __init__(self, padding, value: float) -> None:
        super().__init__()
        self.value = value
        self.padding = _ntuple(padding, 2 * self._nd)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


def _make(base, name, nd, doc):
    cls = type(name, (base,), {"_nd": nd, "__doc__": doc, "__module__": __name__})
    return cls


_SIDES = {1: "the last dim", 2: "the last 2 dims", 3: "the last 3 dims"}
CircularPad1d, CircularPad2d, CircularPad3d = (
    _make(_CircularPadNd, f"CircularPad{n}d", n, f"Pad {_SIDES[n]} by wrapping around.")
    for n in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    _make(type("_ReflectionPadNd", (_PadNd,), {"_mode": "reflect"}), f"ReflectionPad{n}d", n,
          f"Pad {_SIDES[n]} with the reflection of the input.") for n in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    _make(type("_ReplicationPadNd", (_PadNd,), {"_mode": "replicate"}),
          f"ReplicationPad{n}d", n, f"Pad {_SIDES[n]} by repeating the edge values.")
    for n in (1, 2, 3))
ConstantPad1d, ConstantPad2d, ConstantPad3d = (
    _make(_ConstantPadNd, f"ConstantPad{n}d", n, f"Pad {_SIDES[n]} with a constant ``value``.")
    for n in (1, 2, 3))


def _make_zero(base, n):
    def __init__(self, padding) -> None:
        base.__init__(self, padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"
    return type(f"ZeroPad{n}d", (base,), {"__init__": __init__, "extra_repr": extra_repr,
                                           "__module__": __name__,
                                           "__doc__": f"Pad {_SIDES[n]} with zeros."})


ZeroPad1d, ZeroPad2d, ZeroPad3d = (_make_zero(b, n) for b, n in
                                   ((ConstantPad1d, 1), (ConstantPad2d, 2), (ConstantPad3d, 3)))


del annotations  # keep dir() to torch's names
