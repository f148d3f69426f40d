"""``ember.utils``: utilities outside the tensor core; ``ember.utils.data`` loads datasets.

``ember.utils.benchmark`` loads on first use (as torch, which leaves it to ``import
torch.utils.benchmark``, but an attribute access works too).
"""

from __future__ import annotations

from . import data

__all__ = ["benchmark", "data"]


def __getattr__(name: str):
    if name == "benchmark":
        import importlib

        return importlib.import_module(f"{__name__}.benchmark")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "benchmark"})
