"""``spawn``/``start_processes``: run ``fn(i, *args)`` in ``nprocs`` processes, as torch does.

A child's exception is pickled (as its formatted traceback) into a per-process error file;
the parent's :meth:`ProcessContext.join` raises it as :class:`ProcessRaisedException`, or
:class:`ProcessExitedException` when a child died without one.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import tempfile
import time
import warnings


class ProcessException(Exception):
    __slots__ = ["error_index", "error_pid"]

    def __init__(self, msg: str, error_index: int, pid: int):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child process raised an exception; the message carries its traceback."""


class ProcessExitedException(ProcessException):
    """A child process exited with a non-zero code or was killed by a signal."""

    __slots__ = ["exit_code"]

    def __init__(self, msg: str, error_index: int, error_pid: int, exit_code: int,
                 signal_name: str | None = None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return (type(self), (self.msg, self.error_index, self.pid, self.exit_code,
                             self.signal_name))


def _wrap(fn, i, args, error_file):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:   # noqa: BLE001  (any failure goes to the parent)
        import traceback
        with open(error_file, "wb") as fh:
            pickle.dump(traceback.format_exc(), fh)
        sys.exit(1)


class ProcessContext:
    """The started processes; :meth:`join` waits for them and reports the first failure."""

    def __init__(self, processes, error_files):
        self.error_files = error_files
        self.processes = processes
        self.sentinels = {p.sentinel: k for k, p in enumerate(processes)}

    def pids(self) -> list[int]:
        return [int(p.pid) for p in self.processes]

    def _join_all(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        for p in self.processes:
            p.join(max(0.0, end - time.monotonic()))

    def join(self, timeout: float | None = None, grace_period: float | None = None) -> bool:
        """True once every process has exited successfully; False while some still run
        (after ``timeout``); raises on the first failure, terminating the others."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(self.sentinels.keys(), timeout=timeout)
        error_index = None
        for sentinel in ready:
            k = self.sentinels.pop(sentinel)
            p = self.processes[k]
            p.join()
            if p.exitcode != 0:
                error_index = k
                break
        if error_index is None:
            return not self.sentinels
        for p in self.processes:
            if p.is_alive():
                p.terminate()
        self._join_all(30 if grace_period is None else grace_period)
        failed = self.processes[error_index]
        if not os.path.exists(self.error_files[error_index]):
            code = failed.exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException(
                    f"process {error_index:d} terminated with signal {name}",
                    error_index=error_index, error_pid=failed.pid, exit_code=code,
                    signal_name=name)
            raise ProcessExitedException(
                f"process {error_index:d} terminated with exit code {code:d}",
                error_index=error_index, error_pid=failed.pid, exit_code=code)
        with open(self.error_files[error_index], "rb") as fh:
            trace = pickle.load(fh)
        msg = f"\n\n-- Process {error_index:d} terminated with the following error:\n{trace}"
        raise ProcessRaisedException(msg, error_index, failed.pid)


def start_processes(fn, args=(), nprocs: int = 1, join: bool = True, daemon: bool = False,
                    start_method: str = "spawn"):
    """Start ``nprocs`` processes running ``fn(i, *args)`` with the given start method;
    wait for them when ``join`` (returns None), else return their :class:`ProcessContext`."""
    mp = multiprocessing.get_context(start_method)
    processes, error_files = [], []
    for k in range(nprocs):
        fd, name = tempfile.mkstemp(prefix="ember-errorfile-", suffix=".pickle")
        os.close(fd)
        os.unlink(name)
        p = mp.Process(target=_wrap, args=(fn, k, args, name), daemon=daemon)
        p.start()
        processes.append(p)
        error_files.append(name)
    context = ProcessContext(processes, error_files)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs: int = 1, join: bool = True, daemon: bool = False,
          start_method: str = "spawn"):
    """Spawn ``nprocs`` fresh processes running ``fn(i, *args)`` (``fn`` must be picklable).

    Always uses the ``spawn`` start method, as torch does; for another use
    :func:`start_processes`.
    """
    if start_method != "spawn":
        warnings.warn(
            f"This method only supports start_method=spawn (got: {start_method}).\n"
            "To use a different start_method use:\n\t\t torch.multiprocessing.start_processes(...)",
            FutureWarning, stacklevel=2)
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")


del annotations  # keep dir() to torch's names
