"""``Timer``: time a Python statement as ``torch.utils.benchmark.Timer`` does."""

from __future__ import annotations

import enum
import sys as _sys
import textwrap
import timeit
from collections.abc import Callable
from typing import Any

import numpy as _np

from . import common

__all__ = ["Timer", "timer", "Language"]


def timer() -> float:
    """The clock of a measurement (a CPU build has no device to synchronise)."""
    return timeit.default_timer()


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


class Timer:
    """Time ``stmt`` after ``setup`` with ``globals`` (``torch`` is this package by default).

    ``timeit(number)`` gives one measurement of ``number`` runs; ``blocked_autorange`` and
    ``adaptive_autorange`` pick a block size first and repeat blocks until enough time (or
    enough confidence) is collected, as torch's.
    """

    _timer_cls = timeit.Timer

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "",
                 timer: Callable[[], float] = timer, globals: dict[str, Any] | None = None,
                 label: str | None = None, sub_label: str | None = None,
                 description: str | None = None, env: str | None = None, num_threads: int = 1,
                 language: Language | str = Language.PYTHON) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})
        if language in (Language.PYTHON, "py", "python"):
            self._globals.setdefault("torch", _sys.modules[__name__.split(".")[0]])
            self._language = Language.PYTHON
            if global_setup:
                raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely "
                                 "this code can simply be moved to `setup`.")
        elif language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("C++ timing needs torch's C++ toolchain, which this "
                                      "package does not have.")
        else:
            raise ValueError(f"Invalid language `{language}`.")
        stmt = textwrap.dedent(stmt)
        stmt = (stmt[1:] if stmt and stmt[0] == "\n" else stmt).rstrip()
        setup = textwrap.dedent(setup)
        setup = (setup[1:] if setup and setup[0] == "\n" else setup).rstrip()
        self._timer = self._timer_cls(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup,
                                          label=label, sub_label=sub_label,
                                          description=description, env=env,
                                          num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        return max(self._timer.timeit(number), 1e-9)

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """One measurement of ``number`` runs (after a warm-up of ``number // 100``)."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            return common.Measurement(number_per_run=number,
                                      raw_times=[self._timeit(number=number)],
                                      task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _threaded_measurement_loop(self, number, time_hook, stop_hook, min_run_time,
                                   max_run_time=None, callback=None) -> list[float]:
        total_time = 0.0
        can_stop = False
        times: list[float] = []
        with common.set_torch_threads(self._task_spec.num_threads):
            while total_time < min_run_time or not can_stop:
                spent = time_hook()
                times.append(spent)
                total_time += spent
                if callback:
                    callback(number, spent)
                can_stop = stop_hook(times)
                if max_run_time and total_time > max_run_time:
                    break
        return times

    def _estimate_block_size(self, min_run_time: float) -> int:
        with common.set_torch_threads(self._task_spec.num_threads):
            # torch takes the lower median of the five
            overhead = float(_np.sort([self._timeit(0) for _ in range(5)])[2])
            number = 1
            while True:
                taken = self._timeit(number)
                if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                    break
                if taken > min_run_time or number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> common.Measurement:
        """Blocks of runs, sized so that timer overhead is negligible, for ``min_run_time``."""
        number = self._estimate_block_size(min_run_time)
        times = self._threaded_measurement_loop(number, lambda: self._timeit(number),
                                                lambda times: True, min_run_time=min_run_time,
                                                callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def adaptive_autorange(self, threshold: float = 0.1, *, min_run_time: float = 0.01,
                           max_run_time: float = 10.0, callback=None) -> common.Measurement:
        """Blocks until the IQR is below ``threshold`` of the median (or ``max_run_time``)."""
        number = self._estimate_block_size(min_run_time=0.05)

        def stop_hook(times: list[float]) -> bool:
            if len(times) > 3:
                return common.Measurement(number_per_run=number, raw_times=times,
                                          task_spec=self._task_spec).meets_confidence(threshold)
            return False

        times = self._threaded_measurement_loop(number, lambda: self._timeit(number), stop_hook,
                                                min_run_time, max_run_time, callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)


del annotations  # keep dir() to torch's names
