"""``ember.utils``: utilities outside the tensor core; ``ember.utils.data`` loads datasets."""

from __future__ import annotations

from . import benchmark, data

__all__ = ["benchmark", "data"]


del annotations  # keep dir() to torch's names
