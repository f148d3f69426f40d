"""``ember.utils.benchmark``: ``Timer``, ``Measurement``, ``Compare`` and the fuzzers
(``Fuzzer``, ``FuzzedParameter``, ``FuzzedTensor``), as torch's."""

from __future__ import annotations

from .utils.common import Measurement, TaskSpec, select_unit, trim_sigfig, unit_to_english
from .utils.compare import Colorize, Compare
from .utils.fuzzer import FuzzedParameter, FuzzedTensor, Fuzzer, ParameterAlias
from .utils.timer import Language, Timer, timer
from .utils.valgrind_wrapper.timer_interface import CallgrindStats, FunctionCount, FunctionCounts

__all__ = ["Timer", "timer", "Language", "Measurement", "TaskSpec", "Compare", "Colorize",
           "select_unit", "trim_sigfig", "unit_to_english", "Fuzzer", "FuzzedParameter",
           "FuzzedTensor", "ParameterAlias", "CallgrindStats", "FunctionCount", "FunctionCounts"]


del annotations  # keep dir() to torch's names
