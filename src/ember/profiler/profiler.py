"""``torch.profiler.profile``: the recorder of :mod:`..autograd.profiler` driven by a schedule
of steps (wait, warm-up, record, save), as torch's."""

from __future__ import annotations

import enum as _enum
import os
import warnings as _warnings
from collections.abc import Callable as _Callable
from collections.abc import Iterable as _Iterable
from functools import partial
from typing import Any

from ..autograd import profiler as _prof
from ..autograd.profiler_util import EventList as _EventList

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "schedule", "supported_activities",
           "tensorboard_trace_handler"]


class ProfilerActivity(_enum.Enum):
    """What to profile; a CPU build records ``CPU`` only."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


def supported_activities() -> set[ProfilerActivity]:
    return {ProfilerActivity.CPU}


class ProfilerAction(_enum.Enum):
    """What the profiler does at a step."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
             skip_first_wait: int = 0) -> _Callable[[int], ProfilerAction]:
    """The action of each step: skip ``skip_first``, then cycles of ``wait`` idle,
    ``warmup`` warm-up and ``active`` recorded steps (``repeat`` cycles; 0: no limit)."""
    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return (ProfilerAction.RECORD if mod_step < num_steps - 1
                else ProfilerAction.RECORD_AND_SAVE)

    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        _warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)
    return schedule_fn


_warned_clears = False


def _default_schedule_fn(_: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None,
                              use_gzip: bool = False, use_python_export: bool = False):
    """An ``on_trace_ready`` handler writing ``<worker>.<ns>.pt.trace.json`` into ``dir_name``."""
    import socket
    import time

    def handler_fn(prof) -> None:
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as e:
                raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns()}.pt.trace.json"
        path = os.path.join(dir_name, file_name)
        if use_gzip:
            import gzip
            import shutil
            prof.export_chrome_trace(path)
            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)
        else:
            prof.export_chrome_trace(path)
    return handler_fn


class profile:
    """Profile the ops run inside ``with profile(...) as prof:`` (or between ``start()`` and
    ``stop()``), following ``schedule`` over ``prof.step()`` calls as torch's profiler does;
    ``on_trace_ready(prof)`` runs at the end of each recorded cycle."""

    def __init__(self, *, activities: _Iterable | None = None,
                 schedule: _Callable[[int], ProfilerAction] | None = None,
                 on_trace_ready: _Callable[..., Any] | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_flops: bool = False, with_modules: bool = False, experimental_config=None,
                 execution_trace_observer=None, acc_events: bool = False,
                 use_cuda: bool | None = None, custom_trace_id_callback=None,
                 post_processing_timeout_s: float | None = None) -> None:
        if activities is not None:
            acts: set = set()
            for item in activities:
                if isinstance(item, ProfilerActivity):
                    acts.add(item)
                elif isinstance(item, dict):
                    acts.update(item.keys())
        else:
            acts = supported_activities()
        if use_cuda is not None:
            _warnings.warn("`use_cuda` is deprecated, use `activities` argument instead",
                          FutureWarning, stacklevel=2)
            if use_cuda:
                acts.add(ProfilerActivity.CUDA)
            elif ProfilerActivity.CUDA in acts:
                acts.remove(ProfilerActivity.CUDA)
        if len(acts) == 0:
            raise AssertionError("No valid profiler activities found")
        self.activities = acts
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.acc_events = acc_events
        if schedule:
            self.schedule, self.record_steps = schedule, True
        else:
            self.schedule, self.record_steps = _default_schedule_fn, False
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.step_rec_fn: _prof.record_function | None = None
        self._rec = None
        self._events: _EventList | None = None
        self._traced = False
        action = self.schedule(self.step_num)
        if action == ProfilerAction.DEVICE_STOPPED:
            raise ValueError("ProfilerAction.DEVICE_STOPPED is set internally by the profiler "
                             "and must not be returned by a user-provided schedule")
        self.current_action = action
        A = ProfilerAction
        prepare, start, stop, ready = (self.prepare_trace, self.start_trace, self.stop_trace,
                                       self._trace_ready)
        self.action_map = {
            (A.NONE, A.NONE): [], (A.NONE, A.WARMUP): [prepare],
            (A.NONE, A.RECORD): [prepare, start], (A.NONE, A.RECORD_AND_SAVE): [prepare, start],
            (A.WARMUP, A.NONE): [partial(_warnings.warn,
                                         "Incorrect schedule: WARMUP followed by NONE"),
                                 start, stop],
            (A.WARMUP, A.WARMUP): [], (A.WARMUP, A.RECORD): [start],
            (A.WARMUP, A.RECORD_AND_SAVE): [start],
            (A.RECORD, A.NONE): [partial(_warnings.warn,
                                         "Incorrect schedule: RECORD followed by NONE"), stop],
            (A.RECORD, A.WARMUP): [partial(_warnings.warn,
                                           "Incorrect schedule: RECORD followed by WARMUP"),
                                   stop],
            (A.RECORD, A.RECORD): [], (A.RECORD, A.RECORD_AND_SAVE): [],
            (A.RECORD_AND_SAVE, A.NONE): [stop, ready],
            (A.RECORD_AND_SAVE, A.WARMUP): [stop, ready, prepare],
            (A.RECORD_AND_SAVE, A.RECORD): [stop, ready, prepare, start],
            (A.RECORD_AND_SAVE, A.RECORD_AND_SAVE): [stop, ready, prepare, start],
            (A.WARMUP, None): [start, stop], (A.RECORD, None): [stop, ready],
            (A.RECORD_AND_SAVE, None): [stop, ready],
        }

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> None:
        self._transit_action(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self.step_rec_fn = _prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def stop(self) -> None:
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        self._transit_action(self.current_action, None)

    def step(self) -> None:
        """Mark the end of a step: move along the schedule."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        prev_action = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if self.current_action == ProfilerAction.DEVICE_STOPPED:
            raise ValueError("ProfilerAction.DEVICE_STOPPED is set internally by the profiler "
                             "and must not be returned by a user-provided schedule")
        self._transit_action(prev_action, self.current_action)
        if self.record_steps:
            self.step_rec_fn = _prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def _transit_action(self, prev_action, current_action) -> None:
        for action in self.action_map.get((prev_action, current_action)) or ():
            action()

    def _trace_ready(self) -> None:
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def prepare_trace(self) -> None:
        global _warned_clears
        if self._traced and not self.acc_events:
            if not _warned_clears:
                _warned_clears = True
                _warnings.warn("Warning: Profiler clears events at the end of each cycle. Only "
                              "events from the current cycle will be reported. To keep events "
                              "across cycles, set acc_events=True.", stacklevel=2)
            self._events = None

    def start_trace(self) -> None:
        self._rec = _prof._start(self.record_shapes)

    def stop_trace(self) -> None:
        events = _prof._stop(self._rec)
        self._rec = None
        self._traced = True
        if self.acc_events and self._events is not None:
            events = [*self._events, *events]
        self._events = _EventList(events)

    def events(self) -> _EventList | None:
        """The events of the last recorded cycle."""
        return self._events

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> _EventList:
        """The events averaged by name (and input shapes when ``group_by_input_shape``)."""
        if self._events is None:
            raise AssertionError("Expected profiling results")
        return self._events.key_averages(group_by_input_shape, group_by_stack_n,
                                         group_by_overload_name)

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace JSON file."""
        if self._events is None:
            raise AssertionError("Expected profiling results")
        self._events.export_chrome_trace(path)
