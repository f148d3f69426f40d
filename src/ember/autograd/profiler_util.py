"""Profiler events and their summary table, as ``torch.autograd.profiler_util``."""

from __future__ import annotations

from collections import defaultdict

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg"]


def _format_time(time_us: float) -> str:
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us: float, total_time_us: float) -> str:
    if total_time_us == 0:
        if time_us != 0:
            raise AssertionError(f"Expected time_us == 0 but got {time_us}")
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


class _TimeStrings:
    """The ``*_str`` forms of the times, as torch's events give them."""

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)

    # a CPU build has no device times
    self_device_time_total = 0
    device_time_total = 0
    device_time = 0
    self_device_memory_usage = 0
    device_memory_usage = 0
    cpu_memory_usage = 0
    self_cpu_memory_usage = 0
    flops = 0
    node_id = -1
    is_async = False
    is_legacy = False
    is_remote = False
    is_user_annotation = False
    use_device = None
    overload_name = ""
    device_type = "CPU"


class FunctionEvent(_TimeStrings):
    """One recorded call: an op, a backward node or a ``record_function`` range."""

    def __init__(self, id: int, name: str, thread: int, start_us: float, end_us: float = 0.0,
                 input_shapes=None, stack=None, trace_name: str | None = None) -> None:
        self.id = id
        self.name = name
        self.trace_name = name if trace_name is None else trace_name
        self.thread = thread
        self.start_us = start_us
        self.end_us = end_us
        self.input_shapes = input_shapes
        self.stack = stack or []
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.count = 1

    def append_cpu_child(self, child: FunctionEvent) -> None:
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent: FunctionEvent) -> None:
        self.cpu_parent = parent

    @property
    def key(self) -> str:
        return self.name

    @property
    def cpu_time_total(self) -> float:
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total

    @property
    def time_range(self):
        from types import SimpleNamespace
        return SimpleNamespace(start=self.start_us, end=self.end_us,
                               elapsed_us=lambda: self.cpu_time_total)

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} overload_name= "
                f"device_type=DeviceType.CPU node_id=-1 cpu_time={self.cpu_time_str} "
                f"start_us={self.start_us} end_us={self.end_us} "
                f"cpu_children={[c.id for c in self.cpu_children]} "
                f"input_shapes={self.input_shapes}>")


class FunctionEventAvg(_TimeStrings):
    """The events of one key (name, and shapes when grouped by them) added together."""

    def __init__(self) -> None:
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.stack = None
        self.cpu_parent = None
        self.cpu_children = None

    def add(self, other) -> FunctionEventAvg:
        if self.key is None:
            self.key = other.key
            self.cpu_parent = other.cpu_parent
            self.cpu_children = other.cpu_children
            self.input_shapes = other.input_shapes
            self.stack = other.stack
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.count += other.count
        return self

    __iadd__ = add

    @property
    def cpu_time(self) -> float:
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events with torch's summaries: ``table``, ``key_averages``, ``total_average``
    and ``export_chrome_trace``."""

    def __init__(self, *args, use_device=None, profile_memory=False, with_flops=False,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._with_flops = with_flops

    def __str__(self) -> str:
        return self.table()

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header=None, top_level_events_only: bool = False, time_unit=None) -> str:
        """The events as torch's profiler table, sorted by an attribute (``"cpu_time_total"``,
        ``"self_cpu_time_total"``, ``"count"`` …), descending."""
        return _build_table(self, sort_by=sort_by, header=header, row_limit=row_limit,
                            max_src_column_width=max_src_column_width,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width,
                            top_level_events_only=top_level_events_only, time_unit=time_unit)

    def key_averages(self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """One :class:`FunctionEventAvg` per name (and input shapes, and stack head)."""
        stats: defaultdict = defaultdict(FunctionEventAvg)
        for evt in self:
            key = [evt.key]
            if group_by_input_shapes:
                key.append(str(evt.input_shapes))
            if group_by_stack_n > 0:
                key += evt.stack[:group_by_stack_n]
            stats[tuple(key)].add(evt)
        avg_list = EventList(stats.values(), use_device=self._use_device)
        for evt in avg_list:
            evt.stack = evt.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                evt.input_shapes = ""
        return avg_list

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
            total.key = None
        total.key = "Total"
        return total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (``chrome://tracing``, Perfetto) JSON file."""
        import json
        import os
        pid = os.getpid()
        events = [{"ph": "X", "cat": "user_annotation" if e.is_user_annotation else "cpu_op",
                   "name": e.trace_name, "pid": pid, "tid": e.thread, "ts": e.start_us,
                   "dur": e.cpu_time_total,
                   "args": {"Input Dims": e.input_shapes} if e.input_shapes else {}}
                  for e in self if isinstance(e, FunctionEvent)]
        with open(path, "w") as f:
            json.dump({"traceEvents": events, "displayTimeUnit": "ms"}, f)


def _build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                 max_name_column_width=55, max_shapes_column_width=80,
                 top_level_events_only=False, time_unit=None) -> str:
    """torch's summary table of events (the CPU columns)."""
    if len(events) == 0:
        return ""
    has_input_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0
                           for e in events)
    if sort_by is not None:
        key = sort_by.replace("cuda", "device").replace("xpu", "device")
        events = EventList(sorted(events, key=lambda e: getattr(e, key), reverse=True))
    name_width = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_width = min(shapes_width, max_shapes_column_width)
    stacks = [e.stack for e in events if e.stack]
    src_width = None
    if stacks:
        src_width = max(max(len(s) for s in stack) for stack in stacks) + 4
        if max_src_column_width is not None:
            src_width = min(src_width, max_src_column_width)

    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
               "# of Calls"]
    spacing = 2
    row_format, header_sep, line_length = "", "", -spacing

    def add_column(padding, text_dir=">"):
        nonlocal row_format, header_sep, line_length
        row_format += "{: " + text_dir + str(padding) + "}" + " " * spacing
        header_sep += "-" * padding + " " * spacing
        line_length += padding + spacing

    add_column(name_width)
    for _ in headers[1:]:
        add_column(12)
    if has_input_shapes:
        headers.append("Input Shapes")
        add_column(shapes_width)
    if stacks:
        headers.append("Source Location")
        add_column(src_width, text_dir="<")

    result = []

    def append(s):
        result.append(s)
        result.append("\n")

    def unit(time_us, default):
        if time_unit == "s":
            return f"{time_us / 1e6:.3f}s"
        if time_unit == "ms":
            return f"{time_us / 1e3:.3f}ms"
        if time_unit == "us":
            return f"{time_us:.3f}us"
        return default

    def trim_path(path, width):
        if len(path) > width:
            path = path[len(path) - width:]
            if len(path) > 3:
                path = "..." + path[3:]
        return path

    total_self = sum(e.self_cpu_time_total for e in events)
    if header is not None:
        append("=" * line_length)
        append(header)
    if top_level_events_only:
        append("=" * line_length)
        append("This report only display top-level ops statistics")
    append(header_sep)
    append(row_format.format(*headers))
    append(header_sep)
    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        shown += 1
        name = evt.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        row = [name, _format_time_share(evt.self_cpu_time_total, total_self),
               unit(evt.self_cpu_time_total, evt.self_cpu_time_total_str),
               _format_time_share(evt.cpu_time_total, total_self),
               unit(evt.cpu_time_total, evt.cpu_time_total_str),
               unit(evt.cpu_time, evt.cpu_time_str), evt.count]
        if has_input_shapes:
            row.append(str(evt.input_shapes)[:shapes_width])
        if stacks:
            row.append(trim_path(evt.stack[0], src_width) if evt.stack else "")
        append(row_format.format(*row))
        if stacks:
            empty = [""] * (len(headers) - 1)
            for entry in evt.stack[1:]:
                append(row_format.format(*(empty + [trim_path(entry, src_width)])))
            append(row_format.format(*(empty + [""])))
    append(header_sep)
    append(f"Self CPU time total: {unit(total_self, _format_time(total_self))}")
    return "".join(result)


del annotations  # keep dir() to torch's names
