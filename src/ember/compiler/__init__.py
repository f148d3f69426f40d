"""``ember.compiler``: torch's public compiler controls, for code that runs eagerly."""

from __future__ import annotations

from .._dynamo import allow_in_graph, disable, is_compiling, reset

__all__ = ["reset", "disable", "is_compiling", "is_dynamo_compiling", "allow_in_graph"]

is_dynamo_compiling = is_compiling


del annotations  # keep dir() to torch's names
