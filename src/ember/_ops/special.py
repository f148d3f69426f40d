"""Gamma-function family: ``lgamma``, ``digamma``, ``polygamma``, ``mvlgamma`` and the
regularized incomplete gamma functions ``igamma``/``igammac`` (``_igamma.py``).

NumPy has none of them. ``lgamma`` maps C's ``lgamma`` (Python's :func:`math.lgamma`, the
same libm torch calls) over the finite, non-pole elements; ``digamma``, the trigamma function
and the Hurwitz zeta behind ``polygamma(n >= 2)`` are vectorised ports of the algorithms in
torch's ``ATen/native/Math.h`` (Cephes), computed in float64 and rounded to the input's dtype.
"""

from __future__ import annotations

import functools
import math

from .. import _dtype as D
from .._device import xp
from .._errors import ArgTypeError, must_be_tensor
from .._tensor import Tensor
from . import _libm
from .registry import FLOAT, expose, op
from .registry import run as _run
from .unary import _real_only


def _cname(a):
    """torch's ScalarType name of an array's dtype ("ComplexFloat" …)."""
    return D._BY_NP[a.dtype].scalar_name


@functools.cache
def _lgamma_scalar():
    """The element-wise C ``lgamma`` (within an ulp of torch's; ``math.lgamma`` is Python's
    own, coarser), bound on first use."""
    return xp.frompyfunc(_libm.c_fn("lgamma"), 1, 1)


def _work(x):
    """The computation dtype torch's kernels use: float for float32/float16, else double."""
    return xp.float32 if x.dtype in (xp.float32, xp.float16) else xp.float64


def _lgamma64(x):
    x = xp.asarray(x, dtype=xp.float64)
    out = xp.full(x.shape, xp.inf)
    ok = xp.isfinite(x) & ~((x <= 0) & (x == xp.floor(x)))
    if ok.any():
        out[ok] = _lgamma_scalar()(x[ok]).astype(xp.float64)
    out[xp.isnan(x)] = xp.nan
    return out


_PSI_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
          -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
          8.33333333333333333333e-2)
_PSI_10 = 2.25175258906672110764


def _digamma64(x):
    x = xp.array(x, dtype=_work(xp.asarray(x)))
    with xp.errstate(all="ignore"):
        neg = x < 0
        integer = x == xp.trunc(x)
        # reflection: digamma(x) = digamma(1 - x) - pi / tan(pi * frac(x))
        zero = x.dtype.type(0)
        refl = xp.where(neg & ~integer, -math.pi / xp.tan(math.pi * xp.fmod(x, 1.0)), zero)
        z = xp.where(neg, 1 - x, x)
        result = xp.zeros_like(z)
        for _ in range(10):                     # push z up to >= 10
            low = z < 10
            result = xp.where(low, result - 1 / z, result)
            z = xp.where(low, z + 1, z)
        zz = 1.0 / (z * z)
        poly = xp.zeros_like(z)
        for a in _PSI_A:
            poly = poly * zz + a
        y = xp.where(z < 1e17, zz * poly, zero)
        asym = result + xp.log(z) - 0.5 / z - y
        out = xp.where(z == 10, result + _PSI_10, asym) + refl
        out = xp.where(neg & integer, x.dtype.type(xp.nan), out)
        out = xp.where(x == 0, xp.copysign(x.dtype.type(xp.inf), -x), out)
        out = xp.where(xp.isnan(x), x, out)
    return out


def _trigamma64(x):
    x = xp.array(x, dtype=_work(xp.asarray(x)))
    with xp.errstate(all="ignore"):
        low = x < 0.5
        s = xp.sin(math.pi * x)
        result = xp.where(low, -(math.pi * math.pi) / (s * s), x.dtype.type(0))
        sign = xp.where(low, x.dtype.type(-1), x.dtype.type(1))
        x = xp.where(low, 1 - x, x)
        for _ in range(6):
            result = result + 1 / (x * x)
            x = x + 1
        ixx = 1 / (x * x)
        result = result + (1 + 1 / (2 * x) + ixx * (1 / 6 - ixx * (1 / 30 - ixx * (1 / 42)))) / x
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta64(s: float, q):
    """Hurwitz zeta(s, q) for s > 1 (Cephes' Euler-Maclaurin summation, as torch's zeta)."""
    q = xp.array(q, dtype=xp.float64)
    with xp.errstate(all="ignore"):
        total = q ** -s
        a = q.copy()
        b = xp.zeros_like(q)
        steps = 0
        while True:    # sum the first terms until every element's a exceeds 9 (9 at least)
            more = (a <= 9) & xp.isfinite(a) if steps >= 9 else xp.ones(a.shape, bool)
            if not more.any() or steps > 100_000:
                break
            a = xp.where(more, a + 1, a)
            b = xp.where(more, a ** -s, b)
            total = total + xp.where(more, b, 0.0)
            steps += 1
        w = a
        total = total + b * w / (s - 1) - 0.5 * b
        fac, k = 1.0, 0.0
        for coef in _ZETA_A:
            fac = fac * (s + k)
            b = b / w
            total = total + fac * b / coef
            k += 1
            fac = fac * (s + k)
            b = b / w
        pole = (q <= 0) & (q == xp.floor(q))
        total = xp.where(pole, xp.inf, total)
    return total


_MACHEP = 1.11022302462515654042e-16


def _zeta_cephes(x, q):
    """Hurwitz zeta(x, q) in float64 as ATen's ``zeta`` (Cephes): the special cases, the
    direct sum until a term falls below MACHEP (returned as it stands) or past nine terms
    with ``a > 9``, then Euler-Maclaurin terms until one falls below MACHEP. Each element
    leaves at the step its scalar loop would."""
    pow_ = _libm.double_fn("pow")
    x, q = xp.broadcast_arrays(x, q)
    # the first term is std::pow(q, -x) in the input's own type (powf for float32)
    first = _libm.c_float("powf") if x.dtype == xp.float32 else pow_
    x, q, xn = x.astype(xp.float64), q.astype(xp.float64), x
    out = xp.full(x.shape, xp.nan)
    with xp.errstate(all="ignore"):
        out[x == 1] = xp.inf
        done = x <= 1
        neg = ~done & (q <= 0)
        pole = neg & (q == xp.floor(q))
        out[pole] = xp.inf
        done |= pole | (neg & (x != xp.floor(x)))
        live = xp.flatnonzero(~done)
        xs, qs = x.reshape(-1)[live], q.reshape(-1)[live]
        s = first(qs.astype(xn.dtype), -xs.astype(xn.dtype)).astype(xp.float64)
        a, b = qs.copy(), xp.zeros_like(qs)
        summed = xp.zeros(qs.shape, bool)            # left in the direct sum
        run = xp.ones(qs.shape, bool)
        i = 0
        while run.any():
            idx = xp.flatnonzero(run)
            if i >= 64 and idx.size <= 16:      # a few long sums (q far below 0)
                for e in idx:
                    summed[e] = _zeta_direct_run(a, b, s, xs, e, i, pow_)
                break
            a[idx] += 1
            b[idx] = pow_(a[idx], -xs[idx])
            s[idx] += b[idx]
            i += 1
            conv = (-_MACHEP * s[idx] < b[idx]) & (b[idx] < _MACHEP * s[idx])
            summed[idx[conv]] = True
            run[idx] = ~conv & ((i < 9) | (a[idx] <= 9.0))
        idx = xp.flatnonzero(~summed)
        xs, w, b, t_s = xs[idx], a[idx], b[idx], s[idx]
        t_s = t_s + b * w / (xs - 1)
        t_s = t_s - 0.5 * b
        fac, k = xp.ones_like(t_s), xp.zeros_like(t_s)
        left = xp.ones(t_s.shape, bool)
        for coef in _ZETA_A:
            fac = fac * (xs + k)
            b = b / w
            t = fac * b / coef
            t_s = xp.where(left, t_s + t, t_s)
            left &= ~(xp.abs(t / t_s) < _MACHEP)
            k = k + 1
            fac = fac * (xs + k)
            b = b / w
            k = k + 1
        s[idx] = t_s
    out.reshape(-1)[live] = s
    return out


def _zeta_direct_run(a, b, s, xs, e, i, pow_, block=4096):
    """The rest of element ``e``'s direct sum in :func:`_zeta_cephes` from step ``i``, a
    block of steps at a time: ``a += 1`` and ``s += pow(a, -x)`` as running sums (NumPy's
    accumulate adds in order), stopped at the step the scalar loop stops. Updates ``a``,
    ``b`` and ``s`` in place; True where the sum converged."""
    ae, se, x = a[e], s[e], xs[e]
    while True:
        av = xp.add.accumulate(xp.concatenate([[ae], xp.ones(block)]))[1:]
        bv = pow_(av, xp.full(block, -x))
        sv = xp.add.accumulate(xp.concatenate([[se], bv]))[1:]
        iv = i + xp.arange(1, block + 1)
        conv = (-_MACHEP * sv < bv) & (bv < _MACHEP * sv)
        stop = conv | ~((iv < 9) | (av <= 9.0))
        if stop.any():
            j = int(xp.argmax(stop))
            a[e], b[e], s[e] = av[j], bv[j], sv[j]
            return bool(conv[j])
        ae, se, i = av[-1], sv[-1], i + block


def _polygamma64(n: int, x):
    if n == 0:
        return _digamma64(x)
    if n == 1:
        return _trigamma64(x)
    sign = 1.0 if (n + 1) % 2 == 0 else -1.0
    return sign * math.factorial(n) * _zeta64(n + 1.0, x)


def _like(out, x):
    return out.astype(x.dtype, copy=False)


@op("LgammaBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    check=_real_only("lgamma_vml_cpu"),
    self=lambda grad, self: grad * self.digamma())
def lgamma(self):
    """Natural log of the absolute value of the gamma function.

    >>> ember.lgamma(ember.tensor([0.5, 3.0]))
    tensor([0.5724, 0.6931])
    """
    if self.dtype.kind == "c":
        raise NotImplementedError(f"\"lgamma_vml_cpu\" not implemented for '{_cname(self)}'")
    if xp.__name__ == "numpy" and (self.dtype in (xp.float32, xp.float64, xp.float16)
                                   or self.dtype.name == "bfloat16"):
        from . import _sleef_gamma
        if self.dtype.itemsize == 2:        # Vectorized<Half/BFloat16>: the float kernel
            return _sleef_gamma.lgamma_vec(self.astype(xp.float32)).astype(self.dtype)
        return _sleef_gamma.lgamma_vec(self)
    return _like(_lgamma64(self), self)


@op("DigammaBackward0", promote=FLOAT, inplace=True, reduced_in_float=False,
    check=_real_only("digamma"),
    self=lambda grad, self: grad * _polygamma_op(self, 1))
def digamma(self):
    """The logarithmic derivative of the gamma function, ``psi(x)``.

    >>> ember.digamma(ember.tensor([1.0, 0.5]))
    tensor([-0.5772, -1.9635])
    """
    if self.dtype.kind == "c":
        raise NotImplementedError(f"\"digamma\" not implemented for '{_cname(self)}'")
    if self.dtype in (xp.float32, xp.float64) and xp.__name__ == "numpy":
        from . import _cephes
        return _cephes.digamma(self)
    return _like(_digamma64(self), self)


@op("PolygammaBackward0", name="polygamma_", method=False, function=False, promote=FLOAT,
    self=lambda grad, self, n: grad * _polygamma_op(self, n + 1))
def _polygamma_kernel(self, n):
    if self.dtype in (xp.float32, xp.float64) and xp.__name__ == "numpy":
        if n in (0, 1):
            from . import _cephes
            return (_cephes.digamma if n == 0 else _cephes.trigamma)(self)
        return _polygamma_math(self, n)
    return _like(_polygamma64(n, self), self)


def _polygamma_math(x, n):
    """``calc_polygamma`` (``Math.h``) for n >= 2: ``±exp(lgamma(n + 1)) * zeta(n + 1, x)``
    in the input's type, glibc's ``exp``/``lgamma`` (float ones for float32) and ATen's
    zeta (:func:`_zeta_cephes`) rounded to the type."""
    dt = x.dtype.type
    pre = "f" if dt == xp.float32 else ""
    fn = _libm.c_float if pre else _libm.c_double
    fac = fn("exp" + pre)(fn("lgamma" + pre)(xp.array([n + 1], dt)))[0]
    with xp.errstate(all="ignore"):
        z = _zeta_cephes(xp.full(x.shape, n + 1, dt), x).astype(dt)
        return (dt(1 if n % 2 else -1) * fac) * z


def _polygamma_op(x, n):
    return _run(_polygamma_kernel, (x, n))


def _check_n(n) -> None:
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


@expose(method=False)
def polygamma(n: int, input: Tensor, *, out=None) -> Tensor:
    """The ``n``-th derivative of :func:`digamma`."""
    _check_n(n)
    return _run(_polygamma_kernel, (input, n), out)


def _polygamma_method(self, n: int) -> Tensor:
    """The ``n``-th derivative of :func:`digamma`."""
    _check_n(n)
    return _run(_polygamma_kernel, (self, n))


def _polygamma_inplace(self, n: int) -> Tensor:
    """In-place :meth:`Tensor.polygamma`."""
    return self.copy_(_polygamma_method(self, n))


Tensor.polygamma = _polygamma_method
Tensor.polygamma_ = _polygamma_inplace


def _mvlgamma_args(x: Tensor, p: int) -> Tensor:
    """torch's ``arange(-(p-1)/2, 1/2, 1/2) + x[..., None]`` (in ``x``'s dtype)."""
    halves = Tensor._wrap(xp.arange(-p * 0.5 + 0.5, 0.5, 0.5).astype(x.dtype.np))
    return halves + x.unsqueeze(-1)


@op("MvlgammaBackward0", name="mvlgamma_", method=False, function=False, promote=None,
    reduced_in_float=False,
    self=lambda grad, self, p: grad * _mvlgamma_args(self, p).digamma().sum(-1))
def _mvlgamma(self, p):
    # torch's composite: lgamma of the args, summed, plus p(p-1) log(pi) / 4
    x = Tensor._wrap(self)
    if x.dtype._category < 2:                   # (integers: in the default float type)
        x = x.to(D.get_default_dtype())
    r = _mvlgamma_args(x, p).lgamma().sum(-1) + float(p * (p - 1)) * math.log(math.pi) * 0.25
    return r._data


@expose
def mvlgamma(input: Tensor, p: int, *, out=None) -> Tensor:
    """The multivariate log-gamma function of dimension ``p`` (integers computed in the
    default float type; no domain check, as torch's)."""
    if input.dtype is D.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    dt = input.dtype if input.dtype._category >= 2 else D.get_default_dtype()
    if dt.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dt.scalar_name}'")
    res = _run(_mvlgamma, (input, p))
    if out is None:
        return res
    if not D.can_cast(res.dtype, out.dtype):    # (torch's message names the input's type)
        raise RuntimeError(f"mvlgamma: result type {input.dtype.scalar_name} can't be cast to "
                           f"the desired output type {res.dtype.scalar_name}")
    from .registry import _write_out
    return _write_out(out, res._data)


# ----------------------------------------------------------------------------- i0

def _i0_check(self):
    if self.dtype.is_complex:
        raise NotImplementedError(f"\"i0_vml_cpu\" not implemented for '{self.dtype.scalar_name}'")


def _i1(x):
    from .special_functions import i1
    return i1(x)


@op("I0Backward0", promote=FLOAT, inplace=True, check=_i0_check,
    self=lambda grad, self: grad * _i1(self))
def i0(self):
    """The modified Bessel function of the first kind, order 0 (Cephes' Chebyshev series,
    as torch computes it).

    >>> ember.i0(ember.tensor([0.0, 1.0]))
    tensor([1.0000, 1.2661])
    """
    from . import _cephes
    if self.dtype not in (xp.float32, xp.float64):
        return _cephes.i0(self.astype(xp.float64)).astype(self.dtype)
    return _cephes.i0(self)



# ----------------------------------------------------------------------------- igamma

def _igamma_check(name):
    def check(self, other):
        for pos, (arg, value) in enumerate((("input", self), ("other", other)), 1):
            if not isinstance(value, Tensor):
                raise ArgTypeError(must_be_tensor(name, arg, pos, value))
        dt = D.result_type(self, other)     # (TensorIterator's: a 0-d tensor counts less)
        if not dt.is_floating_point:
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{dt.scalar_name}\'')
    return check


def _igamma_density(self, other):
    """``d/dx P(a, x) = x**(a - 1) e**-x / Gamma(a)`` (derivatives.yaml's formula)."""
    return ((self - 1) * other.log() - other - self.lgamma()).exp()


def _no_input_derivative(name):
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return formula


@op("IgammaBackward0", inplace=True, check=_igamma_check("igamma"),
    self=_no_input_derivative("igamma"),
    other=lambda grad, self, other: grad * _igamma_density(self, other))
def igamma(self, other):
    """The regularized lower incomplete gamma function ``P(input, other)``.

    >>> ember.igamma(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 2.0]))
    tensor([0.6321, 0.5940])
    """
    from . import _igamma
    return _igamma.igamma(self, other)


@op("IgammacBackward0", inplace=True, check=_igamma_check("igammac"),
    self=_no_input_derivative("igammac"),
    other=lambda grad, self, other: -grad * _igamma_density(self, other))
def igammac(self, other):
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P``.

    >>> ember.igammac(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 2.0]))
    tensor([0.3679, 0.4060])
    """
    from . import _igamma
    return _igamma.igammac(self, other)
