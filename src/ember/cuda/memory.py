"""``ember.cuda.memory``: CUDA's memory tools, failing as a CPU-only torch's do (the memory
counters themselves are ``ember.cuda.memory_allocated`` …)."""

from __future__ import annotations

from . import (  # noqa: F401  (torch.cuda.memory re-exports the counters)
    _missing_binding,
    empty_cache,
    max_memory_allocated,
    memory_allocated,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_peak_memory_stats,
)

_record_memory_history = _missing_binding("_cuda_record_memory_history")
_snapshot = _missing_binding("_cuda_memorySnapshot")
_dump_snapshot = _missing_binding("_cuda_memorySnapshot")


del annotations  # keep dir() to torch's names
