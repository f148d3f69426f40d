"""The legacy ``Variable``: since torch 0.4 it simply returns a Tensor.

``volatile=`` was removed; passing it warns and has no effect, as in torch.
"""

from __future__ import annotations

import warnings as _warnings

from .. import _errors


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        from .._tensor import Tensor
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False, volatile=False)``: returns ``data`` as a Tensor.

    >>> import ember
    >>> from ember.autograd import Variable
    >>> v = Variable(ember.ones(2), requires_grad=True)
    >>> type(v).__name__, v.requires_grad
    ('Tensor', True)
    """

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool | None = None):
        from .._tensor import Tensor
        if volatile is not None:
            _warnings.warn(_errors.VOLATILE_WARNING, UserWarning, stacklevel=2)
        if data is None:
            from .._factories import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = data.detach()
        t._vc = data._vc
        t.requires_grad_(requires_grad)
        return t


del annotations  # keep dir() to torch's names
