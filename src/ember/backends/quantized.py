"""``ember.backends.quantized``: the quantized engine a CPU torch reports (ember has no
quantized kernels, so the engine named changes nothing)."""

from __future__ import annotations

__all__ = ["engine", "supported_engines"]

supported_engines = ["qnnpack", "onednn", "x86", "fbgemm"]
engine = "x86"


del annotations  # keep dir() to torch's names
