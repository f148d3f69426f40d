"""torch's CPU kernels of ``elu`` (``selu``, ``celu``), ``softplus`` and ``mish``, forward and
backward, rounded as torch rounds them.

Each is a ``cpu_kernel_vec``: Sleef's vector functions (``Vectorized::exp``, ``log1p``,
``expm1``, ``tanh``) where torch runs vectors, the C library's one by one
(``_sleef.elementwise`` decides which elements are which). The coefficients are computed in
the tensor's dtype, as ATen's ``Scalar::to<scalar_t>()`` products are. The backward kernels
run vectors only where the gradient and the input share one dense layout; elsewhere they
return None and the ember formula runs.
"""

from __future__ import annotations

import numpy as np

from .. import _lazy
from . import _exact, _libm

# (on first use)
_sleef = _lazy.defer(globals(), "_sleef", "ember._ops._sleef")
_sleef_d = _lazy.defer(globals(), "_sleef_d", "ember._ops._sleef_d")
_sleef_ext = _lazy.defer(globals(), "_sleef_ext", "ember._ops._sleef_ext")
del _lazy


_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)


class _Math:
    """One dtype's vector (``*_v``) and one-by-one (``*_s``) functions."""

    def __init__(self, dtype):
        if dtype == _f32:
            libm = _libm.float_fn
            self.exp_v, self.exp_s = _sleef.expf, _sleef.expf_scalar
            self.log1p_v, self.log1p_s = _sleef_ext.log1pf, libm("log1p")
            self.expm1_v, self.expm1_s = _sleef_ext.expm1f, libm("expm1")
            self.tanh_v, self.tanh_s = _sleef_ext.tanhf, libm("tanh")
        else:
            self.exp_v, self.exp_s = _sleef_d.expd, _sleef_d.exp_scalar
            self.log1p_v, self.log1p_s = _sleef_ext.log1pd, _libm.double_fn("log1p")
            self.expm1_v, self.expm1_s = _sleef_ext.expm1d, _libm.double_fn("expm1")
            self.tanh_v, self.tanh_s = _sleef_ext.tanhd, _libm.double_fn("tanh")


_MATH: dict = {}


def _math(dtype):
    if dtype not in (_f32, _f64):
        return None
    m = _MATH.get(dtype)
    if m is None:
        m = _MATH[dtype] = _Math(dtype)
    return m


def _binary(grad, x, m, vec, one, grain=_exact.GRAIN, like=None):
    """A two-input ``cpu_kernel_vec`` (``grad``, ``x``) of one shape: vectors and one by one
    where torch's loop runs them (:func:`_sleef.binary_mask`; of the arrays ``like``, where
    float16 inputs are computed as float32 ones)."""
    if grad.shape != x.shape or grad.dtype != x.dtype:
        return None
    with np.errstate(all="ignore"):
        if not x.ndim:
            return np.asarray(one(grad.reshape(1), x.reshape(1))[0], x.dtype)
        mask = _sleef.binary_mask(*(like or (grad, x)), grain=grain)
        if mask.all():
            return one(grad, x)
        out = vec(grad, x)
        if mask.any():
            out[mask] = one(grad[mask], x[mask])
        return out


# ----------------------------------------------------------------------------- elu

def _elu_coefs(dtype, alpha, scale, input_scale):
    t = dtype.type
    return t(alpha) * t(scale), t(scale), t(input_scale)


def elu(x, alpha, scale, input_scale):
    """``elu_kernel`` (ATen's Elu.h): ``expm1(x * input_scale) * alpha * scale`` below 0."""
    m = _math(x.dtype)
    if m is None:
        return None
    neg, pos, ipt = _elu_coefs(x.dtype, alpha, scale, input_scale)
    with np.errstate(all="ignore"):
        return _sleef.elementwise(
            x, lambda a: np.where(a >= 0, a * pos, m.expm1_v(a * ipt) * neg),
            lambda a: np.where(a < 0, m.expm1_s(a * ipt) * neg, a * pos))


def elu_backward(grad, self, alpha, scale, input_scale):
    """``elu_backward_kernel`` on the input (``is_result=False``); float16 in float (the
    coefficients floats), rounded once, its vectors of float16 elements."""
    x = self
    like = None
    if x.dtype.char == "e" and grad.dtype == x.dtype:
        like = (grad, x)
        grad, x = grad.astype(_f32), x.astype(_f32)
    m = _math(x.dtype)
    if m is None:
        return None
    neg, pos, ipt = _elu_coefs(x.dtype, alpha, scale, input_scale)
    out = _binary(
        grad, x, m,
        lambda a, b: np.where(b > 0, a * pos, a * ipt * neg * m.exp_v(b * ipt)),
        lambda a, b: np.where(b <= 0, a * ipt * neg * m.exp_s(b * ipt), a * pos), like=like)
    return out if like is None or out is None else out.astype(like[1].dtype)


# ----------------------------------------------------------------------------- softplus

def softplus(x, beta, threshold):
    """``softplus_kernel``: ``log1p(exp(x * beta)) / beta``, ``x`` above the threshold."""
    m = _math(x.dtype)
    if m is None:
        return None
    t = x.dtype.type
    b, th = t(beta), t(threshold)

    def f(exp, log1p):
        return lambda a: np.where(a * b > th, a, log1p(exp(a * b)) / b)
    with np.errstate(all="ignore"):
        return _sleef.elementwise(x, f(m.exp_v, m.log1p_v), f(m.exp_s, m.log1p_s))


def softplus_backward(grad, self, beta, threshold):
    """``softplus_backward_kernel``: ``grad * z / (z + 1)`` with ``z = exp(x * beta)``."""
    x = self
    m = _math(x.dtype)
    if m is None:
        return None
    t = x.dtype.type
    b, th, one = t(beta), t(threshold), t(1)

    def f(exp):
        def g(a, x):
            z = exp(x * b)
            return np.where(x * b > th, a, a * z / (z + one))
        return g
    return _binary(grad, x, m, f(m.exp_v), f(m.exp_s))


# ----------------------------------------------------------------------------- mish

def mish(x):
    """``mish_kernel``: ``x * tanh(log1p(exp(x)))``."""
    m = _math(x.dtype)
    if m is None:
        return None
    with np.errstate(all="ignore"):
        return _sleef.elementwise(x, lambda a: a * m.tanh_v(m.log1p_v(m.exp_v(a))),
                                  lambda a: a * m.tanh_s(m.log1p_s(m.exp_s(a))))


def mish_backward(grad, self):
    """``mish_backward_kernel``: ``dy * (t + x * sigmoid(x) * (1 - t * t))``, ``t`` the
    tanh of softplus, with its two multiply-adds fused (the compiler contracts them)."""
    x = self
    m = _math(x.dtype)
    if m is None:
        return None
    one = x.dtype.type(1)

    def f(exp, log1p, tanh):
        def g(dy, a):
            sig = one / (one + exp(-a))
            ts = tanh(log1p(exp(a)))
            ones = np.full(a.shape, one)
            return dy * _exact.fma(a * sig, _exact.fma(-ts, ts, ones), ts)
        return g
    return _binary(grad, x, m, f(m.exp_v, m.log1p_v, m.tanh_v),
                   f(m.exp_s, m.log1p_s, m.tanh_s))


# ----------------------------------------------------------------------------- gelu

_GELU_BETA = 1.41421356237309504880 * 1.12837916709551257390 * 0.5   # M_SQRT2*M_2_SQRTPI/2
_GELU_PDF = 1.12837916709551257390 * 0.70710678118654752440 * 0.5    # M_2_SQRTPI*M_SQRT1_2/2
_SQRT1_2 = 0.70710678118654752440


def gelu_backward(grad, self, approximate):
    """``GeluBackwardKernelImpl``, with the multiply-adds the compiler contracts fused.
    float32's erf form on a C-contiguous input of two or more elements goes to oneDNN's
    kernel instead (:func:`_gelu_erf_onednn_backward`)."""
    x = self
    m = _math(x.dtype)
    if m is None:
        return None
    if approximate != "tanh" and x.dtype == _f32 and x.flags.c_contiguous and x.size > 1:
        return _gelu_erf_onednn_backward(grad, x)
    t = x.dtype.type
    one, half = t(1), t(0.5)
    if approximate == "tanh":
        beta, kappa = t(_GELU_BETA), t(0.044715)
        three_kappa = t(3) * kappa

        def tanh_form(tanh, fused):
            def g(dy, a):
                ones = np.full(a.shape, one)
                x_sq = a * a
                cube = x_sq * a
                if fused:
                    inner = beta * _exact.fma(np.full(a.shape, kappa), cube, a)
                    th = tanh(inner)
                    dtanh = _exact.fma(-th, th, ones)
                    dinner = beta * _exact.fma(np.full(a.shape, three_kappa), x_sq, ones)
                else:
                    th = tanh(beta * (a + kappa * cube))
                    dtanh = one - th * th
                    dinner = beta * (one + three_kappa * x_sq)
                return dy * (half * (one + th) + half * a * dtanh * dinner)
            return g
        return _binary(grad, x, m, tanh_form(m.tanh_v, True), tanh_form(m.tanh_s, True),
                       _sleef.gelu_grain(x.size))
    alpha, pdf_k, minus_half = t(_SQRT1_2), t(_GELU_PDF), t(-0.5)

    def erf_form(erf, exp, fused):
        def g(dy, a):
            cdf = half * (one + erf(a * alpha))
            pdf = pdf_k * exp(a * a * minus_half)
            return dy * (_exact.fma(a, pdf, cdf) if fused else cdf + a * pdf)
        return g
    if x.dtype == _f32:
        return _binary(grad, x, m, erf_form(lambda v: _sleef.erf_vec(v, _sleef.expf), m.exp_v,
                                            True),
                       erf_form(_libm.c_float("erff"), m.exp_s, False), _sleef.gelu_grain(x.size))
    return _binary(grad, x, m, erf_form(_sleef_ext.erfd, m.exp_v, True),
                   erf_form(_libm.double_fn("erf"), m.exp_s, False), _sleef.gelu_grain(x.size))


_ONE_OVER_SQRT_PI = np.uint32(0x3f106eba).view(np.float32)   # oneDNN's table entry


def _gelu_erf_onednn_backward(grad, x):
    """oneDNN's ``gelu_erf`` backward (``gelu_erf_compute_vector_bwd``) step by step, then
    times the gradient (the eltwise kernel's one ``vmulps``): ``R = x * 0x3f3504f3``,
    ``Q = exp(-(R * R))``, ``T = (R * 0x3f106eba) * Q``, ``W = 1 / fma(p, |R|, 1)``, the
    Abramowitz and Stegun polynomial in ``W`` by fma, ``erf = fma(-Q * W, poly, 1)`` with
    R's sign put on, and ``fma(erf, 0.5, T + 0.5)``. Its 1/sqrt(pi) is 0x3f106eba, one ulp
    below the nearest float (0x3f106ebb). Its exp (``exp_compute_vector_fwd``) takes
    ``fx = floor(x * log2e + 0.5)`` unfused where ``exp_u20`` fuses it; for the arguments
    ``-(R * R)`` this meets, the floors agree (checked over every float ``x`` of
    [0.5, 14); below, ``fx`` is 0; above, the argument is clamped), so the two give the
    same bits. Bit for bit with torch 2.13 (measured on an AVX2 machine; the injector's
    backward has no branch of its own for AVX-512)."""
    if grad.shape != x.shape or grad.dtype != x.dtype:
        return None
    f, fma = np.float32, _exact.fma
    one, half = f(1), f(0.5)

    def full(v):
        return np.full(x.shape, f(v))
    with np.errstate(all="ignore"):
        r = x * f(_SQRT1_2)
        q = _sleef.exp_u20(-(r * r))
        w = one / fma(full(0.3275911), np.abs(r), full(1))
        poly = fma(full(1.061405429), w, full(-1.453152027))
        for c in (1.421413741, -0.284496736, 0.254829592):
            poly = fma(poly, w, full(c))
        erf = fma(-q * w, poly, full(1))
        erf = np.where(np.signbit(r), -erf, erf)
        t = (r * _ONE_OVER_SQRT_PI) * q
        return grad * fma(erf, full(0.5), t + half)
