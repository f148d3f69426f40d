"""The functions only ``torch.special`` holds: ``entr``, ``ndtr``, ``ndtri``, ``log_ndtr``,
``xlog1py`` and ``zeta``, with torch's nodes and derivatives.yaml's formulas, and the
orthogonal polynomials and Bessel functions, which have no gradient in torch. (The rest of
``torch.special`` is the top-level functions under their special names: ``ember.special``.)
"""

from __future__ import annotations

import math

from .. import _dtype as _D
from .. import _lazy
from .._device import xp
from .._errors import ArgTypeError, type_name
from . import _libm
from .pointwise import _masked_where_nonpositive, x_times_log
from .registry import FLOAT, _scalar_name, op, run
from .special import _zeta_cephes, i0
from .unary import erf

_cephes = _lazy.defer(globals(), "_cephes", "ember._ops._cephes")    # (on first use)
del _lazy

_SQRT1_2 = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2 * math.pi)
_TWO_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _entr_kernel(x):
    with xp.errstate(all="ignore"):
        pos = xp.where(x > 0, x, 1)
        lg = _libm.libm("log", pos) if x.dtype in (xp.float32, xp.float64) else xp.log(pos)
        out = xp.where(x > 0, -x * lg, xp.where(x == 0, 0, -xp.inf))
    return xp.where(xp.isnan(x), x, out).astype(x.dtype)


@op("SpecialEntrBackward0", name="special_entr", method=False, function=False, promote=FLOAT,
    self=lambda grad, self: grad * -(1 + self.log()))
def entr(self):
    """``-x log x`` (0 at 0, ``-inf`` for negative ``x``)."""
    if self.dtype.kind == "c":
        raise NotImplementedError("\"entr_cpu\" not implemented for "
                                  f"'{_D._BY_NP[self.dtype].scalar_name}'")
    return _entr_kernel(self)


def ndtr(input):
    """The standard normal CDF, ``(1 + erf(x / sqrt(2))) / 2`` (torch's composition)."""
    from .nn import mul_scalar
    as_float = input.dtype.is_floating_point or input.dtype.is_complex   # (complex: erf refuses)
    return mul_scalar(1 + erf(mul_scalar(input if as_float else input.float(), _SQRT1_2)), 0.5)


def _floats_only(kernel, reduced=False):
    """torch's NotImplementedError for complex inputs (and half/bfloat16 where the kernel
    has no reduced-precision loop); integers and bools promote to float32."""
    def check(self):
        dt = self.dtype
        if dt.is_complex or (not reduced and dt.is_floating_point and dt.itemsize == 2):
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{dt.scalar_name}'")
    return check


def _cephes_kernel(fn, self):
    """A ``Math.h`` kernel on float32/float64 (half and bfloat16 arrive as float32)."""
    if self.dtype not in (xp.float32, xp.float64):
        return fn(self.astype(xp.float64)).astype(self.dtype)
    return fn(self)


@op("SpecialNdtriBackward0", name="special_ndtri", method=False, function=False,
    check=_floats_only("ndtri_cpu"),
    promote=FLOAT, self=lambda grad, result: grad * _SQRT_2PI * (result.pow(2) / 2).exp())
def ndtri(self):
    """The inverse of the standard normal CDF (Cephes' ``ndtri``, as torch computes it)."""
    return _cephes_kernel(_cephes.ndtri, self)


@op("SpecialLogNdtrBackward0", name="special_log_ndtr", method=False, function=False,
    check=_floats_only("log_ndtr_cpu"),
    promote=FLOAT,
    self=lambda grad, self, result: grad / _SQRT_2PI * (-(result + self.pow(2) / 2)).exp())
def log_ndtr(self):
    """The log of the standard normal CDF, accurate far into the left tail (erfcx there)."""
    return _cephes_kernel(_cephes.log_ndtr, self)


@op("SpecialErfcxBackward0", name="special_erfcx", method=False, function=False,
    check=_floats_only("erfcx_cpu"),
    promote=FLOAT, self=lambda grad, self, result: (2.0 * self * result - _TWO_SQRT_PI) * grad)
def erfcx(self):
    """The scaled complementary error function ``exp(x^2) erfc(x)``."""
    return _cephes_kernel(_cephes.erfcx, self)


@op("SpecialI0EBackward0", name="special_i0e", method=False, function=False,
    check=_floats_only("i0e_cpu", True), promote=FLOAT,
    self=lambda grad, self, result: grad * (i1e(self) - self.sgn() * result))
def i0e(self):
    """``exp(-|x|) i0(x)``."""
    return _cephes_kernel(_cephes.i0e, self)


def _divided_by_x_grad(lead, shift):
    """``i1_backward``/``i1e_backward``: ``lead(x) - result * shift(x)``, 0.5 where
    ``|x|`` is within epsilon of 0."""
    def formula(grad, self, result):
        from .._factories import full_like
        from .pointwise import where
        eps = float(xp.finfo(self._data.dtype).eps)
        big = self.abs() > eps
        safe = where(big, self, full_like(self, eps))
        slope = lead(safe) - result * shift(safe)
        return grad * where(big, slope, full_like(self, 0.5))
    return formula


@op("SpecialI1Backward0", name="special_i1", method=False, function=False,
    check=_floats_only("i1_cpu", True), promote=FLOAT,
    self=_divided_by_x_grad(lambda x: i0(x), lambda x: x.reciprocal()))
def i1(self):
    """The modified Bessel function of the first kind, order 1."""
    return _cephes_kernel(_cephes.i1, self)


@op("SpecialI1EBackward0", name="special_i1e", method=False, function=False,
    check=_floats_only("i1e_cpu", True), promote=FLOAT,
    self=_divided_by_x_grad(lambda x: i0e(x), lambda x: x.sgn() + x.reciprocal()))
def i1e(self):
    """``exp(-|x|) i1(x)``."""
    return _cephes_kernel(_cephes.i1e, self)


def _xlog1py_kernel(self, other):
    return x_times_log(self, other, "log1p")


def _real_result(kernel, reduced=True):
    """A check: torch's error for ``kernel``, which has loops for the real floating types
    only (not ``reduced``: float and double), by the result type."""
    def check(self, other):
        from .._tensor import Tensor
        if not all(isinstance(a, (Tensor, int, float, bool)) for a in (self, other)):
            return
        dt = _D.result_type(self, other)
        if dt._category < 2:
            dt = _D.get_default_dtype()
        if dt.is_complex or (not reduced and dt.name not in ("float32", "float64")):
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt.scalar_name}'")
    return check


@op("SpecialXlog1PyBackward0", name="special_xlog1py", method=False, function=False,
    promote=FLOAT, tensors=("self", "other"), check=_real_result("xlog1py_cpu"),
    self=lambda grad, self, other: _masked_where_nonpositive(xlog1py(grad, other), self, other,
                                                             -1),
    other=lambda grad, self, other: grad * self / (other + 1))
def xlog1py(self, other):
    """``self * log1p(other)``, 0 where ``self`` is 0."""
    return _xlog1py_kernel(self, other)


def _zeta_kernel(self, other):
    if self.dtype not in (xp.float32, xp.float64):
        raise NotImplementedError(f'"zeta_cpu" not implemented for '
                                  f"'{_scalar_name(_D.from_numpy_dtype(self.dtype))}'")
    return _zeta_cephes(self, other).astype(self.dtype)


def _zeta_other_grad(grad, self, other):
    return grad * -self * zeta(self + 1.0, other)


def _zeta_self_grad(grad):
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@op("SpecialZetaBackward0", name="special_zeta", method=False, function=False, promote=FLOAT,
    tensors=("self", "other"), check=_real_result("zeta_cpu", False), self=_zeta_self_grad,
    other=_zeta_other_grad)
def _zeta_tt(self, other):
    return _zeta_kernel(self, other)


@op("SpecialZetaBackward1", name="special_zeta_scalar_self", method=False, function=False,
    promote=FLOAT, tensors=("self", "other"), check=_real_result("zeta_cpu", False),
    other=_zeta_other_grad)
def _zeta_st(self, other):
    return _zeta_kernel(self, other)


@op("SpecialZetaBackward2", name="special_zeta_scalar_other", method=False, function=False,
    promote=FLOAT, tensors=("self", "other"), check=_real_result("zeta_cpu", False),
    self=_zeta_self_grad)
def _zeta_ts(self, other):
    return _zeta_kernel(self, other)


def zeta(input, other, *, out=None):
    """Hurwitz zeta ``sum_k (k + other) ** -input`` (``other = 1``: Riemann's zeta).

    >>> ember.special.zeta(ember.tensor([2.0]), 1.0)
    tensor([1.6449])
    """
    from .._tensor import Tensor
    a, b = isinstance(input, Tensor), isinstance(other, Tensor)
    if not (a or b):
        raise ArgTypeError(
            f"special_zeta() received an invalid combination of arguments - got "
            f"({type_name(input)}, {type_name(other)}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Number self, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)\n")
    entry = _zeta_tt if a and b else _zeta_ts if a else _zeta_st
    return run(entry, (input, other), out)


def _binary_args(name, input, n):
    from .._tensor import Tensor
    if not (isinstance(input, Tensor) or isinstance(n, Tensor)):
        raise ArgTypeError(
            f"special_{name}() received an invalid combination of arguments - got "
            f"({type_name(input)}, {type_name(n)}), but expected one of:\n"
            " * (Tensor x, Tensor n, *, Tensor out = None)\n"
            " * (Number x, Tensor n, *, Tensor out = None)\n"
            " * (Tensor x, Number n, *, Tensor out = None)\n")


def _polynomial(name, kernel, doc):
    """``torch.special.<name>(x, n)``: ATen's kernel on float/double (no gradient)."""
    @op(None, name=f"special_{name}", method=False, function=False, promote=FLOAT,
        tensors=("self", "n"), check=_real_result(f"{name}_cpu", False))
    def entry(self, n):
        x, n = xp.broadcast_arrays(self, xp.asarray(n, self.dtype))
        return kernel(x.copy(), n)

    def public(x, n, *, out=None):
        _binary_args(name, x, n)
        return run(entry, (x, n), out)
    public.__name__ = public.__qualname__ = name
    public.__doc__ = doc
    return public


def _bessel_fn(name, kernel, doc, x=False):
    """``torch.special.<name>(input)`` (``(x)`` where ``x``, torch's name for the argument
    of its newer functions): ATen's kernel on float/double (no gradient)."""
    @op(None, name=f"special_{name}", method=False, function=False, promote=FLOAT,
        tensors=("self",), check=_floats_only(f"{name}_cpu"))
    def entry(self):
        return _cephes_kernel(kernel, self)

    def public(input, *, out=None):
        return run(entry, (input,), out)

    def public_x(x, *, out=None):
        return run(entry, (x,), out)
    public = public_x if x else public
    public.__name__ = public.__qualname__ = name
    public.__doc__ = doc
    return public


def _chebyshev(kind, shifted):
    return lambda x, n: _cephes.chebyshev(x, n, kind, shifted)


for _kind in "tuvw":
    for _shifted in (False, True):
        _name = f"{'shifted_' * _shifted}chebyshev_polynomial_{_kind}"
        globals()[_name] = _polynomial(
            _name, _chebyshev(_kind, _shifted),
            f"The {'shifted ' * _shifted}Chebyshev polynomial of the "
            f"{dict(t='first', u='second', v='third', w='fourth')[_kind]} kind of degree "
            f"``n``{' at 2x - 1' * _shifted}.")
hermite_polynomial_h = _polynomial("hermite_polynomial_h", lambda x, n: _cephes.hermite_h(x, n),
                                   "The physicists' Hermite polynomial of degree ``n``.")
hermite_polynomial_he = _polynomial("hermite_polynomial_he",
                                    lambda x, n: _cephes.hermite_he(x, n),
                                    "The probabilists' Hermite polynomial of degree ``n``.")
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l", lambda x, n: _cephes.laguerre_l(x, n),
                                    "The Laguerre polynomial of degree ``n``.")
legendre_polynomial_p = _polynomial("legendre_polynomial_p", lambda x, n: _cephes.legendre_p(x, n),
                                    "The Legendre polynomial of degree ``n``.")
bessel_j0 = _bessel_fn("bessel_j0", lambda x: _cephes.bessel_j0(x),
                       "The Bessel function of the first kind, order 0.")
bessel_j1 = _bessel_fn("bessel_j1", lambda x: _cephes.bessel_j1(x),
                       "The Bessel function of the first kind, order 1.")
bessel_y0 = _bessel_fn("bessel_y0", lambda x: _cephes.bessel_y0(x),
                       "The Bessel function of the second kind, order 0.")
bessel_y1 = _bessel_fn("bessel_y1", lambda x: _cephes.bessel_y1(x),
                       "The Bessel function of the second kind, order 1.")
modified_bessel_i0 = _bessel_fn("modified_bessel_i0", lambda x: _cephes.i0(x),
                                "The modified Bessel function of the first kind, order 0.")
modified_bessel_i1 = _bessel_fn("modified_bessel_i1", lambda x: _cephes.modified_bessel_i1(x),
                                "The modified Bessel function of the first kind, order 1.")
modified_bessel_k0 = _bessel_fn("modified_bessel_k0",
                                lambda x: _cephes.modified_bessel_k(x, 0, False),
                                "The modified Bessel function of the second kind, order 0.")
modified_bessel_k1 = _bessel_fn("modified_bessel_k1",
                                lambda x: _cephes.modified_bessel_k(x, 1, False),
                                "The modified Bessel function of the second kind, order 1.")
scaled_modified_bessel_k0 = _bessel_fn(
    "scaled_modified_bessel_k0", lambda x: _cephes.modified_bessel_k(x, 0, True),
    "``exp(x)`` times the modified Bessel function of the second kind, order 0.", x=True)
scaled_modified_bessel_k1 = _bessel_fn(
    "scaled_modified_bessel_k1", lambda x: _cephes.modified_bessel_k(x, 1, True),
    "``exp(x)`` times the modified Bessel function of the second kind, order 1.", x=True)
airy_ai = _bessel_fn("airy_ai", lambda x: _cephes.airy_ai(x), "The Airy function Ai.", x=True)
spherical_bessel_j0 = _bessel_fn(
    "spherical_bessel_j0", lambda x: _cephes.spherical_bessel_j0(x),
    "The spherical Bessel function of the first kind, order 0.", x=True)
del _kind, _shifted, _name

_POLYNOMIALS = [f"{s}chebyshev_polynomial_{k}" for k in "tuvw" for s in ("", "shifted_")] + [
    "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
    "legendre_polynomial_p", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "airy_ai", "spherical_bessel_j0"]

__all__ = ["entr", "ndtr", "ndtri", "log_ndtr", "xlog1py", "erfcx", "i0", "i0e", "i1", "i1e",
           "zeta", *_POLYNOMIALS]
