"""``TorchVersion``: the version string that compares as a version (``__version__ >= "2.0"``).

A ``str`` subclass, as torch's: it prints, formats and splits like the string it is, and its
comparisons parse both sides as PEP 440 versions (a ``packaging`` ``Version``, a string, or a
tuple such as ``(2, 1)``), falling back to string comparison when one side is no version.
"""

from __future__ import annotations

import functools as _functools
import re as _re
from collections.abc import Iterable

__all__ = ["TorchVersion"]


@_functools.cache
def _pep440() -> _re.Pattern:
    """PEP 440's version pattern, compiled on the first comparison rather than at import."""
    return _re.compile(
        r"^\s*v?(?:(\d+)!)?(\d+(?:\.\d+)*)"                 # epoch, release
        r"(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?"
        r"(?:-(\d+)|[-_.]?(?:post|rev|r)[-_.]?(\d*))?"
        r"(?:[-_.]?(dev)[-_.]?(\d*))?"
        r"(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$", _re.IGNORECASE)

_PRE = {"a": "a", "alpha": "a", "b": "b", "beta": "b", "c": "rc", "rc": "rc", "pre": "rc",
        "preview": "rc"}
_INF = float("inf")


def _key(text: str) -> tuple:
    """PEP 440's ordering key of ``text`` (ValueError if it is no version)."""
    m = _pep440().match(text)
    if m is None:
        raise ValueError(text)
    epoch, release, pre_l, pre_n, post_a, post_n, dev, dev_n, local = m.groups()
    rel = [int(p) for p in release.split(".")]
    while len(rel) > 1 and rel[-1] == 0:
        rel.pop()
    post = int(post_a or post_n or 0) if (post_a is not None or post_n is not None) else None
    # a dev release without pre or post sorts before the pre-releases of its release
    if pre_l is None and post is None and dev is not None:
        pre = (-_INF, 0)
    elif pre_l is None:
        pre = (_INF, 0)
    else:
        pre = ({"a": 0, "b": 1, "rc": 2}[_PRE[pre_l.lower()]], int(pre_n or 0))
    post_k = (-_INF, 0) if post is None else (post, 0)
    dev_k = (_INF, 0) if dev is None else (int(dev_n or 0), 0)
    local_k = () if local is None else tuple(
        (int(p), "") if p.isdigit() else (-1, p.lower()) for p in _re.split(r"[-_.]", local))
    return (int(epoch or 0), tuple(rel), pre, post_k, dev_k, local_k)


def _other_key(other) -> tuple:
    if isinstance(other, str):
        return _key(other)
    if isinstance(other, Iterable):
        return _key(".".join(str(p) for p in other))
    if type(other).__name__ == "Version":      # packaging.version.Version
        return _key(str(other))
    raise ValueError(other)


class TorchVersion(str):
    """A version string that compares with versions, strings and tuples as versions.

    >>> TorchVersion("2.13.0") >= "2.0"
    True
    >>> TorchVersion("2.13.0") > (2, 9)
    True
    """

    __slots__ = ()

    def _cmp(self, other, method: str) -> bool:
        try:
            a, b = _key(self), _other_key(other)
        except ValueError:
            return getattr(str, method)(self, other)
        return getattr(a, method)(b)

    def __gt__(self, other) -> bool:
        return self._cmp(other, "__gt__")

    def __lt__(self, other) -> bool:
        return self._cmp(other, "__lt__")

    def __ge__(self, other) -> bool:
        return self._cmp(other, "__ge__")

    def __le__(self, other) -> bool:
        return self._cmp(other, "__le__")

    def __eq__(self, other) -> bool:
        return self._cmp(other, "__eq__")

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__


del annotations  # keep dir() to torch's names
