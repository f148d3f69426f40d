"""Unary math: exponentials, logarithms, trigonometry, the error function, rounding, and the
floating-point predicates (``isnan`` …).

Each entry is torch's node name, a NumPy kernel and the formula of ``derivatives.yaml``,
written with ember ops (tensor methods) so that it differentiates again. Integer and bool
inputs of the transcendental ops compute in the default float dtype (``promote=FLOAT``);
rounding ops keep integer dtypes. NumPy has no ``erf``: ``_erf``/``_erfc`` below are a
vectorised port of the fdlibm algorithm (Sun Microsystems' ``s_erf.c``, < 1 ulp in
float64), and ``_erfinv64`` refines a rational first guess by Newton steps on erf (erfc in the
tails), to within an ulp of the correctly rounded value, as torch's MKL kernel is.
"""

from __future__ import annotations

import math

from .. import _lazy
from .. import _memory_format as _mf
from .._device import xp
from . import _exact, _libm, _sleef, _sleef_d, _vml
from .registry import FLOAT, NONE, OPS, expose, op, overlap_after
from .registry import run as _run
from .registry import run_inplace as _run_inplace

_sleef_ext = _lazy.defer(globals(), "_sleef_ext", "ember._ops._sleef_ext")  # (on first use)
del _lazy

_LN2 = math.log(2.0)
_LN10 = 2.3025850929940456         # derivatives.yaml's literal: one ulp below log(10)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _type_name(arr) -> str:
    """torch's scalar-type name of an array's dtype (``'Long'``, ``'Bool'`` …)."""
    from .. import _dtype as D
    from .registry import _scalar_name
    return _scalar_name(D._BY_NP[arr.dtype])


def _not_for(arr, kernel: str, kinds: str) -> None:
    """torch's NotImplementedError when ``arr``'s dtype kind is one of ``kinds``."""
    if arr.dtype.kind in kinds:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(arr)}'")


def _real_only(kernel=None, message=None, error=NotImplementedError):
    """A ``check``: torch's error for a complex tensor (a message, or ``kernel`` named as
    having no loop for the type)."""
    def check(self, *rest):
        dt = getattr(self, "dtype", None)
        if dt is not None and dt.is_complex:
            raise error(message or f"\"{kernel}\" not implemented for '{dt.scalar_name}'")
    return check


# ----------------------------------------------------------------------------- abs, sign

@op("AbsBackward0", inplace=True, self=lambda grad, self: grad * self.sgn())
def abs(self):
    """Absolute value.

    >>> ember.abs(ember.tensor([-1.5, 2.0]))
    tensor([1.5000, 2.0000])
    """
    if self.dtype == xp.bool_:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    if self.dtype in (xp.complex64, xp.complex128) and xp.__name__ == "numpy":
        from . import _sleef_hypot
        return _sleef_hypot.complex_abs(self)
    return xp.abs(self)


def _sign(self):
    if self.dtype == xp.bool_:
        return self.copy()
    out = xp.sign(self)
    if self.dtype.kind == "f":   # torch's sign(nan) is 0
        out = xp.where(xp.isnan(out), out.dtype.type(0), out)
    return out


def _sgn_grad(grad, self, result):
    """0 for real inputs; torch's sgn_backward for complex ones:
    ``(grad - sgn * real(grad * conj(sgn))) / |z|``, 0 at 0."""
    if not result.dtype.is_complex:
        return grad * 0
    from .pointwise import where
    a = self.abs()
    return where(a == 0, 0.0, (grad - result * (grad * result.conj()).real) / a)


@op("SgnBackward0", inplace=True, holomorphic=False, self=_sgn_grad)
def sgn(self):
    """Sign (``x / |x|`` for complex; the same as :func:`sign` for real tensors)."""
    if self.dtype in (xp.complex64, xp.complex128) and xp.__name__ == "numpy":
        from . import _sleef_hypot
        return _sleef_hypot.complex_sgn(self)
    return _sign(self)


@op("SignBackward0", inplace=True, self=lambda grad: grad * 0,
    check=_real_only(message="Unlike NumPy, torch.sign is not intended to support complex "
                     "numbers. Please use torch.sgn instead."))
def sign(self):
    """Sign: -1, 0 or 1 (NaN stays NaN).

    >>> ember.sign(ember.tensor([-2.0, 0.0, 3.0]))
    tensor([-1.,  0.,  1.])
    """
    if self.dtype.kind == "c":
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead.")
    return _sign(self)


@op(None, promote=NONE, tensors=("self",), pointwise=True,
    check=_real_only(message="signbit is not implemented for complex tensors."))
def signbit(self):
    """True where the sign bit is set (``-0.0`` included)."""
    if self.dtype.kind == "c":
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    if self.dtype.kind in "fc":
        return xp.signbit(self)
    return self < 0 if self.dtype.kind == "i" else xp.zeros(self.shape, xp.bool_)


# ----------------------------------------------------------------------------- exp, log

@op("ExpBackward0", promote=FLOAT, inplace=True, self=lambda grad, result: grad * result)
@_vml.first("Exp")
def exp(self):
    """Exponential.

    >>> ember.exp(ember.tensor([0.0, 1.0]))
    tensor([1.0000, 2.7183])
    """
    with xp.errstate(over="ignore"):
        return xp.exp(self)


@op("Exp2Backward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, result: grad * result * _LN2)
def exp2(self):
    """``2 ** x``.

    >>> ember.exp2(ember.tensor([0.0, 3.0]))
    tensor([1., 8.])
    """
    if self.dtype in (xp.float32, xp.float64) and xp.__name__ == "numpy":
        from . import _sleef_atan2
        return (_sleef_atan2.exp2f if self.dtype == xp.float32 else _sleef_atan2.exp2d)(self)
    with xp.errstate(over="ignore"):
        return xp.exp2(self)


def _complex_expm1(z):
    """c10's complex ``expm1``: ``expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)`` with the
    C library's functions, the real part's product and difference fused (as compiled)."""
    from . import _fused
    if z.dtype == xp.complex64:
        fn, suffix = _libm.c_float, "f"
    else:
        fn, suffix = _libm.c_double, ""
    x, y = z.real, z.imag
    with xp.errstate(all="ignore"):
        half = fn("sin" + suffix)(y / x.dtype.type(2))
        sin_y = fn("sin" + suffix)(y)
        out = xp.empty(z.shape, z.dtype)
        out.real = _fused.fma(fn("expm1" + suffix)(x), fn("cos" + suffix)(y),
                              -(x.dtype.type(2) * half * half))
        out.imag = fn("exp" + suffix)(x) * sin_y
    return out


@op("Expm1Backward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, result: grad * (result + 1))
def expm1(self):
    """``exp(x) - 1``, accurate near 0."""
    if self.dtype.kind == "c" and xp.__name__ == "numpy":
        return _complex_expm1(self)
    out = _sleef_ext.unary("expm1", self)
    if out is not None:
        return out
    with xp.errstate(over="ignore"):
        return xp.expm1(self)


@op("LogBackward0", promote=FLOAT, inplace=True, self=lambda grad, self: grad / self)
@_vml.first("Ln")
def log(self):
    """Natural logarithm.

    >>> ember.log(ember.tensor([1.0, 2.0]))
    tensor([0.0000, 0.6931])
    """
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.log(self)


@op("Log2Backward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad / (self * _LN2))
@_vml.first("Log2")
def log2(self):
    """Base-2 logarithm."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        if self.dtype.kind == "c":
            return _complex_log_over(self, 2.0)
        return _sleef_ext.via_double(xp.log2, self)


def _complex_log_over(z, base):
    """torch's complex log2/log10: the complex log's parts each divided by ``log(base)`` in
    the parts' type (``Vectorized``'s ``log() / log_``)."""
    ln = xp.log(z)
    d = ln.real.dtype.type(math.log(base))
    out = xp.empty_like(ln)
    out.real, out.imag = ln.real / d, ln.imag / d
    return out


@op("Log10Backward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad / (self * _LN10))
@_vml.first("Log10")
def log10(self):
    """Base-10 logarithm."""
    with xp.errstate(divide="ignore", invalid="ignore"):
        if self.dtype.kind == "c":
            return _complex_log_over(self, 10.0)
        return _sleef_ext.via_double(xp.log10, self)


@op("Log1PBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad / (self + 1))
def log1p(self):
    """``log(1 + x)``, accurate near 0."""
    if self.dtype.kind == "c" and xp.__name__ == "numpy":
        from . import _fused
        return _fused.c10_log1p(self)
    out = _sleef_ext.unary("log1p", self)
    if out is not None:
        return out
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.log1p(self)


@op("SqrtBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: grad / (2 * result))
@_vml.first("Sqrt")
def sqrt(self):
    """Square root.

    >>> ember.sqrt(ember.tensor([4.0, 2.0]))
    tensor([2.0000, 1.4142])
    """
    with xp.errstate(invalid="ignore"):
        return xp.sqrt(self)


@op("RsqrtBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, result: -0.5 * grad * result.pow(3))
def rsqrt(self):
    """``1 / sqrt(x)``.

    >>> ember.rsqrt(ember.tensor([4.0]))
    tensor([0.5000])
    """
    with xp.errstate(divide="ignore", invalid="ignore"):
        if self.dtype.itemsize == 2 and self.dtype.kind in "fV":
            # (float16/bfloat16: torch's vectors round once, its scalar loop rounds the
            # square root to the type too)
            dt, one = self.dtype, xp.float32(1)
            return _sleef.elementwise(
                self, lambda x: (one / xp.sqrt(x.astype(xp.float32))).astype(dt),
                lambda x: (one / xp.sqrt(x.astype(xp.float32)).astype(dt).astype(
                    xp.float32)).astype(dt), avx512=False)
        if self.dtype.kind == "c" and xp.__name__ == "numpy":
            # (Vectorized's rsqrt is sqrt().reciprocal(), the scalar loop 1 / sqrt(z))
            from . import _fused
            return _fused.complex_div(self.dtype.type(1), xp.sqrt(self))
        return xp.reciprocal(xp.sqrt(self))


@op("ReciprocalBackward0", promote=FLOAT, inplace=True,
    reduced_in_float=False,
    self=lambda grad, result: -grad * (result * result))
def reciprocal(self):
    """``1 / self``."""
    if xp.__name__ == "numpy" and self.dtype.kind == "c":
        from . import _fused
        return _fused.complex_div(self.dtype.type(1), self)
    with xp.errstate(divide="ignore"):
        return xp.reciprocal(self)


@expose
def square(input, *, out=None):
    """``input ** 2`` (``PowBackward0``, as in torch); bool squares to int64.

    >>> ember.square(ember.tensor([3.0, -2.0]))
    tensor([9., 4.])
    """
    from .. import _dtype as D
    if input.dtype is D.bool:
        input = input.to(D.int64)
    return input.pow(2) if out is None else _pointwise().pow(input, 2, out=out)


def _square_(self):
    """In-place version of :meth:`Tensor.square`."""
    return self.pow_(2)


_square_.__name__ = "square_"
expose(_square_, function=False)


def _pointwise():
    from . import pointwise
    return pointwise


# ----------------------------------------------------------------------------- trigonometry

@op("SinBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * self.cos())
@_vml.first("Sin")
def sin(self):
    """Sine."""
    with xp.errstate(invalid="ignore"):
        return xp.sin(self)


@op("CosBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * -self.sin())
@_vml.first("Cos")
def cos(self):
    """Cosine."""
    with xp.errstate(invalid="ignore"):
        return xp.cos(self)


@op("TanBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, result: grad * (1 + result.pow(2)))
@_vml.first("Tan")
def tan(self):
    """Tangent."""
    with xp.errstate(invalid="ignore"):
        return _sleef_ext.via_double(xp.tan, self)


@op("AsinBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * (-self * self + 1).rsqrt())
@_vml.first("Asin")
def asin(self):
    """Arcsine (NaN outside ``[-1, 1]``)."""
    with xp.errstate(invalid="ignore"):
        return _sleef_ext.via_double(xp.arcsin, self)


@op("AcosBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * -((-self * self + 1).rsqrt()))
@_vml.first("Acos")
def acos(self):
    """Arccosine (NaN outside ``[-1, 1]``); of complex128, ``pi/2 - asin(z)`` part by part, as
    torch's vectorized kernel computes it (a real input's imaginary part stays +0)."""
    with xp.errstate(invalid="ignore"):
        if self.dtype != xp.complex128:
            return xp.arccos(self)
        s = xp.arcsin(self)
        out = xp.empty_like(s)
        out.real = _HALF_PI - s.real
        out.imag = 0.0 - s.imag
        return out


_HALF_PI = xp.pi / 2


@op("AtanBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad / (self * self + 1))
@_vml.first("Atan")
def atan(self):
    """Arctangent."""
    return xp.arctan(self)


@op("SinhBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * self.cosh())
def sinh(self):
    """Hyperbolic sine."""
    out = _sleef_ext.unary("sinh", self)
    if out is not None:
        return out
    with xp.errstate(over="ignore"):
        return xp.sinh(self)


@op("CoshBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=lambda grad, self: grad * self.sinh())
def cosh(self):
    """Hyperbolic cosine."""
    out = _sleef_ext.unary("cosh", self)
    if out is not None:
        return out
    with xp.errstate(over="ignore"):
        return xp.cosh(self)


def _tanh_grad_raw(grad, result):
    """``tanh_backward``'s kernel: ``grad * (1 - y * y)``, the multiply-add fused (the
    compiler contracts it, in the vectors and one by one) for float32/float64. For a float32
    tanh output (|y| <= 1) ``1 - y*y`` in double, rounded to float, is that fused result:
    checked on every float in [-1, 1] (the double is exact for |y| >= 2^-3, and below that
    never lands on a float midpoint)."""
    dt = result.dtype
    same = grad.dtype == dt
    if same and dt.char == "f" and result.ndim:
        s = result.astype(xp.float64)
        xp.multiply(s, s, out=s)
        xp.subtract(_ONE64, s, out=s)
        return xp.multiply(grad, s.astype(xp.float32))
    if same and dt.char == "e":
        # (float16: computed in float32, as torch's reduced-type kernel, rounded once)
        f32 = xp.float32
        return _tanh_grad_raw(grad.astype(f32), result.astype(f32)).astype(xp.float16)
    one = dt.type(1)
    if same and dt.char in "fd":
        return xp.multiply(grad, _exact.fma(-result, result, xp.full(result.shape, one)))
    return xp.multiply(grad, xp.subtract(one, xp.multiply(result, result)))


_ONE64 = xp.array(1.0)     # (a 0-d array: NumPy takes it faster than a scalar)


@op("TanhBackwardBackward0", name="tanh_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "output"),
    grad_output=lambda grad, output: tanh_backward(grad, output),
    output=lambda grad, output, grad_output: grad * (-2 * output * grad_output))
def tanh_backward(grad_output, output):
    """``tanh_backward(grad_output, output)``: tanh's gradient as its own node, so that a
    second derivative sees torch's ``TanhBackwardBackward0``."""
    return _tanh_grad_raw(grad_output, output)


@op("TanhBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: tanh_backward(grad, result), raw={"self": _tanh_grad_raw})
@_vml.first("Tanh")
def tanh(self):
    """Hyperbolic tangent."""
    return xp.tanh(self)


@op("AsinhBackward0", promote=FLOAT, reduced_in_float=False,
    self=lambda grad, self: grad * (self.pow(2) + 1).rsqrt())
def asinh(self):
    """Inverse hyperbolic sine."""
    return _glibc_map(self, "asinh", xp.arcsinh)


def _glibc_map(a, name, fallback):
    """``name`` of glibc one by one on float32/float64 (``asinhf``/``asinh``), as torch's
    ``map(std::name)`` computes it (NumPy's SIMD loops round otherwise)."""
    if a.dtype == xp.float32 or a.dtype == xp.float64:
        from . import _libm
        return (_libm.c_float(name + "f") if a.dtype == xp.float32 else
                _libm.double_fn(name))(a)
    with xp.errstate(invalid="ignore", divide="ignore"):
        return fallback(a)


@op("AcoshBackward0", promote=FLOAT, reduced_in_float=False,
    self=lambda grad, self: grad * (self.pow(2) - 1).rsqrt())
def acosh(self):
    """Inverse hyperbolic cosine (NaN below 1)."""
    return _glibc_map(self, "acosh", xp.arccosh)


@op("AtanhBackward0", promote=FLOAT, reduced_in_float=False,
    self=lambda grad, self: grad / (1 - self.pow(2)))
def atanh(self):
    """Inverse hyperbolic tangent (NaN outside ``[-1, 1]``)."""
    return _atanh(self)


def _atanh(a):
    out = _sleef_ext.unary("atanh", a)     # torch's Sleef vectors, glibc one by one
    if out is not None:
        return out
    with xp.errstate(divide="ignore", invalid="ignore"):
        return xp.arctanh(a)


def _no_derivative(what):
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")
    return formula


def _inverse_hyperbolic_inplace():
    """torch records the in-place inverse hyperbolics as ``AsinhBackward1`` …, nodes whose
    backward raises (torch has no derivative for them)."""
    for name in ("asinh", "acosh", "atanh"):
        forward = OPS[name]
        node = forward.node_name[:-1] + "1"

        def kernel(self, _fn=forward.kernel):     # (the values of the forward's kernel)
            with xp.errstate(divide="ignore", invalid="ignore"):
                return _fn(self)
        kernel.__name__ = name + "_inplace"

        entry = op(node, promote=FLOAT, method=False, function=False,
                   self=_no_derivative(f"inplace version of {name}"))(kernel)

        def method(self, _entry=entry):
            return _run_inplace(_entry, (self,))
        method.__name__ = name + "_"
        method.__doc__ = f"In-place version of :meth:`Tensor.{name}`."
        expose(method, function=False)


_inverse_hyperbolic_inplace()


_DEG2RAD_CHECK = _real_only(message="deg2rad is not supported for complex tensors.",
                              error=RuntimeError)


@op("Deg2RadBackward0", promote=FLOAT, inplace=True,
    check=_DEG2RAD_CHECK, overlap=overlap_after(_DEG2RAD_CHECK),
    self=lambda grad: grad * (math.pi / 180))
def deg2rad(self):
    """Degrees to radians."""
    if self.dtype.kind == "c":
        raise RuntimeError("deg2rad is not supported for complex tensors.")
    return xp.multiply(self, self.dtype.type(math.pi / 180))


_RAD2DEG_CHECK = _real_only(message="rad2deg is not supported for complex tensors.",
                              error=RuntimeError)


@op("Rad2DegBackward0", promote=FLOAT, inplace=True,
    check=_RAD2DEG_CHECK, overlap=overlap_after(_RAD2DEG_CHECK),
    self=lambda grad: grad * (180 / math.pi))
def rad2deg(self):
    """Radians to degrees."""
    if self.dtype.kind == "c":
        raise RuntimeError("rad2deg is not supported for complex tensors.")
    return xp.multiply(self, self.dtype.type(180 / math.pi))


# ----------------------------------------------------------------------------- sigmoid, logit

def _sigmoid_grad_raw(grad, result):
    """``sigmoid_backward``'s kernel: ``grad * (1 - y) * y``, each step rounded to the type
    (float16's too: its vectors compute in float16)."""
    if grad.dtype != result.dtype and result.dtype.kind == "f":
        grad = grad.astype(result.dtype)
    return xp.multiply(xp.multiply(grad, xp.subtract(result.dtype.type(1), result)), result)


@op("SigmoidBackwardBackward0", name="sigmoid_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "output"),
    grad_output=lambda grad, output: sigmoid_backward(grad, output),
    output=lambda grad, output, grad_output: grad * grad_output * (-2 * output + 1))
def sigmoid_backward(grad_output, output):
    """``sigmoid_backward(grad_output, output)``: sigmoid's gradient as its own node, so
    that a second derivative sees torch's ``SigmoidBackwardBackward0``."""
    return _sigmoid_grad_raw(grad_output, output)


@op("SigmoidBackward0", promote=FLOAT, inplace=True,
    self=lambda grad, result: sigmoid_backward(grad, result),
    raw={"self": _sigmoid_grad_raw})
def sigmoid(self):
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""
    if self.dtype == xp.float32:
        return _sleef.sigmoid(self)
    if self.dtype == xp.float64:
        return _sleef_d.sigmoid(self)
    if self.dtype == xp.float16:        # torch's reduced-type loop: float32, rounded once
        return _sleef.sigmoid(self.astype(xp.float32)).astype(xp.float16)
    if self.dtype.kind == "c" and xp.__name__ == "numpy":
        return _complex_sigmoid(self)
    if self.dtype.kind == "c":
        with xp.errstate(all="ignore"):
            return 1 / (1 + xp.exp(-self))
    with xp.errstate(over="ignore"):
        out = xp.exp(-xp.abs(self))
        return xp.where(self >= 0, 1 / (1 + out), out / (1 + out)).astype(out.dtype)


def _complex_sigmoid(z):
    """torch's complex sigmoid loop: ``1 / (1 + exp(-z))`` with glibc's ``cexp`` and c10's
    division (its vectors map both over the elements), the vectors negating as ``0 - z``
    (a zero part turns +0), the scalar tail as ``-z``."""
    from . import _fused
    neg = -z
    vec = ~_sleef._scalar_mask(z)
    if vec.any():
        zero = xp.zeros((), z.dtype)
        neg[vec] = zero - z[vec]
    den = _libm.c_complex("cexp", neg)
    den.real += den.real.dtype.type(1)
    den.imag += den.real.dtype.type(0)
    return _fused.complex_quotient(z.dtype.type(1), den)


def _logit_back(grad, self, eps):
    """torch's infinitely_differentiable_logit_backward."""
    lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
    inside = (self >= lo).logical_and(self <= hi)
    return (grad / (self * (1.0 - self))).where(inside, float("nan") if eps is None else 0.0)


@op("LogitBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    self=_logit_back,
    check=_real_only("logit_cpu"))
def logit(self, eps=None):
    """``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped to ``[eps, 1 - eps]``.

    >>> ember.logit(ember.tensor([0.5, 0.75]))
    tensor([0.0000, 1.0986])
    """
    _not_for(self, "logit_cpu", "c")
    dt = self.dtype
    t = dt.type
    x = self
    if eps is not None and eps >= 0:
        x = xp.clip(self, t(eps), t(1) - t(eps)).astype(dt)
    with xp.errstate(divide="ignore", invalid="ignore"):
        if dt.itemsize == 2 and dt.kind == "V":
            # (bfloat16: each step rounded to the type, the log of float)
            return xp.log((x / (t(1) - x)).astype(xp.float32)).astype(dt)
        q = x / (1 - x)
        if dt.itemsize == 2 or _mf._dense(self):
            return _vml.log(q)          # LogitMKLKernel: MKL's log of a contiguous iterator
        # else cpu_kernel_vec: Vectorized's log (Sleef's), std::log on each row's tail
        return _sleef.elementwise(q, _sleef.logf if dt == xp.float32 else _sleef_d.logd,
                                  lambda v: _libm.libm("log", v), layout=self)


# ----------------------------------------------------------------------------- erf family

_ERX = 8.45062911510467529297e-01
_EFX = 1.28379167095512586316e-01
# erf on [0, 0.84375)
_PP = (1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
       -5.77027029648944159157e-03, -2.37630166566501626084e-05)
_QQ = (1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02,
       5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06)
# erf on [0.84375, 1.25)
_PA = (-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
       3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
       -2.16637559486879084300e-03)
_QA = (1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01,
       7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02,
       1.19844998467991074170e-02)
# erfc on [1.25, 1/0.35)
_RA = (-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
       -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
       -8.12874355063065934246e+01, -9.81432934416914548592e+00)
_SA = (1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02,
       4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02,
       1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02)
# erfc on [1/0.35, 28)
_RB = (-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
       -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
       -4.83519191608651397019e+02)
_SB = (1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02,
       1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03,
       4.74528541206955367215e+02, -2.24409524465858183362e+01)


def _poly(coefs, z):
    """Horner's rule: ``coefs[0] + coefs[1] z + …``."""
    acc = coefs[-1]
    for c in coefs[-2::-1]:
        acc = acc * z + c
    return acc


def _erfc_tail(ax):
    """``erfc(|x|)`` for ``1.25 <= |x| < 28``: exp(-x²) times a rational correction."""
    s = 1.0 / (ax * ax)
    near = ax < 1 / 0.35
    rs = xp.where(near, _poly(_RA, s) / _poly(_SA, s), _poly(_RB, s) / _poly(_SB, s))
    z = (ax.view(xp.uint64) & xp.uint64(0xFFFFFFFF00000000)).view(xp.float64)
    return xp.exp(-z * z - 0.5625) * xp.exp((z - ax) * (z + ax) + rs) / ax


def _erf_parts(x):
    """The three ranges of fdlibm's erf/erfc, as masks and per-range values (float64)."""
    ax = xp.abs(x)
    small = ax < 0.84375
    mid = (ax >= 0.84375) & (ax < 1.25)
    tail = (ax >= 1.25) & (ax < 28)
    return ax, small, mid, tail


def _erf64(x):
    x = xp.asarray(x, xp.float64)
    with xp.errstate(all="ignore"):
        ax, small, mid, tail = _erf_parts(x)
        out = xp.where(xp.isnan(x), x, xp.sign(x))          # |x| >= 28 (and inf): ±1
        if small.any():
            xs = x[small]
            z = xs * xs
            out[small] = xs + xs * (_poly(_PP, z) / _poly(_QQ, z))
        if mid.any():
            s = ax[mid] - 1
            out[mid] = xp.copysign(_ERX + _poly(_PA, s) / _poly(_QA, s), x[mid])
        if tail.any():
            r = _erfc_tail(ax[tail])
            out[tail] = xp.copysign(1 - r, x[tail])
    return out


def _erfc64(x):
    x = xp.asarray(x, xp.float64)
    with xp.errstate(all="ignore"):
        ax, small, mid, tail = _erf_parts(x)
        out = xp.where(xp.isnan(x), x, xp.where(x > 0, 0.0, 2.0))   # |x| >= 28
        if small.any():
            xs = x[small]
            z = xs * xs
            y = _poly(_PP, z) / _poly(_QQ, z)
            out[small] = xp.where(xs < 0.25, 1 - (xs + xs * y), 0.5 - (xs - 0.5 + xs * y))
        if mid.any():
            pq = _poly(_PA, ax[mid] - 1) / _poly(_QA, ax[mid] - 1)
            out[mid] = xp.where(x[mid] >= 0, 1 - _ERX - pq, 1 + (_ERX + pq))
        if tail.any():
            r = _erfc_tail(ax[tail])
            out[tail] = xp.where(x[tail] > 0, r, 2 - r)
    return out


def _in_precision(fn, arr):
    """Evaluate a float64 special function and round it to ``arr``'s float dtype."""
    return fn(arr).astype(arr.dtype, copy=False)


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _erfinv64(y):
    """erfinv in float64: Pavlis' rational first guess, then Newton steps on ``erf(x) = |y|``
    in the centre and on ``erfc(x) = 1 - |y|`` (exact there) in the tails, which keeps the
    result within an ulp all the way to ``±1``."""
    y = xp.asarray(y, xp.float64)
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    with xp.errstate(all="ignore"):
        ay = xp.abs(y)
        z = ay * ay
        central = ay * _poly(a, z) / _poly((1.0,) + b, z)
        z = xp.sqrt(-xp.log((1.0 - ay) / 2.0))
        x = xp.where(ay <= 0.7, central, _poly(c, z) / _poly((1.0,) + d, z))
        tail = ay > 0.5
        q = 1.0 - ay
        for _ in range(3):
            slope = _TWO_OVER_SQRT_PI * xp.exp(-x * x)
            x = xp.where(tail, x + (_erfc64(x) - q) / slope, x - (_erf64(x) - ay) / slope)
        x = xp.where(ay == 1.0, xp.inf, x)
        x = xp.where(ay > 1.0, xp.nan, x)
        return xp.where(xp.isnan(y), y, xp.copysign(x, y))


@op("ErfBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    check=_real_only("erf_vml_cpu"),
    self=lambda grad, self: (_TWO_OVER_SQRT_PI * (-self.pow(2)).exp()) * grad)
@_vml.first("Erf")
def erf(self):
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t^2) dt``.

    >>> ember.erf(ember.tensor([0.0, 1.0]))
    tensor([0.0000, 0.8427])
    """
    _not_for(self, "erf_vml_cpu", "c")
    return _in_precision(_erf64, self)


@op("ErfcBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    check=_real_only("erfc_vml_cpu"),
    self=lambda grad, self: (-_TWO_OVER_SQRT_PI * (-self.pow(2)).exp()) * grad)
@_vml.first("Erfc")
def erfc(self):
    """The complementary error function ``1 - erf(x)``, accurate where erf is near 1."""
    _not_for(self, "erfc_vml_cpu", "c")
    return _in_precision(_erfc64, self)


@op("ErfinvBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    check=_real_only("erfinv_vml_cpu"),
    self=lambda grad, result: (0.5 * math.sqrt(math.pi) * result.pow(2).exp()) * grad)
@_vml.first("ErfInv")
def erfinv(self):
    """The inverse error function (``±inf`` at ``±1``, NaN outside ``[-1, 1]``).

    >>> ember.erfinv(ember.tensor([0.0, 0.5]))
    tensor([0.0000, 0.4769])
    """
    _not_for(self, "erfinv_vml_cpu", "c")
    return _in_precision(_erfinv64, self)


# ----------------------------------------------------------------------------- rounding

def _zero_grad(grad):
    return grad * 0


def _rounding(name, ufunc, node, doc):
    def kernel(self):
        if self.dtype.kind in "iu":
            return self.copy()
        if self.dtype.kind == "c" and name != "round":
            raise NotImplementedError(f"{name} is not supported for complex inputs")
        _not_for(self, f"{name}_vml_cpu", "bc")
        return ufunc(self)
    kernel.__name__ = name
    kernel.__doc__ = doc
    refuse = _real_only("round_vml_cpu") if name == "round" else _real_only(
        message=f"{name} is not supported for complex inputs")
    return op(node, inplace=True, self=_zero_grad, check=refuse,
              overlap=None if name == "round" else overlap_after(refuse))(kernel)


floor = _rounding("floor", xp.floor, "FloorBackward0", "Round down to an integer value.")
ceil = _rounding("ceil", xp.ceil, "CeilBackward0", "Round up to an integer value.")
trunc = _rounding("trunc", xp.trunc, "TruncBackward0", "Round towards zero.")
_round0 = _rounding("round", xp.rint, "RoundBackward0", "Round half to even.")


@op("RoundBackward1", name="round_decimals", method=False, function=False, inplace=True,
    self=_zero_grad)
def _round_decimals(self, decimals):
    _not_for(self, "round_cpu", "biuc")
    t = self.dtype.type
    if decimals >= 0:
        p = t(10.0 ** decimals)
        return xp.rint(self * p) / p
    p = t(10.0 ** -decimals)
    return xp.rint(self / p) * p


@expose
def round(input, *, decimals=None, out=None):
    """Round half to even; ``decimals`` digits after the point (negative: before it).

    >>> ember.round(ember.tensor([1.5, 2.5, 0.125]), decimals=2)
    tensor([1.5000, 2.5000, 0.1200])
    """
    if decimals is None:
        return _run(_round0, (input,), out)
    return _run(_round_decimals, (input, decimals), out)


def _round_(self, *, decimals=None):
    """In-place version of :meth:`Tensor.round`."""
    from .registry import run_inplace
    if decimals is None:
        return run_inplace(_round0, (self,))
    return run_inplace(_round_decimals, (self, decimals))


_round_.__name__ = "round_"
expose(_round_, function=False)


@op("FracBackward0", inplace=True, self=lambda grad: grad, check=_real_only("frac_cpu"))
def frac(self):
    """The fractional part ``x - trunc(x)`` (sign of ``x``)."""
    _not_for(self, "frac_cpu", "biuc")
    with xp.errstate(invalid="ignore"):
        return self - xp.trunc(self)


# ----------------------------------------------------------------------------- predicates

def _predicate(name, fn, doc):
    def kernel(self):
        if self.dtype.kind in "fc":
            return fn(self)
        return xp.zeros(self.shape, xp.bool_) if name != "isfinite" else \
            xp.ones(self.shape, xp.bool_)
    kernel.__name__ = name
    kernel.__doc__ = doc
    signed = name in ("isposinf", "isneginf")       # (no complex inputs; an out= given)
    entry = op(None, promote=NONE, tensors=("self",), function=False, pointwise=True,
               check=_real_only(message=f"{name} does not support complex inputs.",
                                error=RuntimeError) if signed else None)(kernel)

    if signed:
        def function(input, *, out=None):
            return _run(entry, (input,), out)
    else:
        def function(input):
            return _run(entry, (input,))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return expose(function, method=False)


isnan = _predicate("isnan", xp.isnan, "True where the element is NaN.")
isinf = _predicate("isinf", xp.isinf, "True where the element is ±inf.")
isfinite = _predicate("isfinite", xp.isfinite, "True where the element is neither inf nor NaN.")
isposinf = _predicate("isposinf", xp.isposinf, "True where the element is +inf.")
isneginf = _predicate("isneginf", xp.isneginf, "True where the element is -inf.")


def _nan_to_num_real(a, nan, posinf, neginf):
    info = xp.finfo(a.dtype)
    t = a.dtype.type
    with xp.errstate(over="ignore"):
        out = xp.where(xp.isnan(a), t(nan), a)
        out = xp.where(xp.isposinf(a), t(info.max if posinf is None else posinf), out)
        return xp.where(xp.isneginf(a), t(info.min if neginf is None else neginf), out)


def _nan_to_num_check(self, *args):
    """torch records no complex nan_to_num: it refuses one that would need a graph."""
    from ..autograd import grad_mode
    if self.dtype.is_complex and self.requires_grad and grad_mode._state.enabled:
        raise RuntimeError("nan_to_num does not support automatic differentiation for outputs "
                           "with complex dtype.")


def _nan_to_num_overlap(self, *args):
    """nan_to_num_ of an integral tensor is its copy_ onto itself, which returns at once: an
    expanded one is no error."""
    if self.dtype.is_floating_point or self.dtype.is_complex:
        from .._errors import INTERNAL_OVERLAP
        raise RuntimeError(INTERNAL_OVERLAP)


@op("NanToNumBackward0", promote=NONE, inplace=True, pointwise=True,
    check=_nan_to_num_check, overlap=_nan_to_num_overlap,
    self=lambda grad, self: grad * self.isfinite())
def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """NaN to ``nan``, ±inf to ``posinf``/``neginf`` (default: the dtype's extremes); a complex
    tensor's real and imaginary parts each on their own, as torch.

    >>> ember.nan_to_num(ember.tensor([float('nan'), 1.0]))
    tensor([0., 1.])
    """
    if self.dtype.kind not in "fc" and self.dtype.char != "E":     # (bfloat16: kind "V")
        return self.copy()
    if self.dtype.kind == "c":
        out = xp.empty(self.shape, self.dtype)
        out.real = _nan_to_num_real(self.real, nan, posinf, neginf)
        out.imag = _nan_to_num_real(self.imag, nan, posinf, neginf)
        return out
    return _nan_to_num_real(self, nan, posinf, neginf)


def _install_aliases():
    """torch's alternative names: ``arcsin`` for ``asin``, ``fix`` for ``trunc`` …"""
    from .._tensor import Tensor
    from .registry import FUNCTIONS
    for alias, name in (("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"),
                        ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh"),
                        ("fix", "trunc"), ("absolute", "abs")):
        FUNCTIONS[alias] = FUNCTIONS[name]
        setattr(Tensor, alias, getattr(Tensor, name))
        setattr(Tensor, alias + "_", getattr(Tensor, name + "_"))


def _abs_(input):
    """In-place version of :meth:`Tensor.abs` (torch refuses a complex tensor: its absolute
    value is real)."""
    if input.dtype.is_complex:
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    return _run_inplace(abs, (input,))


_abs_.__name__ = "abs_"
expose(_abs_)


_install_aliases()
