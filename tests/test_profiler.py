"""ember.profiler / ember.autograd.profiler against torch's: what is recorded (ops by torch's
names, backward nodes, nested record_function ranges), the table layout, schedules, traces."""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

from tests.helpers import ember, torch

tprof = pytest.importorskip("torch.profiler")
tutil = pytest.importorskip("torch.autograd.profiler_util")
eprof = ember.profiler
eutil = ember.autograd.profiler_util


def _workload(L):
    x = L.tensor(np.arange(16.0, dtype=np.float32).reshape(4, 4) / 7)
    w = L.tensor(np.ones((4, 4), np.float32), requires_grad=True)
    return lambda: (x * w).relu().sum()


def _profile(L, P, **kw):
    step = _workload(L)
    with P.profile(**kw) as prof:
        with P.record_function("outer"):
            with P.record_function("inner"):
                y = step()
            y.backward()
    return prof


KEYS = ["outer", "inner", "aten::mul", "aten::relu", "aten::sum", "MulBackward0",
        "ReluBackward0", "SumBackward0", "autograd::engine::evaluate_function: MulBackward0",
        "torch::autograd::AccumulateGrad"]


@pytest.mark.parametrize("api", ["profiler", "autograd"])
def test_records_ops_nodes_and_ranges(api):
    counts = []
    for L in (torch, ember):
        P = L.profiler if api == "profiler" else L.autograd.profiler
        prof = _profile(L, P, record_shapes=True)
        ka = {e.key: e for e in prof.key_averages()}
        counts.append({k: ka[k].count if k in ka else None for k in KEYS})
        events = list(prof.events() if api == "profiler" else prof.function_events)
        inner = next(e for e in events if e.name == "inner")
        mul = next(e for e in events if e.name == "aten::mul")
        assert inner.cpu_parent.name == "outer" and mul.cpu_parent is inner
        assert inner.cpu_time_total >= mul.cpu_time_total >= 0
        assert inner.self_cpu_time_total == pytest.approx(
            inner.cpu_time_total - sum(c.cpu_time_total for c in inner.cpu_children))
        grouped = {e.key: e for e in prof.key_averages(group_by_input_shape=True)}
        assert grouped["aten::relu"].input_shapes == [[4, 4]]
    assert counts[0] == counts[1]


def _events(L, util):
    """The same synthetic events (times in us) in both libraries."""
    spec = [(1, "outer", 0.0, 100.0, None), (2, "aten::mm", 10.0, 40.0, 1),
            (3, "aten::mm", 45.0, 60.5, 1), (4, "aten::relu", 61.0, 61.25, 1),
            (5, "a_rather_long_operator_name_that_is_cut_in_the_table_xx", 70.0, 99.0, 1),
            (6, "aten::add", 200.0, 1500.0, None), (7, "ProfilerStep#3", 1600.0, 2.6e6, None)]
    events = {}
    for i, name, t0, t1, parent in spec:
        e = util.FunctionEvent(id=i, name=name, thread=1, start_us=t0, end_us=t1,
                               input_shapes=[[2, 3], []] if i % 2 else [[4]], stack=[])
        if parent is not None:
            e.set_cpu_parent(events[parent])
            events[parent].append_cpu_child(e)
        events[i] = e
    ev = util.EventList(list(events.values()))
    ev._tree_built = True      # torch's: the parents are set above
    return ev


@pytest.mark.parametrize("kw", [
    {}, {"sort_by": "cpu_time_total", "row_limit": 3}, {"sort_by": "self_cpu_time_total"},
    {"sort_by": "count", "header": "HEADER"}, {"top_level_events_only": True},
    {"time_unit": "ms"}, {"max_name_column_width": 20},
])
@pytest.mark.parametrize("group", [None, False, True])
def test_table_layout(kw, group):
    out = []
    for L, util in ((torch, tutil), (ember, eutil)):
        ev = _events(L, util)
        if group is not None:
            ev = ev.key_averages(group_by_input_shapes=group)
        out.append(ev.table(**kw))
    assert out[0] == out[1]


def test_total_average_and_event_strings():
    t, e = _events(torch, tutil), _events(ember, eutil)
    for a, b in zip(t, e):
        assert (a.self_cpu_time_total_str, a.cpu_time_total_str, a.key) == (
            b.self_cpu_time_total_str, b.cpu_time_total_str, b.key)
    ta, ea = t.total_average(), e.total_average()
    assert (ta.key, ta.count, ta.cpu_time_total, ta.self_cpu_time_total) == (
        ea.key, ea.count, ea.cpu_time_total, ea.self_cpu_time_total)
    assert t.self_cpu_time_total == e.self_cpu_time_total


@pytest.mark.parametrize("kw", [
    {"wait": 1, "warmup": 1, "active": 2, "repeat": 1}, {"wait": 1, "warmup": 1, "active": 2},
    {"wait": 0, "warmup": 0, "active": 1, "skip_first": 2},
    {"wait": 2, "warmup": 1, "active": 1, "skip_first_wait": 1},
])
def test_schedule_and_steps(kw):
    out = []
    for L in (torch, ember):
        P = L.profiler
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sch = P.schedule(**kw)
            actions = [sch(i).name for i in range(14)]
            step, ready = _workload(L), []
            with P.profile(schedule=sch, on_trace_ready=lambda p, ready=ready: ready.append(
                    sorted((e.key, e.count) for e in p.key_averages()
                           if e.key in ("ProfilerStep*", "aten::mul")))) as prof:
                for _ in range(8):
                    step()
                    prof.step()
        out.append((actions, ready, prof.step_num,
                    sorted({str(w.message) for w in caught if "warmup" in str(w.message)})))
    assert out[0] == out[1]


@pytest.mark.parametrize("kw", [{"wait": -1, "warmup": 1, "active": 1},
                                {"wait": 1, "warmup": 1, "active": 0}])
def test_schedule_errors(kw):
    msgs = []
    for L in (torch, ember):
        with pytest.raises(AssertionError) as info:
            L.profiler.schedule(**kw)
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1]


def test_trace_handler_writes_chrome_trace(tmp_path):
    d = str(tmp_path / "tb")
    step = _workload(ember)
    P = ember.profiler
    with P.profile(schedule=P.schedule(wait=0, warmup=1, active=1),
                   on_trace_ready=P.tensorboard_trace_handler(d, worker_name="wk")) as prof:
        for _ in range(3):
            step()
            prof.step()
    files = sorted(os.listdir(d))      # two cycles: steps 1 and 3 (the last one saved on exit)
    assert len(files) == 2 and all(f.startswith("wk.") and f.endswith(".pt.trace.json")
                                   for f in files)
    with open(os.path.join(d, files[0])) as f:
        trace = json.load(f)
    xs = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert {"ProfilerStep#1", "aten::mul", "aten::relu"} <= {e["name"] for e in xs}
    assert all({"ph", "cat", "name", "pid", "tid", "ts", "dur", "args"} <= set(e) for e in xs)
    step_ev = next(e for e in xs if e["name"] == "ProfilerStep#1")
    assert step_ev["cat"] == "user_annotation" and step_ev["dur"] > 0


def test_legacy_profile_api(tmp_path):
    A = ember.autograd.profiler
    step = _workload(ember)
    prof = A.profile()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        prof.table()
    with A.profile(enabled=False) as off:
        step()
    with A.profile(record_shapes=True) as prof:
        step()
    assert prof.self_cpu_time_total > 0 and "aten::mul" in str(prof)
    prof.export_chrome_trace(str(tmp_path / "t.json"))
    with open(tmp_path / "t.json") as f:
        assert any(e["name"] == "aten::sum" for e in json.load(f)["traceEvents"])
    assert off is None                      # torch's disabled profiler enters as None

    @A.record_function("deco")
    def f():
        return step()
    with A.profile() as prof:
        f()
    assert "deco" in {e.key for e in prof.key_averages()}


def test_no_cost_when_idle():
    from ember._ops import registry
    from ember.autograd import engine
    with ember.profiler.profile():
        ember.ones(2) + 1
        assert registry.run is not registry.PLAIN_RUNNERS[0]
    assert (registry.run, registry.run_inplace) == registry.PLAIN_RUNNERS
    assert engine._run_node is ember.autograd.profiler._PLAIN[2]
    for ns in registry._NAMESPACES:
        assert ns["_run"] is registry.PLAIN_RUNNERS[0]
        assert ns["_run_inplace"] is registry.PLAIN_RUNNERS[1]
    with ember.autograd.profiler.profile() as prof:   # and it records again
        ember.ones(2).mul_(3)
    assert {"aten::mul_"} <= {e.key for e in prof.key_averages()}


def test_activities():
    assert ember.profiler.supported_activities() == {ember.profiler.ProfilerActivity.CPU}
    assert (list(ember.profiler.ProfilerActivity.__members__)
            == list(tprof.ProfilerActivity.__members__))
    assert ([a.name for a in ember.profiler.ProfilerAction]
            == [a.name for a in tprof.ProfilerAction])
