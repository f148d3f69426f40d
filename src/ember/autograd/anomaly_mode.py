"""Anomaly detection: ``detect_anomaly`` and ``set_detect_anomaly``, as torch's.

While enabled (per thread, in ``grad_mode._state``), the engine checks every gradient a node
returns and raises ``RuntimeError("Function 'DivBackward0' returned nan values in its 1th
output.")`` on a NaN (unless ``check_nan=False``).
"""

from __future__ import annotations

import warnings

from . import grad_mode as _grad_mode

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on in this thread."""
    return _grad_mode._state.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    """True while anomaly detection checks backward outputs for NaN."""
    return _grad_mode._state.anomaly_check_nan


def _turn_on(st, check_nan) -> None:
    """Anomaly detection on in the thread whose state is ``st``."""
    _grad_mode._anomaly_used[0] = True
    st.anomaly, st.anomaly_check_nan = True, check_nan


class detect_anomaly:
    """Context manager and decorator that turns anomaly detection on.

    >>> import ember, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with ember.autograd.detect_anomaly():
    ...         ember.is_anomaly_enabled()
    True
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        st = _grad_mode._state
        self._prev = (st.anomaly, st.anomaly_check_nan)
        _turn_on(st, self.check_nan)

    def __exit__(self, *exc):
        st = _grad_mode._state
        st.anomaly, st.anomaly_check_nan = self._prev
        return False

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            st = _grad_mode._state
            prev = (st.anomaly, st.anomaly_check_nan)
            _turn_on(st, self.check_nan)
            try:
                return func(*args, **kwargs)
            finally:
                st.anomaly, st.anomaly_check_nan = prev
        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off; takes effect at once and works as a context manager."""

    def __init__(self, mode: bool, check_nan: bool = True):
        st = _grad_mode._state
        self._prev = (st.anomaly, st.anomaly_check_nan)
        if mode:
            _turn_on(st, check_nan)
        else:
            st.anomaly, st.anomaly_check_nan = False, check_nan

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        st = _grad_mode._state
        st.anomaly, st.anomaly_check_nan = self._prev
        return False


del annotations  # keep dir() to torch's names
