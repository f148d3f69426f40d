"""Measurements of a timed statement: statistics and torch's printed layout."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import sys as _sys
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as _np

from ...._factories import from_numpy as _from_numpy

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig",
           "ordered_unique", "set_torch_threads"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # 25 ns
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25

_f32 = _np.float32


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What was timed: the statement, its setup and the labels of the result."""

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (or the statement) with the sub-label."""
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.stmt + (f": {self.sub_label}" if self.sub_label else "")
        return (f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n"
                f"{textwrap.indent(self.stmt, '  ')}")

    def setup_str(self) -> str:
        if self.setup == "pass" or not self.setup:
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self) -> str:
        """The header lines of a measurement's repr."""
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join([f"{i}\n" if "\n" in i else i for i in sections if i])


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The times of one or more runs of a statement, with torch's statistics and repr."""

    number_per_run: int
    raw_times: list[float]
    task_spec: TaskSpec
    metadata: dict[Any, Any] | None = None

    def __post_init__(self) -> None:
        self._sorted_times: tuple[float, ...] = ()
        self._warnings: tuple[str, ...] = ()
        self._median = -1.0
        self._mean = -1.0
        self._p25 = -1.0
        self._p75 = -1.0

    def __getattr__(self, name: str) -> Any:
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self) -> list[float]:
        """Seconds per run of the statement, one per measurement."""
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """The significant figures the spread of the inner half of the times supports."""
        self._lazy_init()
        n = len(self._sorted_times)
        inner = self._sorted_times[n // 4:int(_np.ceil(_f32(3 * n / 4)))]
        std = float(_np.std(_np.array(inner, _np.float32)))
        sqrt_n = float(_np.sqrt(_f32(len(inner))))
        ci = max(1.645 * std / sqrt_n, _MIN_CONFIDENCE_INTERVAL)
        figures = int(_np.floor(_np.log10(_f32(self._median / ci))))
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self) -> None:
        if self.raw_times and not self._sorted_times:
            self._sorted_times = tuple(sorted(self.times))
            t = _np.array(self._sorted_times, _np.float64)
            self._median = float(_np.quantile(t, 0.5))
            self._mean = _from_numpy(t).mean().item()    # torch's summation order
            self._p25 = float(_np.quantile(t, 0.25))
            self._p75 = float(_np.quantile(t, 0.75))

            def add_warning(msg: str) -> None:
                rel_iqr = self.iqr / self.median * 100
                self._warnings += (f"  WARNING: Interquartile range is {rel_iqr:.1f}% of the "
                                   f"median measurement.\n           {msg}",)

            if not self.meets_confidence(_IQR_GROSS_WARN_THRESHOLD):
                add_warning("This suggests significant environmental influence.")
            elif not self.meets_confidence(_IQR_WARN_THRESHOLD):
                add_warning("This could indicate system fluctuation.")

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        self._lazy_init()
        skip = "MEASUREMENT_REPR_SKIP_LINE"
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        iqr_filter = "" if n >= 4 else skip
        threads = self.num_threads
        text = (
            f"\n{super().__repr__()}\n{self.task_spec.summarize()}\n"
            f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}\n"
            f"  {iqr_filter}IQR:    {self.iqr / scale:.2f} {unit} "
            f"({self._p25 / scale:.2f} to {self._p75 / scale:.2f})\n"
            f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
            f"{'per measurement,' if n > 1 else ','} {threads} thread{'s' if threads > 1 else ''}\n"
            + "\n".join(self._warnings)).strip()
        return "\n".join(line for line in text.splitlines() if skip not in line)

    @staticmethod
    def merge(measurements: Iterable[Measurement]) -> list[Measurement]:
        """One measurement per task spec, pooling the times of those that share it."""
        groups: collections.defaultdict = collections.defaultdict(list)
        for m in measurements:
            groups[m.task_spec].append(m)
        return [Measurement(number_per_run=1, raw_times=[t for m in g for t in m.times],
                            task_spec=spec) for spec, g in groups.items()]


def select_unit(t: float) -> tuple[str, float]:
    """The unit (ns, us, ms, s) to print a time of ``t`` seconds in, and its scale."""
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(float(_np.log10(_f32(t))) // 3), "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u: str) -> str:
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x: float, n: int) -> float:
    """``x`` rounded to ``n`` significant figures."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    magnitude = int(_np.ceil(_np.log10(_np.abs(_f32(x)))))
    scale = 10 ** (magnitude - n)
    return float(_np.round(_f32(x / scale)) * scale)


def ordered_unique(elements: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n: int) -> Iterator[None]:
    """Run with ``n`` intra-op threads where the package can set them (NumPy's own pool is
    not under its control)."""
    pkg = _sys.modules[__name__.split(".")[0]]
    get, put = getattr(pkg, "get_num_threads", None), getattr(pkg, "set_num_threads", None)
    if get is None or put is None:
        yield
        return
    prior = get()
    try:
        put(n)
        yield
    finally:
        put(prior)


del annotations  # keep dir() to torch's names
