"""ember.utils.benchmark against torch.utils.benchmark: statistics, reprs and Compare tables
of the same measurements (synthetic times, so that the comparison is exact), and Timer's API."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.helpers import ember, errors_alike, torch

ebm = ember.utils.benchmark
tbm = pytest.importorskip("torch.utils.benchmark")

TIMES = [([1e-6, 1.1e-6, 0.9e-6, 1.05e-6, 1.3e-6], 100), ([2.5e-3], 10), ([5.0, 6.0], 1),
         ([3e-8, 3.1e-8, 2.9e-8, 4e-8], 1000), ([1e-4, 5e-4, 1e-4, 1e-4, 9e-5], 7)]


def _repr(m) -> str:
    return re.sub(r"<[\w.]+\.Measurement object at 0x[0-9a-f]+>", "<M>", repr(m))


@pytest.mark.parametrize("k", range(len(TIMES)))
@pytest.mark.parametrize("spec", [
    {"stmt": "x + y", "setup": "x = torch.ones(3)", "label": "add", "sub_label": "small",
     "description": "d1"},
    {"stmt": "a = 1\nb = 2", "setup": "x=1\ny=2", "sub_label": "s"},
    {"stmt": "f(x)", "setup": "pass", "num_threads": 4},
])
def test_measurement(k, spec):
    times, n = TIMES[k]
    out = []
    for bm in (tbm, ebm):
        m = bm.Measurement(number_per_run=n, raw_times=[t * n for t in times],
                           task_spec=bm.TaskSpec(**spec))
        out.append((_repr(m), m.median, m.iqr, m.times, m.significant_figures,
                    m.has_warnings, m.title, m.as_row_name, m.meets_confidence(0.2),
                    m.num_threads, m.env))
        out.append(m.mean)
    assert out[0] == out[2]
    assert out[3] == pytest.approx(out[1], rel=1e-15)   # summation order: last bit


def _measurements(bm):
    ms = []
    for i, (sub, desc) in enumerate(itertools.product(["a", "bb"], ["d1", "d2", "d3"])):
        s = bm.TaskSpec(stmt="x", setup="", label="L", sub_label=sub, description=desc,
                        num_threads=1 + (i % 2), env="e1" if i < 4 else "env2")
        ms.append(bm.Measurement(number_per_run=10, task_spec=s, raw_times=[
            (i + 1) * 1e-5 * f for f in (1, 1.02, 0.99, 1.3 if i % 3 else 1.01)]))
    s = bm.TaskSpec(stmt="y", setup="", label="M", description="d1")
    ms.append(bm.Measurement(number_per_run=1, raw_times=[0.5, 0.52], task_spec=s))
    return ms


@pytest.mark.parametrize("style", ["plain", "trim", "trim_warn", "colour", "colour_rows"])
def test_compare_table(style):
    out = []
    for bm in (tbm, ebm):
        c = bm.Compare(_measurements(bm))
        if style.startswith("trim"):
            c.trim_significant_figures()
        if style == "trim_warn":
            c.highlight_warnings()
        if style.startswith("colour"):
            c.colorize(rowwise=style == "colour_rows")
        out.append(str(c))
    assert out[0] == out[1]


def test_units_and_sigfigs():
    for t in (3e-10, 3e-7, 2e-5, 0.004, 12.0):
        assert ebm.select_unit(t) == tbm.select_unit(t)
    for x, n in ((1234.5678, 2), (0.0012345, 3), (98765.0, 1)):
        assert ebm.trim_sigfig(x, n) == tbm.trim_sigfig(x, n)


def test_timer_runs_the_statement():
    calls = []
    t = ebm.Timer("f()", setup="x = torch.ones(2)", globals={"f": lambda: calls.append(1)},
                  label="lbl", sub_label="s", description="dd")
    m = t.timeit(50)
    assert m.number_per_run == 50 and len(m.times) == 1 and m.times[0] > 0
    assert len(calls) == 50 + 2          # and the warm-up of max(50 // 100, 2) runs
    m = t.blocked_autorange(min_run_time=0.01)
    assert m.number_per_run >= 1 and sum(m.raw_times) >= 0.01
    assert m.label == "lbl" and m.description == "dd" and m.sub_label == "s"
    m = t.adaptive_autorange(max_run_time=0.05)
    assert len(m.times) >= 1
    m = ebm.Timer("torch.ones(2) + 1").timeit(3)   # `torch` is ember in the statement
    assert m.stmt == "torch.ones(2) + 1"
    assert "Measurement object" in repr(m) and "3 runs" in repr(m)


@pytest.mark.parametrize("make", [
    lambda bm: bm.Timer(stmt=lambda: 1), lambda bm: bm.Timer("x", global_setup="y"),
    lambda bm: bm.Timer("x", language="rust"), lambda bm: bm.Compare([1]),
    lambda bm: bm.Timer("x").repeat(), lambda bm: bm.Timer("x").autorange(),
])
def test_timer_errors(make):
    errors_alike(lambda L: make(tbm if L is torch else ebm))


def test_module_layout():
    assert ember.utils.benchmark.Timer is ebm.Timer
    from ember.utils.benchmark.utils.common import Measurement
    from ember.utils.benchmark.utils.timer import Timer
    assert Measurement is ebm.Measurement and Timer is ebm.Timer
