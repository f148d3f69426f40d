"""Element-wise functions beside the core pointwise family: ``logaddexp``/``logaddexp2``,
``sinc``, ``frexp``/``ldexp``, ``nextafter``, ``heaviside``, ``gcd``/``lcm``, and the running
``logcumsumexp``, each with torch's node and backward formula (derivatives.yaml).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype as D
from .. import _lazy
from .. import _memory_format as _mf
from .._device import xp
from .._tensor import Tensor
from . import _fused, _libm, _sleef, _sleef_d
from .pointwise import _not_implemented
from .registry import (
    FLOAT,
    NONE,
    SAME,
    _write_out,
    check_out_tuple,
    expose,
    op,
    run,
    run_inplace,
    tensor_operands,
    write_outs,
)
from .search import _return_type
from .util import c_order, norm_dim

_sleef_ext = _lazy.defer(globals(), "_sleef_ext", "ember._ops._sleef_ext")
_sleef_fmod = _lazy.defer(globals(), "_sleef_fmod", "ember._ops._sleef_fmod")
del _lazy

_wrap = Tensor._wrap
FrexpResult = _return_type("frexp", ("mantissa", "exponent"))
_LN2 = math.log(2.0)


def _float_only(name):
    """torch's errors for ``logaddexp``/``logaddexp2``: two tensors, of a floating (or
    complex) result type."""
    def then(self, other):
        from .. import _dtype as D
        dt = D.result_type(self, other)
        if not (dt.is_floating_point or dt.is_complex) or (dt.is_complex and "2" in name):
            raise NotImplementedError(f'"{name}" not implemented for \'{dt.scalar_name}\'')
    return tensor_operands(name.rsplit("_", 1)[0], then=then)


@op("LogaddexpBackward0", tensors=("self", "other"), check=_float_only("logaddexp_cpu"),
    reduced_in_float=False,
    self=lambda grad, self, other: grad / (1 + (other - self).exp()),
    other=lambda grad, self, other: grad / (1 + (self - other).exp()))
def logaddexp(self, other):
    """``log(exp(self) + exp(other))``, computed stably.

    >>> ember.logaddexp(ember.tensor([0.]), ember.tensor([0.]))
    tensor([0.6931])
    """
    if xp is np and self.dtype == other.dtype and self.dtype in (np.float32, np.float64):
        return _sleef_fmod.binary(self, other, _logaddexp_vec, _logaddexp_scalar)
    if xp is np and self.dtype == other.dtype and _reduced(self.dtype):
        return _sleef_fmod.binary(self, other, *_in_float(_logaddexp_vec, _logaddexp_scalar))
    if self.dtype.kind == "c":
        return c_order(_complex_log_add_exp(*np.broadcast_arrays(self, other)))
    return xp.logaddexp(self, other)


def _complex_log_add_exp(x, y):
    """ATen's complex ``_log_add_exp_helper`` (x, y: complex arrays of one shape and dtype):
    ``log1p(exp(min - max)) + max``, ordered by real part, NaN where either has one; ``min``
    where both real parts are -inf, ``log(exp(min) + exp(max))`` where +inf. ``std::exp`` and
    ``std::log`` are glibc's ``cexp``/``clog``; ``log1p`` is c10's (:func:`_fused.c10_log1p`)."""
    nan_x = np.isnan(x.real) | np.isnan(x.imag)
    nan_y = np.isnan(y.real) | np.isnan(y.imag)
    lt = x.real < y.real
    mn = np.where(nan_y, y, np.where(nan_x, x, np.where(lt, x, y)))
    mx = np.where(nan_y, y, np.where(nan_x, x, np.where(lt, y, x)))
    with np.errstate(all="ignore"):
        res = _fused.c10_log1p(_libm.c_complex("cexp", _complex_sub(mn, mx)))
        res.real += mx.real
        res.imag += mx.imag
        same_inf = ~np.isfinite(mn.real) & (mn.real == mx.real)
        if same_inf.any():
            up = _libm.c_complex("cexp", mn) + _libm.c_complex("cexp", mx)
            res = np.where(same_inf, np.where(mn.real < 0, mn, _libm.c_complex("clog", up)), res)
    nan = np.isnan(mn.real) | np.isnan(mn.imag)
    if nan.any():
        res[nan] = complex(math.nan, math.nan)
    return res


def _complex_sub(a, b):
    """``a - b`` part by part (NumPy's complex subtract agrees; kept explicit for the zeros)."""
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = a.real - b.real, a.imag - b.imag
    return out


def _reduced(dtype):
    return dtype == np.float16 or dtype.name == "bfloat16"


def _in_float(*fns):
    """float16/bfloat16 kernels: torch converts to float, runs the float computation (the
    vector one on the vectors) and rounds the result."""
    def wrap(fn):
        return lambda a, b: fn(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
    return [wrap(fn) for fn in fns]


def _logaddexp_vec(a, b):
    """torch's vector loop: ``max(a, b) + log1p(exp(-|a - b|))`` with Sleef's ``exp`` and
    ``log1p`` (nan-propagating max), ``a`` where both are the same infinity."""
    f32 = a.dtype == np.float32
    with np.errstate(all="ignore"):
        d = -np.abs(a - b)
        e = _sleef.expf(d) if f32 else _sleef_d.expd(d)
        r = np.maximum(a, b) + (_sleef_ext.log1pf(e) if f32 else _sleef_ext.log1pd(e))
        return np.where((a == b) & (np.abs(a) == np.inf), a, r)


def _logaddexp_scalar(a, b):
    """torch's one-by-one loop: ``std::max`` (``a`` unless ``a < b``), glibc's exp/log1p."""
    f32 = a.dtype == np.float32
    with np.errstate(all="ignore"):
        d = -np.abs(a - b)
        e = _sleef.expf_scalar(d) if f32 else _sleef_d.exp_scalar(d)
        r = np.where(a < b, b, a) + _libm.libm("log1p", e)
        return np.where(np.isinf(a) & (a == b), a, r)


@op("Logaddexp2Backward0", tensors=("self", "other"), check=_float_only("logaddexp2_cpu"),
    reduced_in_float=False,
    self=lambda grad, self, other: grad / (1 + 2 ** (other - self)),
    other=lambda grad, self, other: grad / (1 + 2 ** (self - other)))
def logaddexp2(self, other):
    """``log2(2**self + 2**other)``, computed stably."""
    if xp is np and self.dtype == other.dtype and self.dtype in (np.float32, np.float64):
        return _sleef_fmod.binary(self, other, _logaddexp2_vec, _logaddexp2_scalar)
    if xp is np and self.dtype == other.dtype and _reduced(self.dtype):
        return _sleef_fmod.binary(self, other, *_in_float(_logaddexp2_vec, _logaddexp2_scalar))
    return xp.logaddexp2(self, other)


def _logaddexp2_vec(a, b):
    """torch's vector loop: ``max(a, b) + log1p(exp2(-|a - b|)) / ln 2`` with Sleef's
    ``exp2`` and ``log1p`` (nan-propagating max; the product and sum fused, as the compiler
    contracts them), ``a`` where both are the same infinity."""
    from . import _exact, _sleef_atan2
    f32 = a.dtype == np.float32
    with np.errstate(all="ignore"):
        d = -np.abs(a - b)
        e = _sleef_atan2.exp2f_vec(d) if f32 else _sleef_atan2.exp2d_vec(d)
        lg = _sleef_ext.log1pf(e) if f32 else _sleef_ext.log1pd(e)
        r = _exact.fma(lg, np.full_like(lg, a.dtype.type(1 / _LN2)), np.maximum(a, b))
        return np.where((a == b) & (np.abs(a) == np.inf), a, r)


def _logaddexp2_scalar(a, b):
    """torch's one-by-one loop: ``std::max`` (``a`` unless ``a < b``) plus glibc's
    ``log1p(exp2(-|a - b|))`` times 1 / ln 2, fused."""
    from . import _exact
    f32 = a.dtype == np.float32
    with np.errstate(all="ignore"):
        d = -np.abs(a - b)
        e = _libm.float_fn("exp2")(d) if f32 else _libm.double_fn("exp2")(d)
        lg = _libm.libm("log1p", e)
        r = _exact.fma(lg, np.full_like(lg, a.dtype.type(1 / _LN2)), np.where(a < b, b, a))
        return np.where(np.isinf(a) & (a == b), a, r)


def _sinc_grad(grad, self):
    """torch's ``sinc_backward``: ``grad * ((πx·cos(πx) - sin(πx)) / (x·x·π))``, 0 where
    that denominator is 0."""
    px = self * math.pi
    sq = self * self * math.pi
    out = grad * ((px * px.cos() - px.sin()) / sq)
    return out.masked_fill(sq == 0, 0)


@op("SincBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=_sinc_grad)
def sinc(self):
    """The normalised sinc, ``sin(pi x) / (pi x)`` (1 at 0).

    >>> ember.sinc(ember.tensor([0., 0.5]))
    tensor([1.0000, 0.6366])
    """
    if xp is np and self.dtype in (np.float32, np.float64):
        # torch's loop: std::sin(pi * x) / (pi * x) in the dtype (glibc's sinf / sin)
        from .. import random
        from ._cephes import c_call
        with np.errstate(all="ignore"):
            p = self.dtype.type(math.pi) * self
            s = c_call("sin", p) if self.dtype == np.float32 else random._sin(p)
            return np.where(self == 0, self.dtype.type(1), s / p).astype(self.dtype)
    if xp is np and self.dtype == np.float16:     # torch's loop runs in float (opmath)
        return sinc.kernel(self.astype(np.float32)).astype(np.float16)
    if xp is np and self.dtype.kind == "c":
        # torch's loop: std::sin(pi * x) / (pi * x) with c10::complex's product and quotient
        # (contracted by the compiler) and glibc's csin
        from ._fused import complex_product, complex_quotient
        from ._libm import c_complex
        with np.errstate(all="ignore"):
            p = complex_product(self.dtype.type(math.pi), self, True)
            return np.where(self == 0, self.dtype.type(1),
                            complex_quotient(c_complex("csin", p), p)).astype(self.dtype)
    return xp.sinc(self)


@op("FrexpBackward0", name="frexp", promote=NONE, outputs=2, inplace=False,
    self=lambda grads, self: grads[0] * _wrap(xp.ldexp(xp.ones((), self._data.dtype),
                                                       -xp.frexp(self._data)[1])))
def _frexp(self):
    m, e = xp.frexp(self)
    return _mf.ti_layout(m, self), _mf.ti_layout(e.astype(xp.int32), self)


def _frexp_check(input):
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")


@expose
def frexp(input: Tensor, *, out=None):
    """``(mantissa, exponent)`` with ``input == mantissa * 2**exponent``, ``|mantissa|`` in
    [0.5, 1).

    >>> ember.frexp(ember.tensor([8.]))
    torch.return_types.frexp(
    mantissa=tensor([0.5000]),
    exponent=tensor([4], dtype=torch.int32))
    """
    check_out_tuple("frexp", out)
    _frexp_check(input)
    m, e = _frexp(input)
    if out is not None:
        return write_outs(out, (m, e), FrexpResult, lambda i, e, g: (
            f"torch.frexp() expects mantissa to have dtype {e.cpp_name} but got {g.cpp_name}"
            if i == 0 else f"torch.frexp() expects exponent to have int dtype but got "
            f"{g.cpp_name}"))
    return FrexpResult(m, e)


def _pow2(other):
    """``2**other`` as torch's backward takes it: in integers for an integral exponent (so 0
    for a negative one)."""
    if not isinstance(other, Tensor) or other.dtype.is_floating_point:
        return other.exp2() if isinstance(other, Tensor) else 2.0 ** other
    e = other._data.astype(xp.int64)
    return _wrap(xp.where(e < 0, 0, xp.left_shift(1, xp.clip(e, 0, 62))))


@op("LdexpBackward0", name="ldexp", promote=FLOAT, method=False, function=False,
    reduced_in_float=False,
    tensors=("self", "other"), check=tensor_operands("ldexp"),
    self=lambda grad, other: grad * _pow2(other),
    other=lambda grad, result: grad * result * _LN2)
def _ldexp(self, other, route):
    # ``route``: torch's kernel, by the operands' own dtypes (_ldexp_route)
    kind, arr = route
    if kind == "int":
        # its ldexp kernel: std::ldexp(double(x), int(exp)), in self's dtype
        e = xp.asarray(arr).astype(xp.int64).astype(xp.int32)
        return xp.ldexp(self.astype(xp.float64), e).astype(self.dtype)
    from .pointwise import mul
    return mul.kernel(self, arr.astype(self.dtype))


def _ldexp_route(self, other):
    """How torch's ldexp computes: a floating ``self`` with an integral exponent by its
    ``ldexp`` kernel; else ``self * _pow2(self, other)``, 2 to the power ``other`` computed
    first in a float32 (an integral or float32 ``self``) or ``self``'s dtype, promoted with
    ``other``'s."""
    if not (isinstance(self, Tensor) and isinstance(other, Tensor)):
        return None                 # (the op's check raises torch's error)
    sdt, odt = self.dtype, other.dtype
    if odt._category < 2 and sdt.is_floating_point:
        if odt is D.bool or odt in D.BAREBONES:
            raise NotImplementedError(f"\"ldexp_cpu_exp\" not implemented for "
                                      f"'{odt.scalar_name}'")
        return "int", other._data
    from .. import _factories
    from ..autograd import grad_mode
    from .pointwise import pow as power
    with grad_mode.no_grad():
        base = 2.0 if sdt._category < 2 or sdt is D.float32 else \
            _factories.full((), 2.0, dtype=sdt)
        p = power(base, other)
    return "pow2", p._data.astype(xp.float32) if p._data.dtype in D.REDUCED else p._data


@expose(function=False)
def ldexp(self, other):
    """``self * 2**other``."""
    # (a method of its own: torch's argument errors count positions after ``self``)
    return run(_ldexp, (self, other, _ldexp_route(self, other)))


@expose(function=False)
def ldexp_(self, other):
    """In-place version of :meth:`Tensor.ldexp`."""
    return run_inplace(_ldexp, (self, other, _ldexp_route(self, other)))


@expose(method=False)
def ldexp(input, other, *, out=None):  # noqa: F811 - the function, beside the method
    """``input * 2**other``.

    >>> ember.ldexp(ember.tensor([1.]), ember.tensor([3]))
    tensor([8.])
    """
    return run(_ldexp, (input, other, _ldexp_route(input, other)), out)


@op("NextafterBackward0", inplace=True, tensors=("self", "other"),
    check=tensor_operands("nextafter"),
    self=lambda grad: grad, other=lambda grad, other: other.new_zeros(other.shape))
def nextafter(self, other):
    """The next representable float after ``self`` towards ``other``."""
    if self.dtype.itemsize == 2 and self.dtype.kind == "V":
        return _nextafter_bits(self, other)
    if self.dtype.kind not in "f":
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for "
                                  f"'{_name(self)}'")
    return xp.nextafter(self, other)


def _nextafter_bits(a, b):
    """c10's ``nextafter`` of bfloat16 (musl's, on the 16-bit pattern): NaN where either is
    NaN, ``to`` where both are zeros, the smallest subnormal towards ``to`` from a zero, else
    one step of the pattern."""
    a, b = xp.broadcast_arrays(a, b)
    ua, ub = a.view(xp.uint16), b.view(xp.uint16)
    sign = xp.uint16(0x8000)
    abs_a, abs_b = ua & ~sign, ub & ~sign
    away = (abs_a > abs_b) | ((ua ^ ub) & sign).astype(bool)
    step = xp.where(away, ua - xp.uint16(1), ua + xp.uint16(1)).astype(xp.uint16)
    from_zero = xp.where(abs_b == 0, ub, (ub & sign) | xp.uint16(1)).astype(xp.uint16)
    bits = xp.where(ua == ub, ua, xp.where(abs_a == 0, from_zero, step)).astype(xp.uint16)
    out = bits.view(a.dtype).copy()
    nan = xp.isnan(a.astype(xp.float32)) | xp.isnan(b.astype(xp.float32))
    out[nan] = (a.astype(xp.float32) + b.astype(xp.float32))[nan].astype(a.dtype)
    return out


def _name(arr):
    from .. import _dtype as D
    return D._BY_NP[arr.dtype].scalar_name


def _heaviside_dtypes(input, values):
    if input.dtype.is_complex or values.dtype.is_complex:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


_heaviside_check = tensor_operands("heaviside", "values", then=_heaviside_dtypes)


@op("NotImplemented", name="heaviside", promote=SAME, inplace=True, function=False,
    tensors=("self", "values"), check=_heaviside_check, self=_not_implemented("heaviside"),
    values=_not_implemented("heaviside"))
def _heaviside(self, values):
    """0 where ``self < 0``, 1 where ``self > 0``, ``values`` where it is 0."""
    return xp.where(self == 0, values, (self > 0)).astype(xp.result_type(self, values))


@expose(method=False)
def heaviside(input, values, *, out=None):
    """0 where ``input < 0``, 1 where ``input > 0``, ``values`` where it is 0.

    >>> ember.heaviside(ember.tensor([-1., 0., 2.]), ember.tensor([0.5]))
    tensor([0.0000, 0.5000, 1.0000])
    """
    if out is not None and isinstance(input, Tensor) and out.dtype is not input.dtype:
        _heaviside_check(input, values)     # (the meta function's one test: out's dtype too)
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")
    return run(_heaviside, (input, values), out)



def _integral(name):
    def then(self, other):
        from .. import _dtype as D
        dt = D.result_type(self, other)
        if dt._category != 1:       # (torch's kernels: the integer types, by the result's)
            raise NotImplementedError(f'"{name}" not implemented for \'{dt.scalar_name}\'')
    return tensor_operands(name[:-4], then=then)


@op(None, inplace=True, tensors=("self", "other"), check=_integral("gcd_cpu"))
def gcd(self, other):
    """The greatest common divisor, element-wise (integers).

    >>> ember.gcd(ember.tensor([4, 6]), ember.tensor([6, 9]))
    tensor([2, 3])
    """
    return xp.gcd(self, other)


@op(None, inplace=True, tensors=("self", "other"), check=_integral("lcm_cpu"))
def lcm(self, other):
    """The least common multiple, element-wise (integers)."""
    return xp.lcm(self, other)


# ----------------------------------------------------------------------------- logcumsumexp

def _logcumsumexp_backward(grad, self, result, dim):
    """torch's stable form: the reversed running logsumexp of log|grad| - result, split by
    the gradient's sign."""
    low = xp.finfo(grad._data.dtype).min

    def reverse(x):
        return logcumsumexp(x.flip([dim]), dim).flip([dim])
    log_abs = grad.abs().log()
    pos = log_abs.where(grad > 0, low)
    neg = log_abs.where(grad < 0, low)
    return (reverse(pos - result) + self).exp() - (reverse(neg - result) + self).exp()


@op("LogcumsumexpBackward0", name="logcumsumexp_", method=False, function=False,
    reduced_in_float=False,
    promote=NONE, self=_logcumsumexp_backward)
def _logcumsumexp(self, dim):
    if self.ndim == 0:
        return self.copy()
    if xp is np and self.dtype in (np.float32, np.float64) and self.size:
        return _logcumsumexp_exact(self, dim)
    if xp is np and _reduced(self.dtype) and self.size:
        return _logcumsumexp_reduced(self, dim)
    if self.dtype.kind == "c":
        return _complex_logcumsumexp(self, dim) if self.size else self.copy()
    with xp.errstate(invalid="ignore", over="ignore"):
        return c_order(xp.logaddexp.accumulate(self, axis=dim))


def _log_add_exp(x, acc):
    """ATen's ``_log_add_exp_helper`` in double (float for float32 arguments):
    ``log1p(exp(min - max)) + max`` (glibc's exp and log1p), ``x`` where both are the same
    infinity; a nan ``acc`` stays."""
    nan_y = np.isnan(acc)
    mn = np.where(nan_y, acc, np.where(acc < x, acc, x))       # std::min(x, acc)
    mx = np.where(nan_y, acc, np.where(x < acc, acc, x))       # std::max(x, acc)
    if x.dtype == np.float32:
        r = _libm.log1pf(_libm.expf(mn - mx)) + mx
    else:
        r = _libm.libm("log1p", _sleef_d.exp_scalar(mn - mx)) + mx
    return np.where((mn != mx) | np.isfinite(mn), r, x)


def _logcumsumexp_exact(a, dim):
    """torch's CPU loop: each line accumulated in order, in double (the acc type)."""
    a = np.moveaxis(a, dim, 0)
    out = np.empty(a.shape, np.float64)
    with np.errstate(all="ignore"):
        if a[0].size < 4096:        # up to thousands of lines: Python's math (glibc's) per element
            flat = a.reshape(a.shape[0], -1).astype(np.float64)
            res = out.reshape(flat.shape)
            for j in range(flat.shape[1]):
                acc = -math.inf
                for i, x in enumerate(flat[:, j].tolist()):
                    acc = _log_add_exp_one(x, acc)
                    res[i, j] = acc
        else:
            acc = np.full(a.shape[1:], -np.inf)
            for i in range(a.shape[0]):
                acc = _log_add_exp(a[i].astype(np.float64), acc)
                out[i] = acc
    return np.ascontiguousarray(np.moveaxis(out.astype(a.dtype), 0, dim))   # (torch's layout)


def _logcumsumexp_reduced(a, dim):
    """torch's CPU loop on float16/bfloat16 lines: in order, in float (the acc type), each
    step rounded to the element type on its way out only."""
    moved = np.moveaxis(a, dim, 0)
    lines = moved.astype(np.float32).reshape(moved.shape[0], -1)    # (rows of arrays, 1-d too)
    out = np.empty(lines.shape, np.float32)
    acc = np.full(lines.shape[1:], -np.inf, np.float32)
    with np.errstate(all="ignore"):
        for i in range(lines.shape[0]):
            acc = out[i] = _log_add_exp(lines[i], acc)
    out = out.reshape(moved.shape).astype(a.dtype)
    return np.ascontiguousarray(np.moveaxis(out, 0, dim))


def _complex_logcumsumexp(a, dim):
    """torch's CPU loop on complex lines: in order, in complex128 (the acc type)."""
    lines = np.moveaxis(a, dim, 0).astype(np.complex128)
    out = np.empty(lines.shape, np.complex128)
    acc = np.full(lines.shape[1:], complex(-math.inf, 0.0))
    for i in range(lines.shape[0]):
        acc = out[i] = _complex_log_add_exp(lines[i], acc)
    return np.ascontiguousarray(np.moveaxis(out.astype(a.dtype), 0, dim))


def _log_add_exp_one(x, acc):
    if acc != acc:
        return acc
    mn = acc if acc < x else x
    mx = acc if x < acc else x
    if mn != mx or math.isfinite(mn):
        try:
            return math.log1p(math.exp(mn - mx)) + mx
        except (ValueError, OverflowError):
            return math.nan
    return x


@expose(overloads=("(Tensor input, int dim, *, Tensor out = None)",))
def logcumsumexp(input: Tensor, dim: int, *, out=None) -> Tensor:
    """The running ``log(sum(exp(input)))`` along ``dim``.

    >>> ember.logcumsumexp(ember.tensor([0., 0.]), 0)
    tensor([0.0000, 0.6931])
    """
    if out is not None and out.dtype is not input.dtype:    # (checked first, as torch)
        raise RuntimeError(f"expected scalar_type {input.dtype.scalar_name} but found "
                           f"{out.dtype.scalar_name}")
    d = norm_dim(dim, input.ndim)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    res = _logcumsumexp(input, d)
    return res if out is None else _write_out(out, res._data)


__all__ = ["logaddexp", "logaddexp2", "sinc", "frexp", "ldexp", "nextafter", "heaviside",
           "gcd", "lcm", "logcumsumexp"]
