"""``ember.cuda.nccl``: NVIDIA's collectives library, absent as from a CPU-only torch."""

from __future__ import annotations

from . import _missing_binding

version = _missing_binding("_nccl_version")


del annotations  # keep dir() to torch's names
