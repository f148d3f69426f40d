"""``ember.profiler``: torch.profiler's ``profile``, ``schedule`` and ``record_function``."""

from __future__ import annotations

from ..autograd.profiler import record_function
from .profiler import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    schedule,
    supported_activities,
    tensorboard_trace_handler,
)

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ProfilerActivity", "record_function"]


del annotations  # keep dir() to torch's names
