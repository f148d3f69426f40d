"""``ember.signal.windows``: SciPy-style window functions (``torch.signal.windows``)."""

from .windows import (
    bartlett,
    blackman,
    cosine,
    exponential,
    gaussian,
    general_cosine,
    general_hamming,
    hamming,
    hann,
    kaiser,
    nuttall,
)

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]
