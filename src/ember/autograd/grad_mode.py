"""Grad mode: whether ops record a graph, per thread.

All of autograd's mutable global state lives in one ``threading.local`` object, ``_state``; a
new thread starts with grad enabled and inference mode off, as in torch. The context managers
below also work as decorators, on plain functions and on generator functions (each resumption
of the generator runs under the mode).
"""

from __future__ import annotations

import functools as _functools
import inspect as _inspect
from _thread import _local as _thread_local  # threading.local, without loading threading

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled"]


class _State(_thread_local):
    enabled = True          # grad mode
    inference = False       # inference mode (implies grad mode off)
    anomaly = False         # anomaly detection
    anomaly_check_nan = True
    saved_hooks = ()        # stack of (pack, unpack) pairs from saved_tensors_hooks
    saved_hooks_disabled = None  # error message while disable_saved_tensors_hooks is active
    vmap = None             # the innermost running vmap's frame (its slices, item() calls)


_state = _State()
# whether any thread has entered inference mode yet: until one does, ``_state.inference`` is
# False everywhere, and a tensor's constructor need not read the thread's state to know it
_inference_used = [False]
# likewise whether any thread has turned anomaly detection on (which the engine reads per node)
_anomaly_used = [False]


def is_grad_enabled() -> bool:
    """True when ops record a graph in this thread."""
    return _state.enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()`` in this thread."""
    return _state.inference


class _Mode:
    """Base of the grad-mode context managers; subclasses set ``_enter``'s new state."""

    def __call__(self, func):
        if _inspect.isclass(func):
            raise TypeError("grad mode decorators apply to functions, not classes")
        if _inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self._clone():
                return func(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self._clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self._clone():
                            gen.close()
                        raise
                    except BaseException as exc:  # forward throw() into the generator
                        with self._clone():
                            response = gen.throw(exc)
                    else:
                        with self._clone():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value
        return wrapper

    def _clone(self):
        return self.__class__()

    def __enter__(self):
        self._prev = (_state.enabled, _state.inference)
        self._set()
        return None

    def __exit__(self, *exc):
        _state.enabled, _state.inference = self._prev
        return False


class no_grad(_Mode):
    """Context manager and decorator that turns graph recording off.

    >>> import ember
    >>> x = ember.ones(2, requires_grad=True)
    >>> with ember.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    def __new__(cls, orig_func=None):
        if orig_func is not None and callable(orig_func):   # bare @no_grad
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func=None):
        pass

    def _set(self):
        _state.enabled = False


class enable_grad(no_grad):
    """Context manager and decorator that turns graph recording on (inside ``no_grad``)."""

    def _set(self):
        _state.enabled = True


class set_grad_enabled(_Mode):
    """Set grad mode to ``mode``; takes effect at once, and works as a context manager.

    >>> import ember
    >>> with ember.set_grad_enabled(False):
    ...     ember.is_grad_enabled()
    False
    """

    def __init__(self, mode: bool):
        self.mode = bool(mode)
        self._prev = (_state.enabled, _state.inference)
        _state.enabled = self.mode

    def __call__(self, func):
        _state.enabled, _state.inference = self._prev   # as a decorator it only applies inside
        return super().__call__(func)

    def __enter__(self):
        return None

    def _set(self):
        _state.enabled = self.mode

    def _clone(self):
        return _Switch(self)


class _Switch:
    """Applies a mode object's ``_set`` on entry and restores the previous mode on exit."""

    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        self._prev = (_state.enabled, _state.inference)
        self.mode._set()

    def __exit__(self, *exc):
        _state.enabled, _state.inference = self._prev
        return False


class inference_mode(_Mode):
    """Like ``no_grad``, and tensors made inside are inference tensors (``is_inference()``).

    ``inference_mode(False)`` turns inference mode off and grad mode on (also inside
    ``no_grad`` or an enclosing ``inference_mode``), as torch's ``InferenceMode(false)`` does.
    """

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):   # bare @inference_mode
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True):
        self.mode = mode

    def _clone(self):
        return inference_mode(self.mode)

    def _set(self):
        if self.mode:
            _inference_used[0] = True
            _state.enabled = False
            _state.inference = True
        else:
            _state.enabled = True
            _state.inference = False


del annotations  # keep dir() to torch's names
