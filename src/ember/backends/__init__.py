"""``ember.backends``: the backend flags of a CPU-only torch build (cudnn, cuda, mps …).

The flags are kept and read back as torch keeps them; none changes how ember computes, as none
changes a CPU torch's results either.
"""

from __future__ import annotations

from . import cpu, cuda, cudnn, mha, mkldnn, mps, openmp, quantized


del annotations  # keep dir() to torch's names
