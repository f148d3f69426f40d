"""``ExplainOutput``: the report of :func:`ember._dynamo.explain`, printed as torch prints it."""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["ExplainOutput"]


@dataclasses.dataclass
class ExplainOutput:
    """The graphs a function was captured as, their ops and the breaks between them."""

    graphs: list
    graph_count: int
    graph_break_count: int
    break_reasons: list
    op_count: int
    ops_per_graph: list | None = None
    out_guards: list | None = None
    compile_times: str | None = None

    def __str__(self) -> str:
        output = f"Graph Count: {self.graph_count}\n"
        output += f"Graph Break Count: {self.graph_break_count}\n"
        output += f"Op Count: {self.op_count}\n"
        output += "Break Reasons:\n"
        for idx, break_reason in enumerate(self.break_reasons):
            output += f"  Break Reason {idx + 1}:\n"
            output += f"    Reason: {break_reason.reason}\n"
            output += "    User Stack:\n"
            for frame_summary in break_reason.user_stack:
                output += f"      {frame_summary}\n"
        if self.ops_per_graph is not None:
            output += "Ops per Graph:\n"
            for idx, ops in enumerate(self.ops_per_graph):
                output += f"  Ops {idx + 1}:\n"
                for op in ops:
                    output += f"    {op}\n"
        if self.out_guards is not None:
            output += "Out Guards:\n"
            for i, guard in enumerate(self.out_guards):
                output += f"  Guard {i + 1}:\n"
                output += f"    {guard}"
        if self.compile_times is not None:
            output += f"Compile Times: {self.compile_times}\n"
        return output


@dataclasses.dataclass
class GraphCompileReason:
    """Why a graph ended where it did (``graph_break``: at a break, not at the return)."""

    reason: str
    user_stack: list
    graph_break: bool = True

    def __post_init__(self) -> None:
        self.user_stack: Any = list(self.user_stack)
