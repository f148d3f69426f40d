"""Pointwise ops: arithmetic, unary math, comparisons, clamping and in-place fills.

Each entry: torch's node name, the kernel, and one formula per differentiable input
(torch's ``derivatives.yaml``), written with ember ops so that they differentiate again.
"""

from __future__ import annotations

from .._device import xp
from .registry import COMPARE, FLOAT, NONE, expose, op


def _is_one(alpha) -> bool:
    return not hasattr(alpha, "shape") and alpha == 1


def _scale(grad, alpha):
    return grad if _is_one(alpha) else grad * alpha


def _check_alpha(self, other, alpha=1):
    """torch's alpha_check against the result dtype."""
    if type(alpha) is int and alpha == 1:
        return
    from .. import _dtype as D
    dt = D.result_type(self, other)
    if isinstance(alpha, bool) and dt is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")


def _is_bool(x) -> bool:
    from .. import _dtype as D
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

@op("AddBackward0", inplace=True, check=_check_alpha,
    self=lambda grad: grad,
    other=lambda grad, alpha: _scale(grad, alpha))
def add(self, other, *, alpha=1):
    """``self + alpha * other``, with broadcasting and type promotion."""
    if _is_one(alpha):
        return xp.add(self, other)
    return xp.add(self, xp.multiply(other, alpha).astype(xp.result_type(self, other)))


@op("SubBackward0", inplace=True, check=_check_sub,
    self=lambda grad: grad,
    other=lambda grad, alpha: -_scale(grad, alpha))
def sub(self, other, *, alpha=1):
    """``self - alpha * other``."""
    if _is_one(alpha):
        return xp.subtract(self, other)
    return xp.subtract(self, xp.multiply(other, alpha).astype(xp.result_type(self, other)))


@op("RsubBackward0", name="rsub_tensor", method=False, function=False, check=_check_sub,
    self=lambda grad, alpha: -_scale(grad, alpha),
    other=lambda grad: grad)
def _rsub_tensor(self, other, *, alpha=1):
    return xp.subtract(other, self if _is_one(alpha) else xp.multiply(self, alpha))


@op("RsubBackward1", name="rsub_scalar", method=False, function=False, tensors=("self", "other"),
    check=_check_sub,
    self=lambda grad, alpha: -_scale(grad, alpha))
def _rsub_scalar(self, other, *, alpha=1):
    return xp.subtract(other, self if _is_one(alpha) else xp.multiply(self, alpha))


@expose(method=False)
def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (what ``1 - x`` computes)."""
    from .._tensor import Tensor
    if isinstance(other, Tensor):
        return _rsub_tensor(input, other, alpha)
    return _rsub_scalar(input, other, alpha)


@op("MulBackward0", inplace=True,
    self=lambda grad, other: grad * other,
    other=lambda grad, self: grad * self)
def mul(self, other):
    """Element-wise product."""
    return xp.multiply(self, other)


@op("DivBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, other: grad / other,
    other=lambda grad, self, other: -grad * ((self / other) / other))
def div(self, other):
    """True division; integer inputs give the default float dtype."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.true_divide(self, other)


@op("DivBackward0", name="true_divide", promote=FLOAT, inplace=True,
    self=lambda grad, other: grad / other,
    other=lambda grad, self, other: -grad * ((self / other) / other))
def true_divide(self, other):
    """Alias of :func:`div`."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.true_divide(self, other)


@op("FloorDivideBackward0", tensors=("self", "other"), inplace=True)
def floor_divide(self, other):
    """Division rounded down (no gradient, as in torch)."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        if self.dtype.kind in "iu" and xp.any(xp.asarray(other) == 0):
            raise RuntimeError("ZeroDivisionError")
        return xp.floor_divide(self, other)


@op("RemainderBackward0", inplace=True, self=lambda grad: grad, tensors=("self", "other"))
def remainder(self, other):
    """Python-style remainder (the sign of the divisor)."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.remainder(self, other)


def _pow_self(grad, self, exponent):
    if not hasattr(exponent, "shape") and exponent == 0:
        return grad * 0
    return grad * (exponent * self.pow(exponent - 1))


@op("PowBackward0", name="pow_scalar", method=False, function=False, tensors=("self", "exponent"),
    self=_pow_self)
def _pow_scalar(self, exponent):
    if self.dtype == xp.bool_:   # bool ** bool: NumPy has no bool power
        return xp.power(self.astype(xp.int8), exponent.astype(xp.int8)).astype(xp.bool_)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.power(self, exponent)


def _pow_exp(grad, self, exponent, result):
    """torch's pow_backward_exponent: 0 where the base is 0 and the exponent >= 0."""
    from .._tensor import Tensor
    if not isinstance(self, Tensor):
        g = grad * (result * _log_scalar(self))
        return where(exponent >= 0, 0.0 * g, g) if self == 0 else g
    g = grad * (result * log(self.to(result.dtype)))
    return where((self == 0) & (exponent >= 0), 0.0 * g, g)


def _pow_self_tensor(grad, self, exponent):
    """torch's pow_backward_self for a tensor exponent: 0 where the exponent is 0."""
    g = grad * (exponent * self.pow(exponent - 1))
    return where(exponent == 0, 0.0 * g, g)


def _log_scalar(x):
    import math
    return math.log(x) if x > 0 else (float("-inf") if x == 0 else float("nan"))


@op("PowBackward1", name="pow_tensor", method=False, function=False,
    self=_pow_self_tensor, exponent=_pow_exp)
def _pow_tensor(self, exponent):
    _no_bool_pow(self)
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.power(self, exponent)


@op("PowBackward2", name="pow_scalar_base", method=False, function=False,
    tensors=("self", "exponent"), exponent=_pow_exp)
def _pow_scalar_base(self, exponent):
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.power(self, exponent)


def _no_bool_pow(arr):
    if arr.dtype == xp.bool_:   # the computation dtype: both operands are bool
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")


def _pow_dispatch(input, exponent):
    from .._tensor import Tensor
    if not isinstance(input, Tensor):
        return _pow_scalar_base, (input, exponent)
    if isinstance(exponent, Tensor):
        return _pow_tensor, (input, exponent)
    if input.dtype._category < 2 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return _pow_scalar, (input, exponent)


@expose
def pow(input, exponent, *, out=None):
    """``input ** exponent`` (tensor or number on either side)."""
    from .registry import run
    d, args = _pow_dispatch(input, exponent)
    return run(d, args, out)


def _pow_(self, exponent):
    from .registry import run_inplace
    d, args = _pow_dispatch(self, exponent)
    return run_inplace(d, args)


_pow_.__name__ = "pow_"
expose(_pow_, function=False)


@op("NegBackward0", inplace=True, self=lambda grad: -grad)
def neg(self):
    """``-self``."""
    if self.dtype == xp.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return xp.negative(self)


negative = neg


@op("ReciprocalBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: -grad * (result * result))
def reciprocal(self):
    """``1 / self``."""
    with xp.errstate(divide="ignore"):
        return xp.reciprocal(self)


# ----------------------------------------------------------------------------- unary math

@op("AbsBackward0", inplace=True, self=lambda grad, self: grad * self.sgn())
def abs(self):
    """Absolute value."""
    if self.dtype == xp.bool_:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return xp.abs(self)


@op("SgnBackward0", self=lambda grad: grad * 0)
def sgn(self):
    """Sign (``x / |x|`` for complex)."""
    return xp.sign(self)


@op("SignBackward0", self=lambda grad: grad * 0, inplace=True)
def sign(self):
    """Sign: -1, 0 or 1."""
    return xp.sign(self)


@op("ExpBackward0", promote=FLOAT, inplace=True, self=lambda grad, result: grad * result)
def exp(self):
    """Exponential."""
    with xp.errstate(over="ignore"):
        return xp.exp(self)


@op("LogBackward0", promote=FLOAT, inplace=True, self=lambda grad, self: grad / self)
def log(self):
    """Natural logarithm."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.log(self)


@op("SqrtBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: grad / (2 * result))
def sqrt(self):
    """Square root."""
    with xp.errstate(invalid="ignore"):
        return xp.sqrt(self)


@op("SinBackward0", promote=FLOAT, inplace=True, self=lambda grad, self: grad * self.cos())
def sin(self):
    """Sine."""
    return xp.sin(self)


@op("CosBackward0", promote=FLOAT, inplace=True, self=lambda grad, self: grad * -self.sin())
def cos(self):
    """Cosine."""
    return xp.cos(self)


@op("TanhBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: grad * (1 - result * result))
def tanh(self):
    """Hyperbolic tangent."""
    return xp.tanh(self)


@op("SigmoidBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: grad * (result * (1 - result)))
def sigmoid(self):
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""
    with xp.errstate(over="ignore"):
        out = xp.exp(-xp.abs(self))
        return xp.where(self >= 0, 1 / (1 + out), out / (1 + out)).astype(out.dtype)


@op("ReluBackward0", inplace=True, self=lambda grad, result: grad * (result > 0))
def relu(self):
    """``max(x, 0)``."""
    if self.dtype == xp.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    return xp.maximum(self, self.dtype.type(0))


# ----------------------------------------------------------------------------- comparisons

def _comparison(name, ufunc, doc):
    def kernel(self, other):
        return ufunc(self, other)
    kernel.__name__ = name
    kernel.__doc__ = doc
    return op(None, promote=COMPARE, tensors=("self", "other"), inplace=True)(kernel)


eq = _comparison("eq", xp.equal, "Element-wise ``==`` as a bool tensor.")
ne = _comparison("ne", xp.not_equal, "Element-wise ``!=`` as a bool tensor.")
lt = _comparison("lt", xp.less, "Element-wise ``<`` as a bool tensor.")
le = _comparison("le", xp.less_equal, "Element-wise ``<=`` as a bool tensor.")
gt = _comparison("gt", xp.greater, "Element-wise ``>`` as a bool tensor.")
ge = _comparison("ge", xp.greater_equal, "Element-wise ``>=`` as a bool tensor.")


def _bitwise(name, ufunc):
    def kernel(self, other):
        if self.dtype.kind == "f" or getattr(other, "dtype", xp.dtype(int)).kind == "f":
            raise RuntimeError(f'"{name}_cpu" not implemented for \'Float\'')
        return ufunc(self, other)
    kernel.__name__ = name
    kernel.__doc__ = f"Element-wise ``{name}`` of integer or bool tensors."
    return op(None, tensors=("self", "other"), inplace=True)(kernel)


bitwise_and = _bitwise("bitwise_and", xp.bitwise_and)
bitwise_or = _bitwise("bitwise_or", xp.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", xp.bitwise_xor)


@op(None, tensors=("self",), inplace=True)
def bitwise_not(self):
    """Bitwise NOT (logical NOT on bool tensors)."""
    if self.dtype.kind == "f":
        raise RuntimeError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return xp.invert(self)


# ----------------------------------------------------------------------------- where, clamp

def _between(self, lo, hi):
    mask = None
    if lo is not None:
        mask = self >= lo
    if hi is not None:
        m = self <= hi
        mask = m if mask is None else mask & m
    return mask


@op("WhereBackward0", promote=NONE, tensors=("condition", "self", "other"),
    self=lambda grad, condition: where(condition, grad, 0.0 * grad),
    other=lambda grad, condition: where(condition, 0.0 * grad, grad))
def where(condition, self, other):
    """``self`` where ``condition`` holds, else ``other``."""
    return xp.where(condition, self, other)


@op("ClampBackward1", inplace=True, tensors=("self", "min", "max"),
    self=lambda grad, self, min, max: grad * _between(self, min, max))
def clamp(self, min=None, max=None):
    """Limit values to ``[min, max]`` (either bound may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if max is None:
        return xp.where(self < min, min, self).astype(self.dtype)
    if min is None:
        return xp.where(self > max, max, self).astype(self.dtype)
    out = xp.where(self < min, min, self)
    return xp.where(out > max, max, out).astype(self.dtype)


clip = clamp


@op("ZeroBackward0", name="zero", method=False, function=False, inplace=True, promote=NONE,
    self=lambda grad: grad * 0)
def _zero(self):
    return xp.zeros_like(self)


@op("FillBackward2", name="fill", method=False, function=False, inplace=True, promote=NONE,
    tensors=("self",), self=lambda grad: grad * 0)
def _fill(self, value):
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        value = value.item()
    return xp.full_like(self, value)


@op("CopyBackwards", name="copy", method=False, function=False, inplace=True, promote=NONE,
    self=lambda grad: grad * 0, src=lambda grad: grad)
def _copy(self, src, non_blocking=False):
    return xp.broadcast_to(src, self.shape).astype(self.dtype, copy=False)

