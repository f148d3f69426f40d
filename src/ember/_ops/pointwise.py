"""Pointwise ops of two or more inputs: arithmetic, binary math (atan2, fmod, xlogy …),
lerp/addcmul/addcdiv, comparisons, logical and bitwise ops, where, clamping and fills.

Each entry: torch's node name, the kernel, and one formula per differentiable input
(torch's ``derivatives.yaml``), written with ember ops so that they differentiate again.
Where torch has overloads with different node names (a number or a tensor ``other``:
``RemainderBackward0``/``1``, ``ClampBackward1``/``0`` …), each overload is its own entry
and a hand-written wrapper picks one. Unary math lives in ``unary.py``.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype as D
from .. import _errors, _lazy
from .. import _memory_format as _mf
from .._device import xp
from .._meta import MetaArray
from .._tensor import Tensor
from . import _libm, _vml
from .registry import (
    COMPARE,
    FLOAT,
    NONE,
    check_no_overlap,
    check_no_partial_overlap,
    checked_numbers,
    expose,
    no_complex,
    op,
    overlap_after,
    overlap_ok,
    raw_scalar,
    real_kernel,
    tensor_operands,
)
from .registry import run as _run
from .registry import run_inplace as _run_inplace
from .util import c_order, renamed

_sleef_ext = _lazy.defer(globals(), "_sleef_ext", "ember._ops._sleef_ext")  # (on first use)
_sleef_fmod = _lazy.defer(globals(), "_sleef_fmod", "ember._ops._sleef_fmod")
_fused = _lazy.defer(globals(), "_fused", "ember._ops._fused")
del _lazy


def _zero_grad(grad):
    return grad * 0


def _is_one(alpha) -> bool:
    return not hasattr(alpha, "shape") and alpha == 1


def _scale(grad, alpha):
    return grad if _is_one(alpha) else grad * alpha


def _number(x):
    """A Scalar argument (a number, or a one-element tensor's array) as a number."""
    return x.item() if hasattr(x, "item") else x


def _alpha(alpha, a, b):
    """``alpha`` as the kernel reads it: an integer kernel wraps a negative int for an
    unsigned type (checked by :func:`_check_alpha`)."""
    alpha = _number(alpha)
    dt = xp.result_type(a, b)
    return alpha if dt.kind in "fcb" else D.checked_scalar(alpha, dt)


def _check_alpha(self, other, alpha=1):
    """torch's alpha_check against the result dtype."""
    if type(alpha) is int and alpha == 1:
        return
    dt = D.result_type(self, other)
    if isinstance(alpha, bool) and dt is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")
    if isinstance(alpha, (int, float, complex)):
        D.checked_scalar(alpha, dt.np)      # the kernel reads alpha as its element type


def _is_bool(x) -> bool:
    if x.__class__ is float:
        return False
    return getattr(x, "dtype", None) is D.bool or isinstance(x, bool)


def _check_sub(self, other, alpha=1):
    """torch's sub_check (on the inputs' own dtypes), then alpha_check."""
    if _is_bool(self) or _is_bool(other):
        if _is_bool(self) and _is_bool(other):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")
    _check_alpha(self, other, alpha)


# ----------------------------------------------------------------------------- arithmetic

def _is_complex(x) -> bool:
    return x.__class__ is complex or getattr(getattr(x, "dtype", None), "kind", "") == "c"


def _complex_scaled(x, alpha):
    """``alpha · x`` as torch's complex add/sub kernels form it, even for ``alpha = 1``: a
    complex product, so an infinite part of ``x`` makes the other part nan
    (``(1+0j)·(-inf+0j) = -inf+nanj``), as NumPy's complex multiply does."""
    return xp.multiply(x, complex(_number(alpha)))


def _real(fast):
    """Give a kernel ``fast``, its form for real floating inputs (the generated fast path's:
    no complex operand to take apart)."""
    def deco(kernel):
        kernel.fast = fast
        return kernel
    return deco


def _add_real(self, other, *, alpha=1):
    if _is_one(alpha):
        return xp.add(self, other)
    return _fused.add(self, other, _alpha(alpha, self, other))


def _sub_real(self, other, *, alpha=1):
    if _is_one(alpha):
        return xp.subtract(self, other)
    return _fused.add(self, other, _alpha(alpha, self, other), True)


@op("AddBackward0", inplace=True, check=_check_alpha,
    self=lambda grad: grad,
    other=lambda grad, alpha: _scale(grad, alpha))
@_real(_add_real)
def add(self, other, *, alpha=1):
    """``self + alpha * other``, with broadcasting and type promotion."""
    if _is_one(alpha):
        out = xp.add(self, other)
        return out if out.dtype.kind != "c" else xp.add(self, _complex_scaled(other, alpha))
    if _is_complex(self) or _is_complex(other):
        return xp.add(self, _complex_scaled(other, alpha))
    return _add_real(self, other, alpha=alpha)


@op("SubBackward0", inplace=True, check=_check_sub, overlap=overlap_after(_check_sub),
    self=lambda grad: grad,
    other=lambda grad, alpha: -_scale(grad, alpha))
@_real(_sub_real)
def sub(self, other, *, alpha=1):
    """``self - alpha * other``."""
    if _is_one(alpha):
        out = xp.subtract(self, other)
        return out if out.dtype.kind != "c" else xp.subtract(self, _complex_scaled(other, alpha))
    if _is_complex(self) or _is_complex(other):
        return xp.subtract(self, _complex_scaled(other, alpha))
    return _sub_real(self, other, alpha=alpha)


@op("RsubBackward0", name="rsub_tensor", method=False, function=False, check=_check_sub,
    tensors=("other", "self"),      # (torch's sub(other, self): its layout and promotion)
    self=lambda grad, alpha: -_scale(grad, alpha),
    other=lambda grad: grad)
def _rsub_tensor(self, other, *, alpha=1):
    if _is_complex(self) or _is_complex(other):
        return xp.subtract(other, _complex_scaled(self, alpha))
    if _is_one(alpha):
        return xp.subtract(other, self)
    return _fused.add(other, self, _alpha(alpha, self, other), True)


@op("RsubBackward1", name="rsub_scalar", method=False, function=False, tensors=("self", "other"),
    check=_check_sub,
    self=lambda grad, alpha: -_scale(grad, alpha))
def _rsub_scalar(self, other, *, alpha=1):
    if _is_complex(self) or _is_complex(other):
        return xp.subtract(other, _complex_scaled(self, alpha))
    if _is_one(alpha):
        return xp.subtract(other, self)
    return _fused.add(other, self, _alpha(alpha, self, other), True)


@expose(method=False, overloads=("(Tensor input, Tensor other, *, Number alpha = 1)",
                                  "(Tensor input, Number other, Number alpha = 1)"))
def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (what ``1 - x`` computes)."""
    if isinstance(other, Tensor):
        return _rsub_tensor(input, other, alpha)
    return _rsub_scalar(input, other, alpha)


def _mul_raw(grad, other):
    """``grad * other`` on arrays (``other`` an array of grad's dtype, or a number; None
    for a number beside float16, which torch's kernel reads in float: the general formula)."""
    if other.__class__ is not xp.ndarray:
        if grad.dtype == xp.float16:
            return None
        other = raw_scalar(other, grad)
        if other is None:
            return None
    if grad.dtype.kind == "c" or other.dtype.kind == "c":
        return _fused.complex_mul(grad, other)
    return xp.multiply(grad, other)


@op("MulBackward0", inplace=True,
    self=lambda grad, other: grad * other,
    other=lambda grad, self: grad * self,
    raw={"self": _mul_raw, "other": lambda grad, self: _mul_raw(grad, self)})
@_real(xp.multiply)
def mul(self, other):
    """Element-wise product."""
    if _is_complex(self) or _is_complex(other):
        return _fused.complex_mul(self, other)
    return xp.multiply(self, other)


def _div_other(grad, self, other):
    return -grad * ((self / other) / other)


@op("DivBackward0", name="div_true", method=False, function=False, promote=FLOAT,
    reduced_in_float=False,
    self=lambda grad, other: grad / other, other=_div_other)
def _div_true(self, other):
    return _true_quotient(self, other)


def _true_quotient(self, other):
    """The kernel of div and true_divide."""
    if xp is np and np.result_type(self, other).kind == "c":
        return _fused.complex_div(self, other)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.true_divide(self, other)


def _int_zero_check(self, other):
    """torch's error for an integer division (or modulo) by zero."""
    if self.dtype.kind in "iub" and xp.size(self) and xp.any(xp.asarray(other) == 0) \
            and int(xp.prod(xp.broadcast_shapes(xp.shape(self), xp.shape(other)))):
        raise RuntimeError("ZeroDivisionError")     # (an empty result divides nothing)


def _no_complex_kernel(kernel, self, other):
    """torch's dispatch error for a kernel built without complex types (the promoted dtype)."""
    if _is_complex(self) or _is_complex(other):
        dt = D._BY_NP[xp.result_type(self, other)]
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt.scalar_name}\'')


def _floor_div(self, other):
    if self.dtype == xp.bool_:
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    _no_complex_kernel("div_floor_cpu", self, other)
    _int_zero_check(self, other)
    with xp.errstate(divide="ignore", invalid="ignore"):
        if _half_vectors(self, other):
            return _half_div_floor(self, other)
        if _is_low(self.dtype):
            return xp.floor_divide(self.astype(xp.float32), other).astype(self.dtype)
        return xp.floor_divide(self, other)


def _is_low(npdt) -> bool:
    return npdt == xp.float16 or npdt in D.REDUCED


def _half_vectors(self, other) -> bool:
    """Whether torch's float16/bfloat16 floor/trunc division runs its ``Vectorized<Half>``
    formula, each step rounded to the type: a divisor of more than one element (one element,
    or a number, takes the kernel's float path, rounded once)."""
    return _is_low(self.dtype) and getattr(other, "size", 1) > 1


def _half_div_floor(a, b):
    """``div_floor_floating_vec`` over ``Vectorized<Half>`` (or ``<BFloat16>``)."""
    f32, low = xp.float32, a.dtype

    def h(x):
        return x.astype(low).astype(f32)
    a, b = xp.broadcast_arrays(a.astype(f32), b.astype(f32))
    basic = h(a / b)
    mod = h(xp.fmod(a, b))
    div = h(xp.where((xp.abs(basic) == xp.inf) & (xp.abs(a) != xp.inf), a, h(a - mod)) / b)
    div = xp.where((mod != 0) & ((b < 0) ^ (mod < 0)), h(div - 1), div)
    floordiv = xp.floor(div)
    floordiv = xp.where(h(div - floordiv) > 0.5, h(floordiv + 1), floordiv)
    floordiv = xp.where(div == 0, xp.copysign(f32(0), basic), floordiv)
    return xp.where(b == 0, basic, floordiv).astype(low)


def _trunc_div(self, other):
    if self.dtype == xp.bool_:
        raise NotImplementedError("\"div_trunc_cpu\" not implemented for 'Bool'")
    _no_complex_kernel("div_trunc_cpu", self, other)
    _int_zero_check(self, other)
    if self.dtype.kind in "iu":
        q = xp.floor_divide(self, other)
        return q + ((xp.remainder(self, other) != 0) & ((self < 0) != (other < 0)))
    with xp.errstate(divide="ignore", invalid="ignore"):
        if _is_low(self.dtype):
            # the quotient rounded to the type first (vectors), or not (a one-element
            # divisor: the kernel's float path)
            q = xp.true_divide(self.astype(xp.float32), xp.asarray(other).astype(xp.float32))
            if _half_vectors(self, other):
                q = q.astype(self.dtype).astype(xp.float32)
            return xp.trunc(q).astype(self.dtype)
        return xp.trunc(xp.true_divide(self, other))


@op("DivBackward2", name="div_rounding", method=False, function=False,
    tensors=("self", "other"), self=_zero_grad, other=_zero_grad)
def _div_rounding(self, other, rounding_mode):
    return _floor_div(self, other) if rounding_mode == "floor" else _trunc_div(self, other)


@op("DivBackward2", name="div_true_mode", method=False, function=False, promote=FLOAT,
    reduced_in_float=False,
    self=lambda grad, other: grad / other, other=_div_other)
def _div_true_mode(self, other):
    """True division asked for with an explicit ``rounding_mode=None``: torch's
    ``div.Tensor_mode`` overload, whose node is ``DivBackward2``."""
    return _true_quotient(self, other)


_NO_MODE = object()     # (no rounding_mode given: ``div.Tensor``; an explicit None is another)


def _div_entry(input, other, rounding_mode):
    if rounding_mode is _NO_MODE:
        return _div_true, (input, other)
    if rounding_mode is None:
        return _div_true_mode, (input, other)
    if rounding_mode not in ("trunc", "floor"):
        if not isinstance(rounding_mode, str):
            raise TypeError(f"div() received an invalid combination of arguments - got "
                            f"(Tensor, {type(other).__name__}, rounding_mode="
                            f"{type(rounding_mode).__name__}), but expected one of:\n"
                            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                            " * (Tensor input, Tensor other, *, str rounding_mode, "
                            "Tensor out = None)\n"
                            " * (Tensor input, Number other, *, str rounding_mode)\n")
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    return _div_rounding, (input, other, rounding_mode)


@expose
def div(input, other, *, rounding_mode=_NO_MODE, out=None):
    """Division: true division by default (integers give the default float dtype);
    ``rounding_mode='trunc'`` or ``'floor'`` rounds the quotient and keeps integer dtypes.

    >>> ember.div(ember.tensor([5., -5.]), 2, rounding_mode="floor")
    tensor([ 2., -3.])
    """
    d, args = _div_entry(input, other, rounding_mode)
    return _run(d, args, out)


def _div_(self, other, *, rounding_mode=_NO_MODE):
    """In-place version of :meth:`Tensor.div`."""
    d, args = _div_entry(self, other, rounding_mode)
    return _run_inplace(d, args)


_div_.__name__ = "div_"
expose(_div_, function=False)
divide = div


@op("DivBackward0", name="true_divide", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, other: grad / other, other=_div_other)
def true_divide(self, other):
    """Alias of :func:`div` without rounding."""
    return _true_quotient(self, other)


def _not_implemented(name):
    def formula(grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


@op("NotImplemented", tensors=("self", "other"), inplace=True, check=real_kernel("div_floor_cpu"),
    self=_not_implemented("floor_divide"), other=_not_implemented("floor_divide"))
def floor_divide(self, other):
    """Division rounded down, like Python's ``//`` (not differentiable, as in torch).

    >>> ember.floor_divide(ember.tensor([5, -5]), 2)
    tensor([ 2, -3])
    """
    return _floor_div(self, other)


def _float_mod(self, other, python: bool):
    """fmod, or torch's remainder (``fmod`` shifted by ``other`` where the signs differ)."""
    _no_complex_kernel("remainder_cpu" if python else "fmod_cpu", self, other)
    if self.dtype.kind in "iu":
        _int_zero_check(self, other)
        return (xp.remainder if python else xp.fmod)(self, other)
    if xp is np and self.dtype in (np.float32, np.float64):
        return (_sleef_fmod.remainder if python else _sleef_fmod.fmod)(self, other)
    with xp.errstate(divide="ignore", invalid="ignore"):
        mod = xp.fmod(self, other)
        if python:
            shift = (mod != 0) & ((xp.asarray(other) < 0) != (mod < 0))
            mod = xp.where(shift, mod + other, mod).astype(mod.dtype, copy=False)
        return mod


def _no_bool_mod(name):
    def check(self, other):
        if _is_bool(self) and _is_bool(other):
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Bool'")
    return check


@op("RemainderBackward0", name="remainder_scalar", method=False, function=False,
    tensors=("self", "other"), check=real_kernel("remainder_cpu", _no_bool_mod("remainder")),
    self=lambda grad: grad)
def _remainder_scalar(self, other):
    return _float_mod(self, other, True)


@op("RemainderBackward1", name="remainder_tensor", method=False, function=False,
    check=real_kernel("remainder_cpu", _no_bool_mod("remainder")), self=lambda grad: grad,
    other=lambda grad, self, other: -grad * self.div(other, rounding_mode="floor"))
def _remainder_tensor(self, other):
    return _float_mod(self, other, True)


@op("NotImplemented", name="remainder_scalar_self", method=False, function=False,
    tensors=("self", "other"), check=real_kernel("remainder_cpu", _no_bool_mod("remainder")),
    other=_not_implemented("remainder"))
def _remainder_scalar_self(self, other):
    return _float_mod(self, other, True)


def _remainder_entry(input, other):
    from .._tensor import Tensor
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            got = f"{type(input).__name__}, {type(other).__name__}"
            raise TypeError(
                f"remainder() received an invalid combination of arguments - got ({got}), but "
                "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
                " * (Number self, Tensor other)\n      didn't match because some of the "
                f"arguments have invalid types: (!{type(input).__name__}!, "
                f"!{type(other).__name__}!)\n * (Tensor input, Number other, *, Tensor out = "
                "None)\n")
        return _remainder_scalar_self
    return _remainder_tensor if isinstance(other, Tensor) else _remainder_scalar


@expose
def remainder(input, other, *, out=None):
    """Python-style modulus: the result has the sign of ``other``.

    >>> ember.remainder(ember.tensor([-3., 3.]), 2)
    tensor([1., 1.])
    """
    return _run(_remainder_entry(input, other), (input, other), out)


def _remainder_(self, other):
    """In-place version of :meth:`Tensor.remainder`."""
    return _run_inplace(_remainder_entry(self, other), (self, other))


_remainder_.__name__ = "remainder_"
expose(_remainder_, function=False)


@op("FmodBackward0", name="fmod_scalar", method=False, function=False,
    tensors=("self", "other"), check=real_kernel("fmod_cpu", _no_bool_mod("fmod")),
    self=lambda grad: grad)
def _fmod_scalar(self, other):
    return _float_mod(self, other, False)


@op("FmodBackward1", name="fmod_tensor", method=False, function=False,
    check=real_kernel("fmod_cpu", _no_bool_mod("fmod")), self=lambda grad: grad,
    other=lambda grad, self, other: -grad * self.div(other, rounding_mode="trunc"))
def _fmod_tensor(self, other):
    return _float_mod(self, other, False)


def _tensor_first(name, input, other):
    from .._tensor import Tensor
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__}), but expected one "
                        f"of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        f" * (Tensor input, Number other, *, Tensor out = None)\n")
    return isinstance(other, Tensor)


@expose
def fmod(input, other, *, out=None):
    """C-style modulus: the result has the sign of ``input``.

    >>> ember.fmod(ember.tensor([-3., 3.]), 2)
    tensor([-1.,  1.])
    """
    d = _fmod_tensor if _tensor_first("fmod", input, other) else _fmod_scalar
    return _run(d, (input, other), out)


def _fmod_(self, other):
    """In-place version of :meth:`Tensor.fmod`."""
    d = _fmod_tensor if _tensor_first("fmod", self, other) else _fmod_scalar
    return _run_inplace(d, (self, other))


_fmod_.__name__ = "fmod_"
expose(_fmod_, function=False)


def _pow_self(grad, self, exponent):
    if not hasattr(exponent, "shape") and exponent == 0:
        return grad * 0
    return grad * (exponent * self.pow(exponent - 1))


@op("PowBackward0", name="pow_scalar", method=False, function=False, tensors=("self", "exponent"),
    reduced_in_float=False,
    check=lambda self, exponent: checked_numbers(self, exponent), self=_pow_self)
def _pow_scalar(self, exponent):
    if self.dtype == xp.bool_:   # bool ** bool: torch's exponent 1 copies, 0 fills (no kernel)
        return self.copy() if exponent else xp.ones_like(self)
    with xp.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if self.dtype.char in "eE" and xp.ndim(exponent) == 0 and exponent not in (0, 1):
            return _sleef_ext.pow_scalar_reduced(self, exponent)
        if self.dtype.kind == "f" and xp.ndim(exponent) == 0:
            special = _POW_SPECIAL.get(float(exponent))
            if special is not None:
                return special(self)
            if self.dtype in (xp.float32, xp.float64):
                return _sleef_ext.pow_scalar(self, exponent)
        if self.dtype.kind == "c" and xp.ndim(exponent) == 0 and xp is np:
            return _complex_pow_scalar(self, exponent)
        return xp.power(self, exponent)


def _complex_pow_scalar(self, exponent):
    """torch's pow_tensor_scalar_kernel for complex: 0 fills 1 and 1 copies (before the
    kernel), 0.5, -0.5 and -1 run sqrt, rsqrt and reciprocal, 2, 3 and -2 products, any
    other exponent glibc's cpow element by element."""
    from . import _fused, unary
    special = {0: xp.ones_like, 1: xp.copy, 0.5: unary.sqrt.kernel,
               -0.5: unary.rsqrt.kernel, -1: unary.reciprocal.kernel}.get(exponent)
    if special is not None:
        return special(self)
    if exponent in (2, 3, -2):
        return _fused.complex_power(self, int(exponent.real))
    return _libm.c_complex("cpow", self, xp.full(self.shape, exponent, self.dtype))


# torch's pow_Tensor_Scalar_out fills 1 for the exponent 0 and copies the base for 1; its
# pow_tensor_scalar_kernel computes the others here with other kernels, in float arithmetic
_POW_SPECIAL = {
    0.0: xp.ones_like,
    1.0: xp.copy,
    0.5: _vml.sqrt,
    -0.5: lambda b: xp.reciprocal(xp.sqrt(b)),
    -1.0: xp.reciprocal,
    2.0: lambda b: b * b,
    3.0: lambda b: b * b * b,
    -2.0: lambda b: xp.reciprocal(b * b),
}


def _pow_exp(grad, self, exponent, result):
    """torch's pow_backward_exponent: 0 where the base is 0 and the exponent >= 0 (a complex
    exponent: real and >= 0)."""
    from .._tensor import Tensor
    if exponent.dtype.is_complex:
        nonneg = (exponent.imag == 0) & (exponent.real >= 0)
    else:
        nonneg = exponent >= 0
    if not isinstance(self, Tensor):
        g = result * _log_scalar(self)
        return grad * (where(nonneg, 0.0, g) if self == 0 else g)
    g = grad * (result * self.to(result.dtype).log())
    return where((self == 0) & nonneg, 0.0, g)           # a 0, not 0·g (which is nan there)


def _pow_self_tensor(grad, self, exponent):
    """torch's pow_backward_self for a tensor exponent: 0 where the exponent is 0."""
    g = grad * (exponent * self.pow(exponent - 1))
    return where(exponent == 0, 0.0, g)


def _log_scalar(x):
    import math
    return math.log(x) if x > 0 else (float("-inf") if x == 0 else float("nan"))


@op("PowBackward1", name="pow_tensor", method=False, function=False, reduced_in_float=False,
    self=_pow_self_tensor, exponent=_pow_exp)
def _pow_tensor(self, exponent):
    _no_bool_pow(self)
    if self.dtype == exponent.dtype and self.dtype in (xp.float32, xp.float64):
        return _sleef_ext.pow_tensor(self, exponent)
    dt = xp.result_type(self, exponent)
    if dt.kind == "c" and xp is np and self.size:
        # c10's complex pow is std::pow of std::complex: glibc's cpow, element by element
        self, exponent = np.broadcast_arrays(self.astype(dt), exponent.astype(dt))
        return _libm.c_complex("cpow", self, exponent)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return _power(self, exponent)


def _power(base, exponent):
    """NumPy's power, with torch's integer rule for negative exponents (``powi``): 1 for the
    base 1, ±1 for -1 by the exponent's parity, 0 for any other base."""
    if xp.result_type(base, exponent).kind not in "iu" or not (xp.asarray(exponent) < 0).any():
        return xp.power(base, exponent)
    neg = exponent < 0
    r = xp.power(base, xp.where(neg, 0, exponent))
    odd = (-exponent) % 2 == 1
    base = xp.asarray(base)
    return xp.where(neg, xp.where(base == 1, 1, xp.where(base == -1, xp.where(odd, -1, 1), 0)),
                    r).astype(r.dtype, copy=False)


@op("PowBackward2", name="pow_scalar_base", method=False, function=False,
    tensors=("self", "exponent"), exponent=_pow_exp, pointwise=False)
def _pow_scalar_base(self, exponent):
    # (torch writes a number's power into a new tensor it resizes: contiguous)
    return c_order(_pow_number_base(self, exponent))


def _pow_number_base(self, exponent):
    _no_bool_pow(xp.asarray(xp.result_type(self, exponent).type(0)))
    if exponent.dtype in (xp.float32, xp.float64) and xp.ndim(self) == 0 \
            and xp.asarray(self).dtype.kind in "iuf" and self != 1:
        # torch runs pow(tensor, tensor) with the base as a one-value operand
        base = xp.broadcast_to(exponent.dtype.type(self), exponent.shape)
        return _sleef_ext.pow_tensor(base, exponent, out_contiguous=True)
    dt = xp.result_type(self, exponent)
    if dt.kind == "c" and xp is np and exponent.size and self != 1:
        # (the base as a one-value operand of pow(tensor, tensor): glibc's cpow)
        return _libm.c_complex("cpow", np.full(exponent.shape, self, dt), exponent.astype(dt))
    with xp.errstate(divide="ignore", invalid="ignore"):
        return _power(self, exponent)


def _no_bool_pow(arr):
    if arr.dtype == xp.bool_:   # the computation dtype: both operands are bool
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")


def _pow_dispatch(input, exponent):
    from .._tensor import Tensor
    if not isinstance(input, Tensor):
        return _pow_scalar_base, (input, exponent)
    if isinstance(exponent, Tensor):
        return _pow_tensor, (input, exponent)
    D.check_python_int(exponent)        # (torch parses the Scalar first)
    if input.dtype._category < 2 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return _pow_scalar, (input, exponent)


@expose
def pow(input, exponent, *, out=None):
    """``input ** exponent`` (tensor or number on either side)."""
    d, args = _pow_dispatch(input, exponent)
    return _run(d, args, out)


def _pow_(self, exponent):
    from .registry import run_inplace
    d, args = _pow_dispatch(self, exponent)
    return run_inplace(d, args)


_pow_.__name__ = "pow_"
expose(_pow_, function=False)


def _no_bool_neg(self):
    if self.dtype is D.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@op("NegBackward0", inplace=True, self=lambda grad: -grad, check=_no_bool_neg)
def neg(self):
    """``-self``; a complex vector computes ``0 - x`` (a zero part turns +0, not -0), the
    elements past the loop's last full step run one by one."""
    if self.dtype.kind == "c" and self.ndim:
        from . import _sleef
        zero = self.dtype.type(0)
        return _sleef.elementwise(self, lambda v: xp.subtract(zero, v), xp.negative,
                                  avx512=False)
    return xp.negative(self)


negative = neg


def _relu_check(self):
    """relu's own refusal of bool, then clamp_min's meta function's of complex (both before
    TensorIterator looks at the output)."""
    if self.dtype is D.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    if self.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")


@op("ReluBackward0", inplace=True, check=_relu_check, overlap=overlap_after(_relu_check),
    self=lambda grad, result: threshold_backward(grad, result, 0),
    raw={"self": lambda grad, result: threshold_backward.kernel(grad, result, 0)})
def relu(self):
    """``max(x, 0)``."""
    # keep -0.0 as torch does: NumPy's SIMD maximum returns its second operand on ties,
    # its float16 loop the first
    if self.dtype == xp.float16:
        return xp.maximum(self, xp.float16(0))
    return _max_zero(self)


_ZERO_BLOCK = 1 << 16           # elements of the cached zeros each maximum call reads
_ZEROS: dict = {}


def _max_zero(x):
    """``maximum(0, x)`` (0 first). NumPy's SIMD loop takes two arrays of one shape, not a
    number, which runs about 3x slower: a C-contiguous float input is compared with a
    cached block of zeros, one block at a time."""
    n = x.size
    if n < 1024 or x.dtype.kind != "f" or not x.flags.c_contiguous:
        return xp.maximum(x.dtype.type(0), x)
    zeros = _ZEROS.get(x.dtype)
    if zeros is None:
        zeros = _ZEROS[x.dtype] = xp.zeros(_ZERO_BLOCK, x.dtype)
        zeros.flags.writeable = False
    if n <= _ZERO_BLOCK:
        return xp.maximum(zeros[:n].reshape(x.shape), x)
    out = xp.empty_like(x)
    src, dst = x.reshape(-1), out.reshape(-1)
    for i in range(0, n, _ZERO_BLOCK):
        j = min(i + _ZERO_BLOCK, n)
        xp.maximum(zeros[:j - i], src[i:j], out=dst[i:j])
    return out


_SAME_WIDTH_INT = {2: xp.int16, 4: xp.int32, 8: xp.int64}


@op("ThresholdBackwardBackward0", method=False, function=False, promote=NONE,
    grad_output=lambda grad, self, threshold: threshold_backward(grad, self, threshold),
    self=lambda grad: grad.new_zeros(grad.shape))
def threshold_backward(grad_output, self, threshold):
    """torch's ``threshold_backward``: ``0 if self <= threshold else grad_output`` (NaN passes)."""
    drop = self <= threshold
    g = grad_output
    if g.dtype.kind == "f" and g.size >= 4096 and g.shape == drop.shape:
        # keep the gradient's bits where the mask is clear: 3x faster than where() on large
        # arrays (on small ones where()'s fewer calls win)
        keep = drop.view(xp.uint8).astype(_SAME_WIDTH_INT[g.itemsize])
        xp.subtract(keep, 1, out=keep)
        xp.bitwise_and(keep, g.view(keep.dtype), out=keep)
        return keep.view(g.dtype)
    return xp.where(drop, g.dtype.type(0), g)


# ----------------------------------------------------------------------------- float_power

def _to_double(x):
    from .. import _dtype as D
    from .._tensor import Tensor
    if isinstance(x, Tensor):
        return x.to(D.complex128 if x.dtype.is_complex else D.float64)
    return complex(x) if isinstance(x, complex) else float(x)


@expose
def float_power(input, exponent, *, out=None):
    """``input ** exponent`` computed in double precision (float64 result).

    >>> ember.float_power(ember.tensor([2, 3]), 2)
    tensor([4., 9.], dtype=torch.float64)
    """
    if out is not None:
        _float_power_check("output given to float_power", out, input, exponent)
    return pow(_to_double(input), _to_double(exponent), out=out)


def _float_power_check(what, t, *operands):
    """torch's error for a tensor that float_power writes whose dtype is not the result's
    (complex128 when an operand is complex, else float64)."""
    rdt = D.complex128 if any(
        isinstance(x, complex) or isinstance(x, Tensor) and x.dtype.is_complex
        for x in operands) else D.float64
    if t.dtype is not rdt:
        raise RuntimeError(f"the {what} has dtype {t.dtype.scalar_name} but the operation's "
                           f"result requires dtype {rdt.scalar_name}")


def _float_power_(self, exponent):
    """In-place version of :meth:`Tensor.float_power` (``self`` must be float64)."""
    _float_power_check("base given to float_power_", self, self, exponent)
    return self.pow_(_to_double(exponent))


_float_power_.__name__ = "float_power_"
expose(_float_power_, function=False)


# ----------------------------------------------------------------------------- binary math

def _atan2_recip(self, other):
    """``atan2_backward``'s ``1 / (self² + other²)``, 0 where that sum is 0."""
    denom = self * self + other * other
    return denom.reciprocal().masked_fill(denom == 0, 0)


def _atan2_self(grad, self, other):
    return grad * other * _atan2_recip(self, other)


def _atan2_other(grad, self, other):
    return grad * -self * _atan2_recip(self, other)


@op("Atan2Backward0", promote=FLOAT, inplace=True, check=tensor_operands("atan2"),
    reduced_in_float=False,
    self=_atan2_self, other=_atan2_other)
def atan2(self, other):
    """The angle of the point ``(other, self)``: ``atan(self / other)`` in the right quadrant.

    >>> ember.atan2(ember.tensor([1.0]), ember.tensor([-1.0]))
    tensor([2.3562])
    """
    if xp is np and self.dtype in (np.float32, np.float64) and \
            getattr(other, "dtype", None) == self.dtype:
        from . import _sleef_atan2
        return (_sleef_atan2.atan2 if self.dtype == np.float32 else _sleef_atan2.atan2d)(
            self, other)
    if self.dtype.kind == "c":
        from .unary import _type_name
        raise NotImplementedError(f"\"atan2_cpu\" not implemented for '{_type_name(self)}'")
    return xp.arctan2(self, other)


@op("HypotBackward0", inplace=True, reduced_in_float=False,
    check=tensor_operands("hypot", then=real_kernel("hypot_cpu")),
    self=lambda grad, self, result: grad * self / result,
    other=lambda grad, other, result: grad * other / result)
def hypot(self, other):
    """``sqrt(self**2 + other**2)`` without overflow.

    >>> ember.hypot(ember.tensor([3.0]), ember.tensor([4.0]))
    tensor([5.])
    """
    if self.dtype.kind not in "f":
        from .unary import _not_for
        _not_for(self, "hypot_cpu", "biuc")
    if xp is np and self.dtype in (np.float32, np.float64) and \
            getattr(other, "dtype", None) == self.dtype:
        from . import _sleef_hypot
        return _sleef_hypot.hypot(self, other)
    return xp.hypot(self, other)


def _fmax_self(grad, self, other):
    return grad.where((self >= other).logical_or(other.isnan()), 0.0)


def _fmax_other(grad, self, other):
    return grad.where((self >= other).logical_or(other.isnan()).logical_not(), 0.0)


def _fmin_self(grad, self, other):
    return grad.where((self <= other).logical_or(other.isnan()), 0.0)


def _fmin_other(grad, self, other):
    return grad.where((self <= other).logical_or(other.isnan()).logical_not(), 0.0)


@op("FmaxBackward0", check=tensor_operands("fmax", then=no_complex("fmax")), self=_fmax_self,
    other=_fmax_other)
def fmax(self, other):
    """Element-wise maximum that ignores NaN (NaN only where both are NaN).

    >>> ember.fmax(ember.tensor([1.0, float('nan')]), ember.tensor([2.0, 0.0]))
    tensor([2., 0.])
    """
    return xp.fmax(self, other)


@op("FminBackward0", check=tensor_operands("fmin", then=no_complex("fmin")), self=_fmin_self,
    other=_fmin_other)
def fmin(self, other):
    """Element-wise minimum that ignores NaN."""
    return xp.fmin(self, other)


def _copysign_self(grad, self, result):
    """torch's copysign_tensor_self_backward: ``result / self``, 0 where ``self`` is 0."""
    return grad * (result / self).where(self != 0, 0.0)


@op("CopysignBackward0", name="copysign_tensor", method=False, function=False, promote=FLOAT,
    check=real_kernel("copysign_cpu"), self=_copysign_self, other=lambda grad: grad * 0)
def _copysign_tensor(self, other):
    return xp.copysign(self, other)


@op("CopysignBackward1", name="copysign_scalar", method=False, function=False, promote=FLOAT,
    tensors=("self", "other"), check=real_kernel("copysign_cpu"), self=_copysign_self)
def _copysign_scalar(self, other):
    return xp.copysign(self, other)


@expose
def copysign(input, other, *, out=None):
    """``|input|`` with the sign of ``other`` (integers give the default float dtype).

    >>> ember.copysign(ember.tensor([1.0, -2.0]), -1.0)
    tensor([-1., -2.])
    """
    d = _copysign_tensor if _tensor_first("copysign", input, other) else _copysign_scalar
    return _run(d, (input, other), out)


def _copysign_(self, other):
    """In-place version of :meth:`Tensor.copysign`."""
    d = _copysign_tensor if _tensor_first("copysign", self, other) else _copysign_scalar
    return _run_inplace(d, (self, other))


_copysign_.__name__ = "copysign_"
expose(_copysign_, function=False)


def _xlogy_kernel(self, other):
    _no_complex_kernel("xlogy_cpu", self, other)
    return x_times_log(self, other, "log")


def x_times_log(self, other, fn):
    """torch's ``xlogy``/``xlog1py`` loop: NaN where ``other`` is NaN, 0 where ``self`` is 0,
    else ``self * fn(other)`` with the C library's ``fn`` (``log``, ``log1p``) element by
    element. In float16 and bfloat16 (arrays of the type) the loop runs in the type: ``fn``
    computes in float and rounds to it, then the product rounds again."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        rdt = xp.result_type(self, other)
        if rdt == xp.float16 or rdt in D.REDUCED:
            from ._loss_math import libm
            y = xp.asarray(other).astype(xp.float32)
            lg = libm(fn, y.reshape(-1)).reshape(y.shape).astype(rdt).astype(xp.float32)
            prod = (xp.asarray(self).astype(xp.float32) * lg).astype(rdt)
            out = xp.where(xp.asarray(self) == 0, xp.zeros((), rdt), prod)
            return xp.where(xp.isnan(y), xp.asarray(other).astype(rdt), out).astype(rdt)
        log = getattr(xp, fn)
        if rdt in (xp.float32, xp.float64):
            # torch's kernel calls the C library's function element by element (a number
            # ``other`` too, in the result's type)
            from ._loss_math import libm

            def log(y):
                return libm(fn, xp.asarray(y).astype(rdt, copy=False))
        out = xp.where(self == 0, 0, xp.multiply(self, log(other)))
        return xp.where(xp.isnan(other), other, out).astype(rdt, copy=False)


def _xlogy_self(grad, self, other):
    """derivatives.yaml: ``xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0)``: at
    ``self = 0`` the gradient is still ``log(other)``, 0 only where ``other <= 0``."""
    return _masked_where_nonpositive(xlogy(grad, other), self, other, 0)


def _masked_where_nonpositive(g, self, other, bound):
    from .._tensor import Tensor
    if isinstance(other, Tensor):
        return g.masked_fill((self == 0) & (other <= bound), 0.)
    return g.masked_fill(self == 0, 0.) if _number(other) <= bound else g


@op("XlogyBackward0", name="xlogy_tensor", method=False, function=False, promote=FLOAT,
    reduced_in_float=False,
    check=real_kernel("xlogy_cpu"),
    self=_xlogy_self, other=lambda grad, self, other: grad * self / other)
def _xlogy_tensor(self, other):
    return _xlogy_kernel(self, other)


@op("XlogyBackward1", name="xlogy_scalar_self", method=False, function=False, promote=FLOAT,
    reduced_in_float=False,
    check=real_kernel("xlogy_cpu"),
    tensors=("self", "other"), other=lambda grad, self, other: grad * self / other)
def _xlogy_scalar_self(self, other):
    return _xlogy_kernel(self, other)


@op("XlogyBackward2", name="xlogy_scalar_other", method=False, function=False,
    reduced_in_float=False,
    check=real_kernel("xlogy_cpu"),
    promote=FLOAT, tensors=("self", "other"), self=_xlogy_self)
def _xlogy_scalar_other(self, other):
    return _xlogy_kernel(self, other)


def _xlogy_entry(input, other):
    from .._tensor import Tensor
    if not isinstance(input, Tensor):
        return _xlogy_scalar_self
    return _xlogy_tensor if isinstance(other, Tensor) else _xlogy_scalar_other


@expose
def xlogy(input, other, *, out=None):
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN).

    >>> ember.xlogy(ember.tensor([0.0, 2.0]), ember.tensor([0.0, 1.0]))
    tensor([0., 0.])
    """
    return _run(_xlogy_entry(input, other), (input, other), out)


def _xlogy_(self, other):
    """In-place version of :meth:`Tensor.xlogy`."""
    return _run_inplace(_xlogy_entry(self, other), (self, other))


_xlogy_.__name__ = "xlogy_"
expose(_xlogy_, function=False)


# ----------------------------------------------------------------------------- lerp, addc*


def _lerp_dtypes(self, end, weight) -> bool:
    """lerp's meta checks of the dtypes; whether ``weight`` is a tensor."""
    from .._tensor import Tensor
    if end.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {self.dtype.cpp_name} for `end` but got dtype "
                           f"{end.dtype.cpp_name}")
    tensor_w = isinstance(weight, Tensor)
    if tensor_w and weight.dim() and weight.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {self.dtype.cpp_name} for `weight` but got "
                           f"dtype {weight.dtype.cpp_name}")
    return tensor_w


def _lerp_check(self, end, weight):
    tensor_w = _lerp_dtypes(self, end, weight)
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        from .registry import _scalar_name
        from .util import broadcast_shapes
        # (TensorIterator's shapes come before the kernel's dtype dispatch)
        broadcast_shapes(self.shape, end.shape, *([weight.shape] if tensor_w else []))
        kernel = "lerp_kernel_tensor" if tensor_w else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_scalar_name(self.dtype)}'")


def _lerp_kernel(self, end, weight):
    if self.dtype.char == "e":      # torch's float16 lerp: float32 opmath, one rounding
        w = weight.astype(_F32) if hasattr(weight, "astype") else weight
        return _lerp_kernel(self.astype(_F32), end.astype(_F32), w).astype(self.dtype)
    if hasattr(weight, "astype"):
        weight = weight.astype(self.dtype)
    return _fused.lerp(self, end, weight)


@op("LerpBackward0", name="lerp_scalar", method=False, function=False, promote=NONE,
    tensors=("self", "end"), check=_lerp_check, pointwise=True,
    self=lambda grad, weight: grad * (1 - weight), end=lambda grad, weight: grad * weight)
def _lerp_scalar(self, end, weight):
    return _lerp_kernel(self, end, weight)


@op("LerpBackward1", name="lerp_tensor", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    check=_lerp_check, pointwise=True,
    self=lambda grad, weight: grad * (1 - weight), end=lambda grad, weight: grad * weight,
    weight=lambda grad, self, end: grad * (end - self))
def _lerp_tensor(self, end, weight):
    return _lerp_kernel(self, end, weight)


def _lerp_entry(weight):
    from .._tensor import Tensor
    return _lerp_tensor if isinstance(weight, Tensor) else _lerp_scalar


@expose
def lerp(input, end, weight, *, out=None):
    """Linear interpolation ``input + weight * (end - input)``.

    >>> ember.lerp(ember.tensor([0.0, 1.0]), ember.tensor([10.0, 3.0]), 0.5)
    tensor([5., 2.])
    """
    return _run(_lerp_entry(weight), (input, end, weight), out)


def _lerp_(self, end, weight):
    """In-place version of :meth:`Tensor.lerp`."""
    from .._tensor import Tensor
    if isinstance(self, Tensor) and isinstance(end, Tensor):
        _lerp_dtypes(self, end, weight)
        check_no_overlap(self._data)    # (TensorIterator's, before the kernel's dtype)
    return _run_inplace(_lerp_entry(weight), (self, end, weight))


_lerp_.__name__ = "lerp_"
expose(_lerp_, function=False)


def _value(value, dtype):
    """addcmul's ``value`` as its kernel reads it (checked against an integer type)."""
    return value if dtype.kind in "fc" else dtype.type(D.checked_scalar(_number(value), dtype))


@op("AddcmulBackward0", inplace=True, reduced_in_float=False,
    tensors=("self", "tensor1", "tensor2"),
    check=lambda self, tensor1, tensor2, value=1: D.check_python_int(_number(value)),
    self=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * (tensor2 * value),
    tensor2=lambda grad, tensor1, value: grad * (tensor1 * value))
def addcmul(self, tensor1, tensor2, *, value=1):
    """``self + value * tensor1 * tensor2``.

    >>> ember.addcmul(ember.ones(2), ember.tensor([1.0, 2.0]), ember.tensor([3.0, 4.0]), value=2)
    tensor([ 7., 17.])
    """
    if self.dtype == xp.bool_:
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    if self.dtype.char == "e":      # torch computes float16 in float32 and rounds once
        return _in_float32(addcmul, self, tensor1, tensor2, value)
    if self.dtype.kind == "f":
        return _fused.addcmul(self, tensor1, tensor2, _number(value))
    v = _value(value, self.dtype)
    if self.dtype.kind == "c" and xp is np:
        return _fused.complex_addcmul(self, tensor1, tensor2, v)
    return self + v * tensor1 * tensor2


def _in_float32(entry, self, tensor1, tensor2, value):
    """A float16 ``addcmul``/``addcdiv``: float32 opmath, one rounding (as torch's CPU
    kernels)."""
    f32 = [a.astype(_F32) if a.dtype.char == "e" else a for a in (self, tensor1, tensor2)]
    return entry.kernel(*f32, value).astype(self.dtype)


_F32 = xp.dtype(xp.float32)


def _addcdiv_check(self, tensor1, tensor2, value=1):
    if not tensor1.dtype.is_floating_point and not tensor1.dtype.is_complex and \
            not tensor2.dtype.is_floating_point and not tensor2.dtype.is_complex:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")


@op("AddcdivBackward0", inplace=True, reduced_in_float=False,
    tensors=("self", "tensor1", "tensor2"),
    check=_addcdiv_check,
    self=lambda grad: grad,
    # derivatives.yaml's ``value / tensor2`` divides (Python's ``0.3 / t`` is 1 / t * 0.3)
    tensor1=lambda grad, tensor2, value: grad * (tensor2.new_full((), value) / tensor2),
    tensor2=lambda grad, tensor1, tensor2, value: -grad * (value * tensor1 / (tensor2 * tensor2)))
def addcdiv(self, tensor1, tensor2, *, value=1):
    """``self + value * tensor1 / tensor2``.

    >>> ember.addcdiv(ember.zeros(2), ember.tensor([1.0, 2.0]), ember.tensor([4.0, 4.0]))
    tensor([0.2500, 0.5000])
    """
    if self.dtype.char == "e":
        return _in_float32(addcdiv, self, tensor1, tensor2, value)
    with xp.errstate(divide="ignore", invalid="ignore"):
        if self.dtype.kind == "c" and xp is np:
            # (c10::complex's division, contracted throughout: no plain odd last element as
            # in div's kernel; the value multiplies even when 1, an infinity making NaN)
            num = _value(value, self.dtype) * tensor1
            return self + _fused.complex_quotient(num, tensor2)
        if _is_one(value):
            return self + tensor1 / tensor2
        return self + _value(value, self.dtype) * tensor1 / tensor2


# ----------------------------------------------------------------------------- comparisons

def _comparison(name, ufunc, doc):
    """A comparison, and its in-place form, which torch records (``EqBackward0`` for a number
    ``other``, ``EqBackward1`` for a tensor) with zero gradients."""
    def plain(self, other):
        return ufunc(self, other)

    if name in ("eq", "ne"):
        kernel = plain
    else:
        def kernel(self, other):
            if _is_complex(self) or _is_complex(other):
                dt = D._BY_NP[xp.result_type(self, other)]
                raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                          f"'{dt.scalar_name}'")
            return ufunc(self, other)
        kernel.fast = plain          # the fast path's inputs are float: no complex to refuse
    kernel.__name__ = name
    kernel.__doc__ = doc
    # (torch orders complex numbers for no comparison but equality)
    check = real_kernel(f"{name}_cpu") if name in ("lt", "le", "gt", "ge") else None
    entry = op(None, promote=COMPARE, tensors=("self", "other"), check=check)(kernel)
    node = name.capitalize() + "Backward"
    scalar = op(node + "0", name=name + "_inplace_scalar", method=False, function=False,
                promote=COMPARE, tensors=("self", "other"), check=check,
                self=_zero_grad)(kernel)
    tensor = op(node + "1", name=name + "_inplace_tensor", method=False, function=False,
                promote=COMPARE, check=check, self=_zero_grad, other=_zero_grad)(kernel)

    def inplace(self, other):
        from .._tensor import Tensor
        return _run_inplace(tensor if isinstance(other, Tensor) else scalar, (self, other))
    inplace.__name__ = name + "_"
    inplace.__doc__ = f"In-place version of :meth:`Tensor.{name}` (keeps ``self``'s dtype)."
    expose(inplace, function=False)
    return entry


eq = _comparison("eq", xp.equal, "Element-wise ``==`` as a bool tensor.")
ne = _comparison("ne", xp.not_equal, "Element-wise ``!=`` as a bool tensor.")
lt = _comparison("lt", xp.less, "Element-wise ``<`` as a bool tensor.")
le = _comparison("le", xp.less_equal, "Element-wise ``<=`` as a bool tensor.")
gt = _comparison("gt", xp.greater, "Element-wise ``>`` as a bool tensor.")
ge = _comparison("ge", xp.greater_equal, "Element-wise ``>=`` as a bool tensor.")

# torch's long names of the comparisons: functions, methods and in-place methods
ALIASES = {"greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le",
           "not_equal": "ne", "arctan2": "atan2", "divide": "div"}


def _check_same_dtype(self, other):
    if self.dtype is not other.dtype:
        from .registry import _scalar_name
        raise RuntimeError(f"{_scalar_name(self.dtype)} did not match "
                           f"{_scalar_name(other.dtype)}")


def _need_tensor(name, value, position=2):
    """torch's parser error for an ``other`` that is no tensor (of an op published with its
    signature: as the call gave it, by keyword or position)."""
    from .._tensor import Tensor
    if not isinstance(value, Tensor):
        raise _errors.Unparsed(f"{name}(): argument 'other' (position {position}) must be "
                               f"Tensor, not {type(value).__name__}")


_CLOSE_SIGNATURE = ("(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, "
                    "bool equal_nan = False)",)
_PAIR_SIGNATURES = {"isclose": _CLOSE_SIGNATURE, "allclose": _CLOSE_SIGNATURE,
                    "equal": ("(Tensor input, Tensor other)",)}


@expose(method=False, overloads=_CLOSE_SIGNATURE)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|input - other| <= atol + rtol * |other|`` (equal values always close).

    >>> ember.isclose(ember.tensor([1.0, 2.0]), ember.tensor([1.0 + 1e-9, 2.1]))
    tensor([ True, False])
    """
    from .. import _dtype as D
    from .._tensor import Tensor
    _need_tensor("isclose", other)
    _check_same_dtype(input, other)
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    from .unary import abs as _abs_op
    _abs = _abs_op.kernel                     # torch's |z| for complex (libm's hypot)
    a, b = input._data, other._data
    close = a == b
    floating = input.dtype.is_floating_point or input.dtype.is_complex   # (bfloat16 too)
    if equal_nan and floating:
        close = close | (xp.isnan(a) & xp.isnan(b))
    if rtol == 0 and atol == 0:
        return Tensor._wrap(_mf.ti_layout(xp.asarray(close), input._data, other._data))
    with xp.errstate(invalid="ignore", over="ignore"):
        if not floating:
            ft = D.get_default_dtype().np
            actual = xp.abs(a.astype(xp.int64) - b.astype(xp.int64)).astype(ft)
            b = b.astype(ft)
        else:
            actual = _abs(a - b)
        allowed = atol + _abs(rtol * b)
        close = close | (xp.isfinite(actual) & (actual <= allowed))
    return Tensor._wrap(_mf.ti_layout(xp.asarray(close), input._data, other._data))


@expose(method=False, overloads=_CLOSE_SIGNATURE)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element of ``input`` is close to ``other`` (see :func:`isclose`).

    >>> ember.allclose(ember.tensor([1.0]), ember.tensor([1.0 + 1e-9]))
    True
    """
    _need_tensor("allclose", other)
    if input.is_meta or other.is_meta:
        raise RuntimeError(_errors.META_ITEM)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


@expose(method=False, overloads=_PAIR_SIGNATURES["equal"])
def equal(input, other):
    """True when both tensors have the same shape and equal elements.

    >>> ember.equal(ember.tensor([1, 2]), ember.tensor([1, 2]))
    True
    """
    _need_tensor("equal", other)
    if input.is_quantized or other.is_quantized:    # (qparams and integers: QTensor.equal)
        return input.is_quantized and input.equal(other)
    if input.is_meta or other.is_meta:
        raise _errors.meta_no_kernel("equal")
    if input._data.shape != other._data.shape:
        return False
    return bool(xp.array_equal(input._data, other._data))


for _fn in (isclose, allclose, equal):    # (the methods' parser errors count no ``input``)
    expose(renamed(_fn, "Tensor." + _fn.__name__), function=False,
           overloads=_PAIR_SIGNATURES[_fn.__name__])


# ----------------------------------------------------------------------------- logical, bitwise

def _write_inplace(self, result):
    """Store a non-differentiable result in ``self`` (no leaf check, history kept, as torch)."""
    from .util import broadcast_shapes
    check_no_overlap(self._data)
    shape = self._data.shape
    if result._data.shape != shape and broadcast_shapes(shape, result._data.shape) != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(broadcast_shapes(shape, result._data.shape))}")
    xp.copyto(self._data, result._data, casting="unsafe")
    self._vc.value += 1
    return self


def _logical(name, ufunc):
    def kernel(self, other):
        return ufunc(self, other)
    kernel.__name__ = name
    kernel.__doc__ = f"Element-wise logical ``{name[8:]}`` (nonzero is True) as a bool tensor."
    entry = op(None, promote=COMPARE, tensors=("self", "other"),
               check=tensor_operands(name))(kernel)

    def inplace(self, other):
        _need_tensor(name + "_", other, 1)
        check_no_overlap(self._data)        # (TensorIterator's first check of its output)
        return _write_inplace(self, _run(entry, (self, other)))
    inplace.__name__ = name + "_"
    inplace.__doc__ = f"In-place version of :meth:`Tensor.{name}` (keeps ``self``'s dtype)."
    expose(inplace, function=False)
    return entry


logical_and = _logical("logical_and", xp.logical_and)
logical_or = _logical("logical_or", xp.logical_or)
logical_xor = _logical("logical_xor", xp.logical_xor)


@op(None, promote=NONE, tensors=("self",), pointwise=True)
def logical_not(self):
    """Element-wise logical NOT (zero is True) as a bool tensor."""
    return xp.logical_not(self)


def _logical_not_(self):
    """In-place version of :meth:`Tensor.logical_not` (keeps ``self``'s dtype)."""
    check_no_overlap(self._data)
    return _write_inplace(self, _run(logical_not, (self,)))


_logical_not_.__name__ = "logical_not_"
expose(_logical_not_, function=False)


def _no_float(arr, kernel):
    if arr.dtype.kind in "fc":
        from .unary import _not_for
        _not_for(arr, kernel, "fc")


def _integers_only(kernel, kinds="fc"):
    """A check naming the promoted dtype (bfloat16 computes in float32 further on) when the
    bitwise ``kernel`` has no loop for it."""
    def check(self, other):
        dt = D.result_type(self, other)
        if dt.np.kind in kinds or dt.is_floating_point:
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt.scalar_name}'")
    return check


def _bitwise(name, ufunc):
    def kernel(self, other):
        _no_float(self, f"{name}_cpu")
        return ufunc(self, other)
    kernel.__name__ = name
    kernel.__doc__ = f"Element-wise ``{name}`` of integer or bool tensors."
    return op(None, tensors=("self", "other"), inplace=True,
              check=_integers_only(f"{name}_cpu"))(kernel)


bitwise_and = _bitwise("bitwise_and", xp.bitwise_and)
bitwise_or = _bitwise("bitwise_or", xp.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", xp.bitwise_xor)


def _no_float_bitwise_not(self):
    if self.dtype.is_floating_point or self.dtype.is_complex:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for "
                                  f"'{self.dtype.scalar_name}'")


@op(None, tensors=("self",), inplace=True, check=_no_float_bitwise_not)
def bitwise_not(self):
    """Bitwise NOT (logical NOT on bool tensors)."""
    return xp.invert(self)


@op(None, tensors=("self", "other"), inplace=True, check=_integers_only("lshift_cpu", "fcb"))
def bitwise_left_shift(self, other):
    """``self << other``; shifts past the width give 0.

    >>> ember.bitwise_left_shift(ember.tensor([1, 3]), 2)
    tensor([ 4, 12])
    """
    from .unary import _not_for
    _not_for(self, "lshift_cpu", "fcb")
    bits = self.dtype.itemsize * 8
    other = xp.asarray(other)
    bad = (other < 0) | (other >= bits)
    out = xp.left_shift(self, xp.where(bad, 0, other).astype(self.dtype))
    return xp.where(bad, self.dtype.type(0), out)


@op(None, tensors=("self", "other"), inplace=True, check=_integers_only("rshift_cpu", "fcb"))
def bitwise_right_shift(self, other):
    """``self >> other`` (arithmetic for signed integers).

    >>> ember.bitwise_right_shift(ember.tensor([-8, 8]), 2)
    tensor([-2,  2])
    """
    from .unary import _not_for
    _not_for(self, "rshift_cpu", "fcb")
    top = self.dtype.itemsize * 8 - (self.dtype.kind == "i")
    other = xp.asarray(other)
    bad = (other < 0) | (other >= top)
    return xp.right_shift(self, xp.where(bad, top, other).astype(self.dtype))


# ----------------------------------------------------------------------------- where

def _where_check(condition, self, other):
    from .registry import _scalar_name
    if condition.dtype.name != "bool":
        if condition.dtype.name == "uint8":
            import warnings
            warnings.warn(_errors.internal(
                "where received a uint8 condition tensor. This behavior is deprecated and will "
                "be removed in a future version of PyTorch. Use a boolean condition instead.",
                "aten/src/ATen/native/TensorCompare.cpp:621"), UserWarning, stacklevel=4)
        else:
            raise RuntimeError("where expected condition to be a boolean tensor, but got a "
                               f"tensor with dtype {_scalar_name(condition.dtype)}")
    checked_numbers(self, other, numel=1)    # (torch's scalar_tensor: a one-element fill)


@op("WhereBackward0", name="where_op", method=False, function=False, tensors=("self", "other"),
    check=_where_check, pointwise=False,
    self=lambda grad, condition: where(condition, grad, 0.0),
    other=lambda grad, condition: where(condition, 0.0, grad))
def _where(condition, self, other):
    c = condition._data
    r = xp.where(c if c.dtype == xp.bool_ else c.astype(xp.bool_), self, other)
    # TensorIterator's operands: the condition first
    return _mf.ti_layout(r, c, *[a if a.__class__ is xp.ndarray else None for a in (self, other)])


_WHERE_SIGS = (" * (Tensor condition)\n"
               " * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)\n"
               " * (Tensor condition, Number self, Tensor other)\n"
               " * (Tensor condition, Tensor input, Number other)\n"
               " * (Tensor condition, Number self, Number other)\n")


@expose(method=False)
def where(condition, input=None, other=None, *, out=None):
    """``input`` where ``condition`` holds, else ``other`` (broadcast together);
    ``where(condition)`` is ``condition.nonzero(as_tuple=True)``.

    >>> ember.where(ember.tensor([True, False]), ember.tensor([1.0, 2.0]), 0.0)
    tensor([1., 0.])
    """
    from .._tensor import Tensor
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if input is None or other is None:
        got = ", ".join(type(a).__name__ if not isinstance(a, Tensor) else "Tensor"
                        for a in (condition, input, other) if a is not None)
        raise TypeError("where() received an invalid combination of arguments - got "
                        f"({got}), but expected one of:\n" + _WHERE_SIGS)
    if out is not None:
        for pos, (pname, a) in enumerate((("input", input), ("other", other)), 2):
            if not isinstance(a, Tensor):
                raise TypeError(f"where(): argument '{pname}' (position {pos}) must be Tensor, "
                                f"not {type(a).__name__}")
    return _run(_where, (condition, input, other), out)


def _where_method(self, condition, other):
    """``self`` where ``condition`` holds, else ``other`` (torch's ``Tensor.where``)."""
    return _run(_where, (condition, self, other))


_where_method.__name__ = "where"
expose(_where_method, function=False)


# ----------------------------------------------------------------------------- clamp

def _clamp_self(grad, self, min, max):
    """torch's clamp_backward: the gradient passes where ``min <= self <= max``."""
    if min is not None and max is not None:
        return grad.where((self >= min).logical_and(self <= max), 0.0)
    if min is not None:
        return grad.where(self >= min, 0.0)
    return grad.where(self <= max, 0.0)


def _clamp_min_grad(grad, self, min, max):
    if max is None:
        return grad.where(self < min, 0.0)
    return grad.where((self < min).logical_and(min < max), 0.0)


def _clamp_max_grad(grad, self, min, max):
    if min is None:
        return grad.where(self > max, 0.0)
    return grad.where((self > max).logical_or(max < min), 0.0)


def _clamp_kernel(self, min, max):
    out = self
    if min is not None:
        out = xp.maximum(out, min)
    if max is not None:
        out = xp.minimum(out, max)
    return out if out is not self else self.copy()


def _no_bool_clamp(self, *bounds):
    """torch has no clamp kernel for a bool tensor and bool bounds (it names the kernel
    that one bound or two would run); number bounds must fit the result type."""
    if self.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if _is_bool(self) and all(b is None or _is_bool(b) for b in bounds):
        kind = "" if len(bounds) == 2 and None not in bounds else (
            "_max" if bounds[0] is None else "_min")
        raise NotImplementedError(f"\"clamp{kind}_scalar_cpu\" not implemented for 'Bool'")
    checked_numbers(self, *bounds)


@op("ClampBackward1", name="clamp_scalar", method=False, function=False,
    tensors=("self", "min", "max"), check=_no_bool_clamp, self=_clamp_self)
def _clamp_scalar(self, min, max):
    return _clamp_kernel(self, min, max)


def _no_bool_clamp_tensor(self, min, max):
    """torch's two-bound clamp kernel has no bool loop (one bound runs maximum or minimum,
    which have)."""
    if min is not None and max is not None and D.result_type(self, min, max) is D.bool:
        raise NotImplementedError("\"clamp_cpu\" not implemented for 'Bool'")


@op("ClampBackward0", name="clamp_tensor", method=False, function=False,
    tensors=("self", "min", "max"), check=_no_bool_clamp_tensor, self=_clamp_self,
    min=_clamp_min_grad, max=_clamp_max_grad)
def _clamp_tensor(self, min, max):
    return _clamp_kernel(self, min, max)


_CLAMP_SIGS = ("(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
               "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)")


def _as_number(bound):
    """A bound as torch's parser reads a ``Number``: a Python number, or the value of a 0-d
    tensor that needs no gradient (None where it is neither)."""
    if isinstance(bound, Tensor):
        return bound.item() if not bound.ndim and not bound.requires_grad else None
    if isinstance(bound, (bool, int, float, complex)) or hasattr(bound, "dtype") \
            and np.ndim(bound) == 0:
        return bound
    return None


def _clamp_entry(self, min, max):
    """The clamp torch's parser picks for the bounds, and the bounds as it passes them: both
    tensors (or None) the tensor one, else both numbers (a 0-d tensor read as its value)."""
    if all(b is None or isinstance(b, Tensor) for b in (min, max)):
        entry = _clamp_tensor
    else:
        nums = [None if b is None else _as_number(b) for b in (min, max)]
        if any(n is None and b is not None for n, b in zip(nums, (min, max))):
            raise _errors.Unparsed("clamp() received an invalid combination of arguments")
        entry, (min, max) = _clamp_scalar, nums
    if self.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return entry, min, max


def _clamp_family(name):
    """``ember.<name>``, ``Tensor.<name>`` and ``Tensor.<name>_`` of clamp and its alias
    clip (torch's parser names each in its errors)."""
    def function(input, min=None, max=None, *, out=None):
        entry, min, max = _clamp_entry(input, min, max)
        _scalar_bound_out(input, min, out, max)
        return _run(entry, (input, min, max), out)

    def method(self, min=None, max=None):
        entry, min, max = _clamp_entry(self, min, max)
        return _run(entry, (self, min, max))

    def inplace(self, min=None, max=None):
        entry, min, max = _clamp_entry(self, min, max)
        _inplace_cast_check(self, min, max)
        return _run_inplace(entry, (self, min, max))

    function.__doc__ = (f"Limit values to ``[min, max]``; bounds are numbers or tensors (either "
                        f"may be None).\n\n    >>> ember.{name}(ember.tensor([-2.0, 0.5, 3.0]), "
                        f"-1, 1)\n    tensor([-1.0000,  0.5000,  1.0000])\n    ")
    method.__doc__ = f"Limit values to ``[min, max]`` (see :func:`ember.{name}`)."
    inplace.__doc__ = f"In-place version of :meth:`Tensor.{name}`."
    function.__name__ = function.__qualname__ = method.__name__ = name
    function.__module__ = "ember"                 # (where pickle finds it)
    method.__qualname__ = f"Tensor.{name}"
    inplace.__name__ = name + "_"
    inplace.__qualname__ = f"Tensor.{name}_"
    expose(function, method=False, overloads=_CLAMP_SIGS)
    expose(method, function=False, overloads=_CLAMP_SIGS)
    expose(inplace, function=False, overloads=_CLAMP_SIGS)
    from .registry import FUNCTIONS
    return FUNCTIONS[name]


def _inplace_cast_check(self, *bounds):
    """torch's message when an in-place clamp with number bounds would change the dtype."""
    from .. import _dtype as D
    from .registry import _scalar_name
    nums = [b for b in bounds if b is not None and not hasattr(b, "dtype")]
    if nums:
        dt = D.result_type(self, *nums)
        if not D.can_cast(dt, self.dtype):
            raise RuntimeError(f"result type {_scalar_name(dt)} can't be cast to the desired "
                               f"output type {self.dtype.cpp_name}")


clamp = _clamp_family("clamp")
clip = _clamp_family("clip")


def _no_complex_clamp(self):
    if self.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")


@op("ClampMinBackward0", name="clamp_min_scalar", method=False, function=False,
    tensors=("self", "min"), check=_no_bool_clamp,
    self=lambda grad, self, min: grad.where(self >= min, 0.0))
def _clamp_min_scalar(self, min):
    _no_complex_clamp(self)
    return xp.maximum(self, min)


@op("ClampMinBackward1", name="clamp_min_tensor", method=False, function=False,
    self=lambda grad, self, min: grad.where(self >= min, 0.0),
    min=lambda grad, self, min: grad.where(self < min, 0.0))
def _clamp_min_tensor(self, min):
    _no_complex_kernel("maximum_cpu", self, min)
    return xp.maximum(self, min)


@op("ClampMaxBackward0", name="clamp_max_scalar", method=False, function=False,
    tensors=("self", "max"), check=lambda self, max: _no_bool_clamp(self, None, max),
    self=lambda grad, self, max: grad.where(self <= max, 0.0))
def _clamp_max_scalar(self, max):
    _no_complex_clamp(self)
    return xp.minimum(self, max)


@op("ClampMaxBackward1", name="clamp_max_tensor", method=False, function=False,
    self=lambda grad, self, max: grad.where(self <= max, 0.0),
    max=lambda grad, self, max: grad.where(self > max, 0.0))
def _clamp_max_tensor(self, max):
    _no_complex_kernel("minimum_cpu", self, max)
    return xp.minimum(self, max)


def _bound_op(scalar, tensor, bound):
    from .._tensor import Tensor
    return tensor if isinstance(bound, Tensor) else scalar


def _scalar_bound_out(input, bound, out, *more) -> None:
    """torch's check of the out= of clamp/clamp_min/clamp_max by numbers: a unary op whose
    out= has the computation's dtype (the input's, or for integers its promotion with the
    numbers)."""
    from .. import _dtype as D
    from .._tensor import Tensor
    bounds = [b for b in (bound, *more) if b is not None]
    if out is None or any(isinstance(b, Tensor) for b in bounds) or input.dtype.is_complex:
        return
    dt = input.dtype if input.dtype.is_floating_point else D.result_type(input, *bounds)
    if out.dtype is not dt:
        raise RuntimeError(f"Found dtype {out.dtype.scalar_name} but expected {dt.scalar_name}")


@expose
def clamp_min(input, min, *, out=None):
    """``max(input, min)`` element-wise (``min`` a number or a tensor)."""
    _scalar_bound_out(input, min, out)
    return _run(_bound_op(_clamp_min_scalar, _clamp_min_tensor, min), (input, min), out)


@expose
def clamp_max(input, max, *, out=None):
    """``min(input, max)`` element-wise (``max`` a number or a tensor)."""
    _scalar_bound_out(input, max, out)
    return _run(_bound_op(_clamp_max_scalar, _clamp_max_tensor, max), (input, max), out)


def _clamp_min_(self, min):
    """In-place version of :meth:`Tensor.clamp_min`."""
    _inplace_cast_check(self, min)
    return _run_inplace(_bound_op(_clamp_min_scalar, _clamp_min_tensor, min), (self, min))


def _clamp_max_(self, max):
    """In-place version of :meth:`Tensor.clamp_max`."""
    _inplace_cast_check(self, max)
    return _run_inplace(_bound_op(_clamp_max_scalar, _clamp_max_tensor, max), (self, max))


_clamp_min_.__name__ = "clamp_min_"
_clamp_max_.__name__ = "clamp_max_"
expose(_clamp_min_, function=False)
expose(_clamp_max_, function=False)


# ----------------------------------------------------------------------------- fills

@op("ZeroBackward0", name="zero", method=False, function=False, inplace=True, promote=NONE,
    overlap=overlap_ok, self=lambda grad: grad * 0)
def _zero(self):
    return xp.zeros_like(self)


def _fill_check(self, value):
    if getattr(value, "ndim", 0):
        raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")


def _fill_overlap(self, value):
    """torch fills an expanded tensor with a number, not with a tensor's value (a copy)."""
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        raise RuntimeError(_errors.INTERNAL_OVERLAP)


@op("FillBackward2", name="fill", method=False, function=False, inplace=True, promote=NONE,
    tensors=("self",), check=_fill_check, overlap=_fill_overlap, self=lambda grad: grad * 0)
def _fill(self, value):
    from .._tensor import Tensor
    if isinstance(value, Tensor):       # (a tensor's value is cast, not checked)
        return xp.full_like(self, D.cast(value._data, D._BY_NP[self.dtype])
                            if value._data.dtype != self.dtype else value._data)
    return xp.full_like(self, D.checked_scalar(value, self.dtype, self.size))


@op("torch::autograd::CopyBackwards", name="copy", method=False, function=False, inplace=True,
    promote=NONE, self=lambda grad: grad * 0, other=lambda grad: grad)
def _copy(self, other, non_blocking=False):
    if other.__class__ is MetaArray and self.__class__ is not MetaArray:
        raise NotImplementedError(_errors.META_COPY)
    # a source that broadcasts to a larger shape (more dims, a dim of 0) is rejected by
    # run_inplace as torch rejects it
    shape = self.shape if xp.shape(other) == self.shape else xp.broadcast_shapes(
        self.shape, xp.shape(other))
    if hasattr(other, "dtype"):
        D.warn_complex_to_real(other.dtype, self.dtype)
        check_no_partial_overlap(self, other)
    return xp.broadcast_to(D.through_float(other, self.dtype), shape).astype(self.dtype,
                                                                         copy=False)



# ----------------------------------------------------------------------------- aliases, dunders

def _install_aliases():
    """torch's alternative names (``greater``, ``arctan2``, ``clip`` …) and the shift operators."""
    from .._tensor import Tensor
    from .registry import FUNCTIONS
    for alias, name in ALIASES.items():
        FUNCTIONS[alias] = FUNCTIONS[name]
        setattr(Tensor, alias, getattr(Tensor, name))
        setattr(Tensor, alias + "_", getattr(Tensor, name + "_"))

    def lshift(self, other):
        return bitwise_left_shift(self, other)

    def rshift(self, other):
        return bitwise_right_shift(self, other)

    def rlshift(self, other):
        from . import scalar_tensor_like
        return bitwise_left_shift(scalar_tensor_like(other, self), self)

    def rrshift(self, other):
        from . import scalar_tensor_like
        return bitwise_right_shift(scalar_tensor_like(other, self), self)

    def ilshift(self, other):
        return self.bitwise_left_shift_(other)

    def irshift(self, other):
        return self.bitwise_right_shift_(other)

    for dunder, fn in (("__lshift__", lshift), ("__rshift__", rshift),
                       ("__rlshift__", rlshift), ("__rrshift__", rrshift),
                       ("__ilshift__", ilshift), ("__irshift__", irshift)):
        if dunder not in Tensor.__dict__:
            fn.__name__ = dunder
            setattr(Tensor, dunder, fn)


_install_aliases()
