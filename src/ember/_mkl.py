"""MKL's runtime: found at ``import ember``, loaded in the background while the import goes on.

torch's import loads MKL with torch's own library, so a program's first product costs no
library loading. MKL's first call loads its threading and core libraries (tens of megabytes
to map and relocate) and reads the CPU's topology; ctypes releases the GIL around both, so
Ember starts that work on a daemon thread at import and the Python half of the import runs
meanwhile. The first caller of :func:`library` waits for the thread; so does ``os.fork``
(a child must not inherit a dynamic loader that another thread holds).

``EMBER_MKL=0`` switches MKL off; ``EMBER_MKL_LIB`` names the library file to load.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

_SEQUENTIAL, _GNU = 1, 3             # MKL_THREADING_SEQUENTIAL, MKL_THREADING_GNU


def _candidates() -> list[str]:
    """Paths where a ``libmkl_rt`` may lie, most specific first."""
    named = os.environ.get("EMBER_MKL_LIB")
    if named:
        return [named]
    found: list[str] = []
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        for sub in ("lib", "Library/bin", "Lib"):
            found += sorted(_matching(os.path.join(prefix, sub), "mkl_rt"), reverse=True)
    return [p for p in found if os.path.isfile(p)]


def _matching(folder: str, part: str) -> list[str]:
    """The paths of the entries of ``folder`` whose names hold ``part`` (as the glob
    ``*part*``: hidden names aside)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if part in n and not n.startswith(".")]


def _find() -> str | None:
    if os.environ.get("EMBER_MKL", "1") == "0":
        return None
    paths = _candidates()
    return paths[0] if paths else None


def _threading_layer() -> int:
    """GNU OpenMP, as torch's MKL runs, where the system has libgomp; else sequential.

    Threaded MKL splits a small product's rows between threads, and the parts round
    differently from the whole: torch's bits for a given thread count need the same split."""
    try:
        ctypes.CDLL("libgomp.so.1", mode=ctypes.RTLD_GLOBAL)
    except OSError:
        return _SEQUENTIAL
    return _GNU


PATH = _find()
_loaded: list = []                   # [the library, or None where it failed to load]
_lock = threading.Lock()


def _load() -> None:
    """Load the library, pick its threading layer and make one small float32 product, which
    sets up what a first product needs (once; under the lock). The product is 2 x 2 x 2:
    MKL answers a 1 x 1 x 1 one without its gemm driver, whose first call costs about a
    millisecond."""
    with _lock:
        if _loaded:
            return
        lib = None
        try:
            lib = ctypes.CDLL(PATH)
            lib.MKL_Set_Threading_Layer(ctypes.c_int(_threading_layer()))
            ones = (ctypes.c_float * 4)(1.0, 1.0, 1.0, 1.0)
            out = (ctypes.c_float * 4)()
            # cblas_sgemm(ColMajor, NoTrans, NoTrans, 2, 2, 2, 1, ones, 2, ones, 2, 0, out, 2)
            lib.cblas_sgemm(102, 111, 111, 2, 2, 2, ctypes.c_float(1.0), ones, 2, ones, 2,
                            ctypes.c_float(0.0), out, 2)
        except (OSError, AttributeError):
            lib = None
        _loaded.append(lib)


def library():
    """MKL's runtime (waiting for the background load), or None where it is not installed
    or does not load."""
    if not _loaded:
        if PATH is None:
            _loaded.append(None)
        else:
            _load()
    return _loaded[0]


def start() -> None:
    """Begin loading MKL's runtime on a daemon thread (nothing without MKL)."""
    if PATH is not None and not _loaded:
        threading.Thread(target=_load, name="ember-mkl-load", daemon=True).start()
        os.register_at_fork(before=library)
