"""``ember.utils``: utilities outside the tensor core; ``ember.utils.data`` loads datasets.

``ember.utils.benchmark``, ``checkpoint`` and ``hooks`` load on first use (torch leaves
``benchmark`` to ``import torch.utils.benchmark``, but an attribute access works too).
"""

from __future__ import annotations

from .._tensor import Tensor as _Tensor

__all__ = ["benchmark", "checkpoint", "data", "hooks", "swap_tensors"]


def swap_tensors(t1: _Tensor, t2: _Tensor) -> None:
    """Exchange everything two tensors are (data, autograd state, class, attributes) in
    place, so that each Python object becomes the other.

    >>> import ember
    >>> a, b = ember.ones(2), ember.zeros(3)
    >>> ember.utils.swap_tensors(a, b)
    >>> a
    tensor([0., 0., 0.])
    """
    if not (isinstance(t1, _Tensor) and isinstance(t2, _Tensor)):
        raise TypeError(f"Expected two tensors, got {type(t1)} and {type(t2)}")
    slots = {s for c in type(t1).__mro__ + type(t2).__mro__ for s in getattr(c, "__slots__", ())
             if s not in ("__dict__", "__weakref__")}
    missing = object()
    for s in slots:
        a, b = getattr(t1, s, missing), getattr(t2, s, missing)
        for t, v in ((t1, b), (t2, a)):
            if v is not missing:
                object.__setattr__(t, s, v)
            elif hasattr(t, s):
                object.__delattr__(t, s)
    d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
    t1.__dict__.clear()
    t1.__dict__.update(d2)
    t2.__dict__.clear()
    t2.__dict__.update(d1)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__


_SUBMODULES = ("_pytree", "benchmark", "checkpoint", "data", "hooks", "model_zoo")


def __getattr__(name: str):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULES})


del annotations  # keep dir() to torch's names
