"""The MPI side of ``ember.distributed``: mpi4py loaded on first use, datatypes and
reduction ops for every dtype, requests waited on with a timeout, and the abort that turns
one rank's failure into the whole job's.

Importing ``mpi4py.MPI`` initialises MPI, so nothing here touches it before a process group
is asked for.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np


def available() -> bool:
    """Whether mpi4py (and so an MPI library) can be imported, without initialising MPI."""
    import importlib.util

    return importlib.util.find_spec("mpi4py") is not None


_MPI = None


def mpi():
    """The ``mpi4py.MPI`` module (initialising MPI on the first call)."""
    global _MPI
    if _MPI is None:
        try:
            from mpi4py import MPI
        except ImportError as e:
            raise RuntimeError(
                "ember.distributed needs mpi4py and an MPI library: pip install 'ember[dist]' "
                "(mpi4py and mpich)") from e
        _MPI = MPI
    return _MPI


def initialized() -> bool:
    """Whether this process has started MPI (and not finalised it)."""
    m = sys.modules.get("mpi4py.MPI")
    return m is not None and m.Is_initialized() and not m.Is_finalized()


class DistError(RuntimeError):
    """torch.distributed's base error."""


class DistBackendError(DistError):
    """An error of the communication backend: a timeout, a mismatched call, an MPI failure."""


class DistNetworkError(DistError):
    """torch.distributed's network error (kept for ``except`` clauses written for torch)."""


class DistStoreError(DistError):
    """torch.distributed's store error (kept for ``except`` clauses written for torch)."""


for _cls in (DistError, DistBackendError, DistNetworkError, DistStoreError):
    _cls.__module__ = "ember.distributed"


# ------------------------------------------------------------------ datatypes and reduce ops

_DATATYPES: dict = {}
_USER_OPS: dict = {}            # (op name, dtype) -> MPI op, MPI's own or made here


def datatype(dtype: np.dtype):
    """The MPI datatype of one element of ``dtype`` (a committed contiguous byte type for
    dtypes MPI has no type for, such as float16)."""
    t = _DATATYPES.get(dtype)
    if t is None:
        MPI = mpi()
        t = _native(dtype)
        if t is None:
            t = MPI.BYTE.Create_contiguous(dtype.itemsize).Commit()
        _DATATYPES[dtype] = t
    return t


def _native(dtype: np.dtype):
    MPI = mpi()
    return {("b", 1): MPI.C_BOOL, ("i", 1): MPI.INT8_T, ("u", 1): MPI.UINT8_T,
            ("i", 2): MPI.INT16_T, ("i", 4): MPI.INT32_T, ("i", 8): MPI.INT64_T,
            ("u", 2): MPI.UINT16_T, ("u", 4): MPI.UINT32_T, ("u", 8): MPI.UINT64_T,
            ("f", 4): MPI.FLOAT, ("f", 8): MPI.DOUBLE, ("c", 8): MPI.C_FLOAT_COMPLEX,
            ("c", 16): MPI.C_DOUBLE_COMPLEX}.get((dtype.kind, dtype.itemsize))


_NUMPY_OPS = {"SUM": np.add, "PRODUCT": np.multiply, "MIN": np.minimum, "MAX": np.maximum,
              "BAND": np.bitwise_and, "BOR": np.bitwise_or, "BXOR": np.bitwise_xor}
_BOOL_OPS = {"SUM": "LOR", "MAX": "LOR", "BOR": "LOR", "PRODUCT": "LAND", "MIN": "LAND",
             "BAND": "LAND", "BXOR": "LXOR"}


def reduce_op(name: str, dtype: np.dtype):
    """The MPI op reducing ``dtype`` elements by ``name`` (SUM, PRODUCT, MIN, MAX, B*): MPI's
    own where it has the datatype, else one made from NumPy's ufunc; on bool, the logical
    op (SUM and MAX are ``or``, PRODUCT and MIN ``and``)."""
    op = _USER_OPS.get((name, dtype))
    if op is not None:
        return op
    MPI = mpi()
    if dtype.kind == "b":
        op = getattr(MPI, _BOOL_OPS[name])
    elif _native(dtype) is not None:
        op = getattr(MPI, "PROD" if name == "PRODUCT" else name)
    else:
        ufunc = _NUMPY_OPS[name]

        def apply(inbuf, inoutbuf, _datatype, ufunc=ufunc, dtype=dtype):
            a = np.frombuffer(inbuf, dtype)
            b = np.frombuffer(inoutbuf, dtype)
            ufunc(a, b, out=b)

        op = MPI.Op.Create(apply, commute=True)
    _USER_OPS[(name, dtype)] = op
    return op


def as_bytes(arr: np.ndarray) -> list:
    """``arr``'s memory as an MPI byte buffer (no copy; ``arr`` must be contiguous)."""
    return [arr.reshape(-1).view(np.uint8), mpi().BYTE]


def as_typed(arr: np.ndarray) -> list:
    """``arr``'s memory as an MPI buffer of its own element type (no copy)."""
    flat = arr.reshape(-1)
    if flat.dtype.kind == "b":
        return [flat.view(np.uint8), datatype(flat.dtype)]
    return [flat, datatype(flat.dtype)]


# ------------------------------------------------------------------ waiting with a timeout

def _timeout_message(what: str, timeout: float, rank: int) -> str:
    return (f"[rank {rank}] {what} did not complete within {timeout:g} s (the process group's "
            "timeout): another rank has failed, exited, or is not making the same call")


def wait(request, timeout: float, what: str, rank: int):
    """Wait for an MPI request, driving MPI's progress; raise ``DistBackendError`` if it is
    not done within ``timeout`` seconds. Returns the request's status."""
    MPI = mpi()
    status = MPI.Status()
    if request.Test(status):
        return status
    deadline = time.monotonic() + timeout
    spins = 0
    while not request.Test(status):
        spins += 1
        if spins > 64:
            os.sched_yield()        # ranks may outnumber cores: let the others run
        if spins & 255 == 0 and time.monotonic() > deadline:
            raise DistBackendError(_timeout_message(what, timeout, rank))
    return status


class _Watchdog:
    """Bounds MPI's blocking calls: the main thread names the call and its deadline (two
    attribute writes, nothing more per call) and a daemon thread, looking a few times a
    second, aborts the job with a clear message once a call outlives its deadline. Blocking
    calls keep MPI's own (fastest) algorithms; ``Work.wait`` raises instead."""

    def __init__(self) -> None:
        self.call = None            # (what, deadline, timeout) of the blocking call under way
        self.thread = None

    def start(self) -> None:
        if self.thread is None:
            import threading
            self.thread = threading.Thread(target=self._watch, name="ember.distributed watchdog",
                                           daemon=True)
            self.thread.start()

    def _watch(self) -> None:
        while True:
            call = self.call
            if call is not None and time.monotonic() > call[1]:
                self._fire(*call)
            time.sleep(0.05 if call is None else min(0.05, max(call[1] - time.monotonic(), 0)))

    def _fire(self, what: str, _deadline: float, timeout: float) -> None:
        import threading
        import traceback
        frame = sys._current_frames().get(threading.main_thread().ident)
        if frame is not None:              # where the program waits (ember's own frames left out)
            here = os.path.dirname(os.path.abspath(__file__))
            frames = [f for f in traceback.extract_stack(frame)
                      if not f.filename.startswith(("<frozen", here))]
            _say("The call that waited (most recent call last):\n"
                 + "".join(traceback.format_list(frames)).rstrip())
        abort(1, _timeout_message(what, timeout, mpi().COMM_WORLD.Get_rank()))

    def run(self, what: str, timeout: float, fn, *args, **kwargs):
        """``fn(*args, **kwargs)`` (a blocking MPI call), watched."""
        self.call = (what, time.monotonic() + timeout, timeout)
        try:
            return fn(*args, **kwargs)
        finally:
            self.call = None


watchdog = _Watchdog()


# ------------------------------------------------------------------ one failure ends the job

_hook_installed = False


def install_abort_on_failure() -> None:
    """Make an uncaught exception on this rank print its traceback and abort every rank
    (MPI_Abort), instead of leaving the others waiting in a collective for ever."""
    global _hook_installed
    if _hook_installed:
        return
    _hook_installed = True
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        abort(1, f"uncaught {kind.__name__}")

    sys.excepthook = hook


def abort(code: int, why: str) -> None:
    """Print why, then end every rank of the job with exit status ``code``."""
    code = code or 1
    if initialized():
        MPI = mpi()
        rank, size = MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size()
        _say(f"ember.distributed: rank {rank} failed ({why}); aborting all {size} ranks")
        time.sleep(0.3)     # let mpiexec forward this rank's last output before it kills it
        MPI.COMM_WORLD.Abort(code)
    else:
        rank = os.environ.get("RANK") or os.environ.get("PMI_RANK") or "?"
        _say(f"ember.distributed: rank {rank} failed ({why})")
    os._exit(code)


def _say(line: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
