"""torch's ``_foreach_*`` functions: one op applied to each tensor of a list, the other operand
a number, a list of numbers, one tensor or a list of tensors, as optimizers, gradient
clipping and EMA updates call them.

On the CPU torch runs each call through the tensors' own ops one by one (its "slow" path), so
every result here is that op's, bit for bit. The in-place forms return the sequence they were
given, the others a tuple. Differentiating through them (torch's ``Foreach…Backward`` nodes)
is not supported: a call that would record a graph raises ``NotImplementedError`` (an in-place
call on a leaf that requires grad raises torch's error first).

>>> params = [torch.ones(2), torch.ones(3)]
>>> torch._foreach_mul_(params, 0.5) is params
True
>>> torch._foreach_norm(params)
(tensor(0.7071), tensor(0.8660))
"""

from __future__ import annotations

from numbers import Number

from . import linalg as _linalg
from ._tensor import Tensor
from .autograd import grad_mode

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
          "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
          "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
# binary ops: the tensor method, and the one a number takes where it differs
_BINARY = {"add": ("add", "add"), "sub": ("sub", "sub"), "mul": ("mul", "mul"),
           "div": ("div", "div"), "clamp_min": ("clamp_min", "clamp_min"),
           "clamp_max": ("clamp_max", "clamp_max"), "maximum": ("maximum", "clamp_min"),
           "minimum": ("minimum", "clamp_max"), "pow": ("pow", "pow")}


def _check_lists(*lists) -> None:
    if not lists[0]:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for other in lists[1:]:
        if len(other) != len(lists[0]):
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got "
                               f"{len(lists[0])} and {len(other)}")


def _graph_check(name: str, self, *others, inplace: bool) -> None:
    """Raise where torch would record ``Foreach…Backward`` nodes (not supported)."""
    if not grad_mode.is_grad_enabled():
        return
    tensors = [t for seq in (self, *others) if isinstance(seq, (list, tuple))
               for t in seq if isinstance(t, Tensor)]
    tensors += [t for t in others if isinstance(t, Tensor)]
    if not any(t.requires_grad for t in tensors):
        return
    if inplace:
        for t in self:
            if t.requires_grad and t.grad_fn is None:
                t.mul_(1)                      # torch's error for a leaf that requires grad
    raise NotImplementedError(f"torch.{name}: Ember does not differentiate the foreach ops; "
                              "apply the op to each tensor instead")


def _per_item(other, n: int):
    """``other`` spread over ``n`` tensors: a list as it is, else repeated."""
    if isinstance(other, (list, tuple)):
        if other and not isinstance(other[0], Tensor) and len(other) != n:
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        if other and isinstance(other[0], Tensor):
            _check_lists([None] * n, other)
        return list(other)
    return [other] * n


def _finish(self, results, inplace: bool):
    return self if inplace else tuple(results)


def _unary(op: str, inplace: bool):
    name = f"_foreach_{op}{'_' if inplace else ''}"
    method = op + ("_" if inplace else "")

    def fn(self):
        _check_lists(self)
        _graph_check(name, self, inplace=inplace)
        return _finish(self, [getattr(t, method)() for t in self], inplace)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``t.{method}()`` for each tensor ``t`` of ``self``."
    return fn


def _binary(op: str, inplace: bool):
    name = f"_foreach_{op}{'_' if inplace else ''}"
    tensor_method, number_method = _BINARY[op]
    suffix = "_" if inplace else ""

    def fn(self, other, **kwargs):
        if op == "pow" and isinstance(self, Number):         # _foreach_pow(number, list)
            _check_lists(other)
            _graph_check(name, other, inplace=False)
            return tuple(t.__rpow__(self) for t in other)
        _check_lists(self)
        items = _per_item(other, len(self))
        _graph_check(name, self, other, inplace=inplace)
        out = []
        for t, o in zip(self, items):
            method = tensor_method if isinstance(o, Tensor) else number_method
            if hasattr(t, method + suffix):
                out.append(getattr(t, method + suffix)(o, **kwargs))
            else:                              # (maximum, minimum: no in-place method)
                out.append(t.copy_(getattr(t, method)(o)))
        return _finish(self, out, inplace)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``t.{tensor_method}{suffix}(o)`` for each tensor ``t`` of ``self`` and its "
                  "``o`` of ``other`` (a number, a list of numbers, a tensor or a list of "
                  "tensors).")
    return fn


def _ternary(op: str, inplace: bool):
    name = f"_foreach_{op}{'_' if inplace else ''}"
    method = op + ("_" if inplace else "")

    def fn(self, tensor1, tensor2, value=1):
        _check_lists(self, tensor1, tensor2)
        if isinstance(value, Tensor):
            value = value.tolist()
        values = _per_item(value, len(self))
        _graph_check(name, self, tensor1, tensor2, inplace=inplace)
        return _finish(self, [getattr(t, method)(a, b, value=v)
                              for t, a, b, v in zip(self, tensor1, tensor2, values)], inplace)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``t.{method}(a, b, value=v)`` for each tensor of ``self``."
    return fn


def _lerp(inplace: bool):
    name = f"_foreach_lerp{'_' if inplace else ''}"
    method = "lerp_" if inplace else "lerp"

    def fn(self, tensors1, weight):
        _check_lists(self, tensors1)
        weights = _per_item(weight, len(self))
        _graph_check(name, self, tensors1, weight, inplace=inplace)
        return _finish(self, [getattr(t, method)(e, w)
                              for t, e, w in zip(self, tensors1, weights)], inplace)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``t.{method}(end, weight)`` for each tensor of ``self``."
    return fn


for _op in _UNARY:
    for _inplace in (False, True):
        _f = _unary(_op, _inplace)
        globals()[_f.__name__] = _f
for _op in _BINARY:
    for _inplace in (False, True):
        _f = _binary(_op, _inplace)
        globals()[_f.__name__] = _f
for _op in ("addcmul", "addcdiv"):
    for _inplace in (False, True):
        _f = _ternary(_op, _inplace)
        globals()[_f.__name__] = _f
_foreach_lerp, _foreach_lerp_ = _lerp(False), _lerp(True)


def _foreach_zero_(self):
    """Zero each tensor of ``self`` in place; returns ``self``."""
    _check_lists(self)
    _graph_check("_foreach_zero_", self, inplace=True)
    for t in self:
        t.zero_()
    return self


def _foreach_copy_(self, src, non_blocking: bool = False):
    """Copy each tensor of ``src`` into its tensor of ``self``; returns ``self``."""
    _check_lists(self, src)
    _graph_check("_foreach_copy_", self, src, inplace=True)
    for t, s in zip(self, src):
        t.copy_(s)
    return self


def _foreach_clone(self):
    """A copy of each tensor of ``self`` (a tuple)."""
    _check_lists(self)
    _graph_check("_foreach_clone", self, inplace=False)
    return tuple(t.clone() for t in self)


def _foreach_norm(self, ord=2, dtype=None):
    """Each tensor's vector norm of order ``ord`` (a tuple of 0-d tensors), as
    ``torch.linalg.vector_norm``."""
    _check_lists(self)
    _graph_check("_foreach_norm", self, inplace=False)
    return tuple(_linalg.vector_norm(t, ord, dtype=dtype) for t in self)


def _foreach_max(self):
    """Each tensor's largest element (a tuple of 0-d tensors)."""
    _check_lists(self)
    _graph_check("_foreach_max", self, inplace=False)
    return tuple(t.max() for t in self)
