"""``scatter`` / ``scatter_kwargs`` / ``gather``: split inputs over devices and join outputs."""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor as _Tensor
from ._functions import gather_tensors as _gather_tensors
from ._functions import scatter_tensor as _scatter_tensor


def _is_namedtuple(obj: Any) -> bool:
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def scatter(inputs, target_gpus, dim: int = 0):
    """One copy of ``inputs`` per target device, tensors split along ``dim``; containers are
    walked as torch walks them (non-tensor leaves are repeated)."""
    def scatter_map(obj):
        if isinstance(obj, _Tensor):
            return _scatter_tensor(target_gpus, dim, obj)
        if _is_namedtuple(obj):
            return [type(obj)(*args) for args in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in target_gpus]
    return scatter_map(inputs)


def scatter_kwargs(inputs: tuple, kwargs: dict | None, target_gpus, dim: int = 0):
    """``scatter`` of positional and keyword arguments, padded to the same length."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs, target_device, dim: int = 0):
    """Join the per-device ``outputs`` into one object on ``target_device``."""
    def gather_map(outputs):
        out = outputs[0]
        if isinstance(out, _Tensor):
            return _gather_tensors(target_device, dim, *outputs)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outputs])) for k in out)
        if _is_namedtuple(out):
            return type(out)._make(map(gather_map, zip(*outputs, strict=True)))
        return type(out)(map(gather_map, zip(*outputs, strict=True)))
    return gather_map(outputs)


del annotations  # keep dir() to torch's names
