"""The profiler: every op's calls and CPU time, as ``torch.autograd.profiler``.

While a profile is recording, the op registry's runners and the autograd engine's node runner
are rebound to recording ones (see ``registry.route``); otherwise nothing is in the ops' path.
An op is named as torch's (``aten::<op>``), a backward node as torch's engine names it
(``autograd::engine::evaluate_function: MulBackward0`` around ``MulBackward0``), and
``record_function`` ranges nest around what runs inside them.
"""

from __future__ import annotations

import threading as _threading
import time as _time
from contextlib import ContextDecorator as _ContextDecorator
from typing import Any

from .profiler_util import EventList, FunctionEvent

__all__ = ["profile", "record_function", "EventList", "FunctionEvent"]

_perf_ns = _time.perf_counter_ns


class _Recorder:
    """The events of one profile, and the stack of those still open."""

    def __init__(self, record_shapes: bool) -> None:
        self.record_shapes = record_shapes
        self.events: list[FunctionEvent] = []
        self.open: list[FunctionEvent] = []
        self.t0 = _perf_ns()
        self.thread = _threading.get_ident()
        self.tids: dict[int, int] = {}

    def begin(self, name: str, args=None) -> FunctionEvent:
        shapes = None
        if self.record_shapes:
            shapes = [] if args is None else [_shape(a) for a in args]
        tid = self.tids.setdefault(_threading.get_ident(), len(self.tids) + 1)
        # numbered steps are one key in the tables, and keep their number in a trace
        key = "ProfilerStep*" if name.startswith("ProfilerStep#") else name
        ev = FunctionEvent(len(self.events) + 1, key, tid, (_perf_ns() - self.t0) / 1000,
                           input_shapes=shapes, trace_name=name)
        if self.open:
            parent = self.open[-1]
            ev.cpu_parent = parent
            parent.cpu_children.append(ev)
        self.open.append(ev)
        self.events.append(ev)
        return ev

    def end(self, ev: FunctionEvent) -> None:
        ev.end_us = (_perf_ns() - self.t0) / 1000
        while self.open:
            if self.open.pop() is ev:
                break


def _shape(a) -> list:
    shape = getattr(a, "shape", None)
    return list(shape) if shape is not None and not isinstance(a, (list, tuple)) else []


_current: _Recorder | None = None

# the suffixes that tell an entry's variants apart (sum_all, mul_scalar, div_true …)
_VARIANTS = ("_inplace_scalar", "_inplace_tensor", "_inplace_dim", "_inplace", "_scalar_self",
             "_scalar_other", "_scalar_base", "_scalar", "_tensor", "_all", "_dims", "_dim",
             "_op", "_value", "_src", "_true", "_rounding", "_legacy", "_stable", "_decimals")
# private aten ops that keep their underscore
_ATEN_PRIVATE = {"_softmax", "_log_softmax", "_to_copy", "_softmax_backward_data",
                 "_log_softmax_backward_data", "_safe_softmax", "_mkldnn_rnn_layer",
                 "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward", "_adaptive_avg_pool3d",
                 "_adaptive_avg_pool3d_backward", "_embedding_backward"}
# entries whose kernel is a part of a differently named aten op
_RENAMED = {"batch_norm_eval": "native_batch_norm", "batch_norm_train": "native_batch_norm",
            "layer_norm": "native_layer_norm", "group_norm": "native_group_norm",
            "bce_with_logits": "binary_cross_entropy_with_logits", "unique2": "_unique2",
            "conv_input_grad": "convolution_backward", "conv_weight_grad": "convolution_backward",
            "rnn_transpose": "transpose", "fill": "fill_", "zero": "zero_", "copy": "copy_"}
_ATEN_NAMES: dict[str, str] = {}


def _snake(camel: str) -> str:
    import re
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).lower()


def _aten_name(op) -> str:
    """torch's ``aten::`` name of a registry entry (``_mm`` is ``aten::mm``, ``sum_all`` is
    ``aten::sum``, ``_index_pad_ReflectionPad2DBackward0`` is ``aten::reflection_pad2d``)."""
    name = _ATEN_NAMES.get(op.name)
    if name is None:
        name = op.name
        if name not in _ATEN_PRIVATE:
            if "Backward" in name and name[0] == "_":   # one entry per node: named by it
                node = name.rsplit("_", 1)[-1] if not name.endswith("_unique") else (
                    name[:-7].rsplit("_", 1)[-1])
                node = node.replace("Backward0", "").replace("Aa", "_aa")
                for d in "123":
                    node = node.replace(d + "D", d + "d")
                base = _snake(node)
                name = base + ("_backward" if "_bwd_" in op.name or "_backward_" in op.name
                               else "")
            else:
                name = name.strip("_")
                for suffix in _VARIANTS:
                    if name.endswith(suffix) and len(name) > len(suffix):
                        name = name[:-len(suffix)]
                        break
                name = _RENAMED.get(name, name)
        _ATEN_NAMES[op.name] = name = "aten::" + name
    return name


class _Recording:
    """The recording runners (in a class: ``registry.route`` rebinds module globals)."""

    @staticmethod
    def run(op, args, out=None, method=False):
        rec = _current
        ev = rec.begin(_aten_name(op), args)
        try:
            return _PLAIN[0](op, args, out, method)
        finally:
            rec.end(ev)

    @staticmethod
    def run_inplace(op, args):
        rec = _current
        ev = rec.begin(_aten_name(op) + "_", args)
        try:
            return _PLAIN[1](op, args)
        finally:
            rec.end(ev)

    @staticmethod
    def run_node(node, grads, *rest):
        rec = _current
        name = node.name()
        outer = rec.begin("autograd::engine::evaluate_function: " + name)
        inner = rec.begin(name, grads)
        try:
            return _PLAIN[2](node, grads, *rest)
        finally:
            rec.end(inner)
            rec.end(outer)


def _start(record_shapes: bool) -> _Recorder | None:
    """Start recording into a new recorder; None when one is already recording."""
    global _current
    if _current is not None:
        return None
    from .._ops import registry
    from . import engine
    _PLAIN[:] = [registry.run, registry.run_inplace, engine._run_node]
    _current = _Recorder(record_shapes)
    registry.route(_Recording.run, _Recording.run_inplace)
    engine._run_node = _Recording.run_node
    return _current


def _stop(rec: _Recorder | None) -> list[FunctionEvent]:
    """Stop ``rec`` (from :func:`_start`) and return its events in start order."""
    global _current
    if rec is None or rec is not _current:
        return []
    from .._ops import registry
    from . import engine
    registry.route(_PLAIN[0], _PLAIN[1])
    engine._run_node = _PLAIN[2]
    _current = None
    now = (_perf_ns() - rec.t0) / 1000
    for ev in rec.open:        # ranges left open (a profile stopped inside record_function)
        ev.end_us = now
    return rec.events


# the plain runners while recording (in a list: ``registry.route`` rebinds module globals)
_PLAIN: list = [None, None, None]


class record_function(_ContextDecorator):
    """A named range in the profile (a context manager or a decorator); free when no profile
    is recording."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._entered: tuple | None = None

    def __enter__(self) -> record_function:
        rec = _current
        if rec is not None:
            ev = rec.begin(self.name)
            ev.is_user_annotation = True
            self._entered = (rec, ev)
        return self

    def __exit__(self, *exc: Any) -> bool:
        if self._entered is not None:
            rec, ev = self._entered
            self._entered = None
            if rec is _current:
                rec.end(ev)
        return False


def _record_function_enter(name: str, args: str | None = None) -> record_function:
    """``torch.ops.profiler._record_function_enter[_new]``: open a :class:`record_function`
    range; the handle it returns closes it (:func:`_record_function_exit`)."""
    handle = record_function(name, args)
    handle.__enter__()
    return handle


def _record_function_exit(handle) -> None:
    """``torch.ops.profiler._record_function_exit``: close the range ``handle`` opened."""
    if not isinstance(handle, record_function):
        raise RuntimeError("Expected temporary cpp type wrapper")
    handle.__exit__(None, None, None)


_PROFILER_OPS = {"_record_function_enter": _record_function_enter,
                 "_record_function_enter_new": _record_function_enter,
                 "_record_function_exit": _record_function_exit}


class profile:
    """Record the ops run inside ``with profile() as prof:``; ``prof.key_averages().table()``
    prints torch's summary table, ``export_chrome_trace`` writes a trace."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None,
                 record_shapes: bool = False, with_flops: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True,
                 experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.with_stack = with_stack
        self.profile_memory = profile_memory
        self.with_flops = with_flops
        self.use_device = use_device
        self.entered = False
        self._rec: _Recorder | None = None
        self._function_events: EventList | None = None

    def __enter__(self) -> profile | None:
        if not self.enabled:
            return None                     # (torch's disabled profiler enters as None)
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._rec = _start(self.record_shapes)
        return self

    def __exit__(self, *exc: Any) -> bool:
        if not self.enabled:
            return False
        self._function_events = EventList(_stop(self._rec))
        self._rec = None
        return False

    def _check_finish(self) -> None:
        if self._function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    @property
    def function_events(self) -> EventList:
        self._check_finish()
        return self._function_events

    def events(self) -> EventList:
        return self.function_events

    def __repr__(self) -> str:
        return "<unfinished torch.autograd.profile>" if self._function_events is None else repr(
            self._function_events)

    def __str__(self) -> str:
        return ("<unfinished torch.autograd.profile>" if self._function_events is None
                else str(self._function_events))

    def table(self, sort_by=None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header=None, top_level_events_only: bool = False, time_unit=None) -> str:
        self._check_finish()
        return self._function_events.table(
            sort_by=sort_by, row_limit=row_limit, max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width, header=header,
            top_level_events_only=top_level_events_only, time_unit=time_unit)

    table.__doc__ = EventList.table.__doc__

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """The events averaged by name (and input shapes when ``group_by_input_shape``)."""
        self._check_finish()
        return self._function_events.key_averages(group_by_input_shape, group_by_stack_n,
                                                  group_by_overload_name)

    def total_average(self):
        self._check_finish()
        return self._function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        self._check_finish()
        return self._function_events.self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        self._check_finish()
        self._function_events.export_chrome_trace(path)


del annotations  # keep dir() to torch's names
