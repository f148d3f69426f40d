"""``ember.futures``: torch's ``Future``, a value that a callback or another thread delivers.

>>> import ember
>>> f = ember.futures.Future()
>>> g = f.then(lambda fut: fut.wait() + 1)
>>> f.set_result(1)
>>> (f.wait(), g.wait(), ember.futures.wait_all([f, g]))
(1, 2, [1, 2])
"""

from __future__ import annotations

import threading as _threading
from collections.abc import Callable as _Callable
from typing import Any as _Any

__all__ = ["Future", "collect_all", "wait_all"]

_DONE_TWICE = ("Attempting to mark a completed Future as complete again. Note that a Future "
               "can only be marked completed once.")


class Future:
    """A result that is set once (``set_result``/``set_exception``) and waited for."""

    def __init__(self, *, devices=None) -> None:
        self._cond = _threading.Condition()
        self._done = False
        self._value = None
        self._error: BaseException | None = None
        self._callbacks: list = []

    def done(self) -> bool:
        """Whether a result or an exception has been set."""
        return self._done

    def wait(self) -> _Any:
        """Block until the result is set; return it (or raise the exception that was set)."""
        with self._cond:
            while not self._done:
                self._cond.wait()
        return self.value()

    def value(self) -> _Any:
        """The result of a completed future (raises the exception that was set)."""
        if self._error is not None:
            raise self._error
        return self._value

    def set_result(self, result: _Any) -> None:
        """Complete the future with ``result`` and run its callbacks."""
        self._complete(result, None)

    def set_exception(self, result: BaseException) -> None:
        """Complete the future with an exception that ``wait`` raises."""
        if not isinstance(result, BaseException):
            raise AssertionError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(None, result)

    def _complete(self, value, error, executor=None) -> None:
        """Set the outcome, wake the waiters and run the callbacks (on ``executor``, a
        ``concurrent.futures.Executor``, when given, instead of this thread)."""
        with self._cond:
            if self._done:
                raise RuntimeError(_DONE_TWICE)
            self._value, self._error, self._done = value, error, True
            callbacks, self._callbacks = self._callbacks, []
            self._cond.notify_all()
        for cb in callbacks:
            if executor is None:
                cb(self)
            else:
                executor.submit(cb, self)

    def add_done_callback(self, callback: _Callable[[Future], None]) -> None:
        """Run ``callback(self)`` once the future completes (now, if it has)."""
        with self._cond:
            if not self._done:
                self._callbacks.append(callback)
                return
        callback(self)

    def then(self, callback: _Callable[[Future], _Any]) -> Future:
        """A new future holding ``callback(self)`` once this one completes."""
        out = Future()

        def run(fut):
            try:
                out.set_result(callback(fut))
            except Exception as e:   # noqa: BLE001  (delivered to the waiter, as torch's)
                out.set_exception(e)
        self.add_done_callback(run)
        return out


def collect_all(futures: list[Future]) -> Future:
    """A future completed, with the list of ``futures``, once every one of them is."""
    out = Future()
    pending = [len(futures)]
    lock = _threading.Lock()
    if not futures:
        out.set_result([])

    def one(_):
        with lock:
            pending[0] -= 1
            last = pending[0] == 0
        if last:
            out.set_result(list(futures))
    for f in futures:
        f.add_done_callback(one)
    return out


def wait_all(futures: list[Future]) -> list:
    """Wait for every future; their values, in order (raising the first exception)."""
    return [f.wait() for f in futures]
