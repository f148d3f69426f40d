"""``torch.version``: the torch API level ember implements, and what a CPU-only build reports.

``__version__`` is the torch release whose behaviour ember follows (what code that checks
``torch.__version__`` asks about); ``ember_version`` is ember's own release.
"""

from __future__ import annotations

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu", "ember_version"]

__version__ = "2.13.0"
ember_version = "0.1.0"
debug = False
cuda: str | None = None
git_version = "Unknown"
hip: str | None = None
rocm: str | None = None
xpu: str | None = None


del annotations  # keep dir() to torch's names
