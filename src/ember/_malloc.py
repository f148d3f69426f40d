"""Keep freed tensor memory in the process instead of handing it back to the OS at once.

NumPy allocates every array with ``malloc``. glibc serves blocks above its mmap threshold
(128 KiB at start, rising only as far as the largest block freed so far) with a fresh
``mmap`` and unmaps them on ``free``, and it trims the heap whenever its free top exceeds
twice that threshold. A training step allocates and frees the same few-megabyte arrays every
iteration, so each step would fault all of their pages in again: about 750 page faults and
40 % of the time of an MLP step. Raising both thresholds once, as a long-running tensor
program wants, lets glibc reuse those blocks. A process that sets any ``MALLOC_*``
tunable in its environment keeps its own choice, and other C libraries are left as they are.
"""

from __future__ import annotations

import os
import sys

MMAP_THRESHOLD = 32 << 20     # glibc's upper bound for M_MMAP_THRESHOLD on 64-bit
TRIM_THRESHOLD = 64 << 20     # twice it, as glibc's own dynamic rule would set

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def tune() -> bool:
    """Raise glibc's mmap and trim thresholds; True when they were set."""
    if not sys.platform.startswith("linux"):
        return False
    if any(k.startswith(("MALLOC_", "GLIBC_TUNABLES")) for k in os.environ):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):     # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
