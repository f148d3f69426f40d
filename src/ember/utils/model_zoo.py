"""``ember.utils.model_zoo``: ``load_url``, the old name of ``hub.load_state_dict_from_url``."""

from __future__ import annotations

from ..hub import load_state_dict_from_url as load_url  # noqa: F401

__all__ = ["load_url"]


del annotations  # keep dir() to torch's names
