"""``nn.Parameter``: a Tensor that a Module registers as one of its parameters.

A Parameter shares its data with the tensor it was made from (as in torch), is a leaf and
requires grad by default. Operations on a Parameter return plain Tensors.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor


class Parameter(Tensor):
    """A tensor that is a module parameter; prints as ``Parameter containing:``.

    >>> import ember
    >>> p = ember.nn.Parameter(ember.zeros(2))
    >>> p.requires_grad
    True
    """

    _is_param = True

    def __new__(cls, data: Tensor | np.ndarray | None = None, requires_grad: bool = True):
        if data is None:
            arr = np.empty((0,), dtype=np.float32)
        elif isinstance(data, Tensor):
            arr = data._data
        else:
            arr = np.asarray(data)
        t = Tensor._wrap.__func__(cls, arr)
        if isinstance(data, Tensor):
            t._vc = data._vc
        if requires_grad:
            t.requires_grad_(True)
        return t

    def __init__(self, data=None, requires_grad: bool = True) -> None:
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = Parameter(Tensor._wrap(self._data.copy()), self.requires_grad)
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._data.copy(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(Tensor._wrap(data), requires_grad)


class Buffer(Tensor):
    """Marker type: ``nn.Buffer(t)`` assigned to a Module registers ``t`` as a buffer."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        t = data if data is not None else Tensor._wrap(np.empty((0,), np.float32))
        t = t.detach()
        t._buffer_persistent = persistent
        return t
