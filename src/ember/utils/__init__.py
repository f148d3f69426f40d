"""``ember.utils``: utilities outside the tensor core; ``ember.utils.data`` loads datasets."""

from __future__ import annotations

from . import data

__all__ = ["data"]
