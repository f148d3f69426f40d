"""``ember.utils.benchmark``: ``Timer``, ``Measurement`` and ``Compare``, as torch's."""

from __future__ import annotations

from .utils.common import Measurement, TaskSpec, select_unit, trim_sigfig, unit_to_english
from .utils.compare import Colorize, Compare
from .utils.timer import Language, Timer, timer

__all__ = ["Timer", "timer", "Language", "Measurement", "TaskSpec", "Compare", "Colorize",
           "select_unit", "trim_sigfig", "unit_to_english"]


del annotations  # keep dir() to torch's names
