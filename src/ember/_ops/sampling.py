"""Random sampling ops behind torch.distributions: ``_standard_gamma``, ``_sample_dirichlet``,
``poisson``, ``binomial`` and the reparameterisation gradients ``_standard_gamma_grad`` and
``_dirichlet_grad``.

Each follows torch's CPU kernel element by element in row-major order (``ATen/native/
Distributions.cpp`` and ``Distributions.h``): the same rejection loops drawing the same doubles
from the generator (``u53`` uniforms and the cached serial Box-Muller normals), with each step
in the precision the C++ computes it in (``float`` steps for float32 tensors where the kernel
does them in ``scalar_t``), so the samples after the same seed are torch's.
"""

from __future__ import annotations

import math

from .._device import xp
from .._tensor import Tensor
from . import _libm
from .registry import NONE, op
from .special import _PSI_10, _PSI_A, _digamma64

_F32 = xp.float32
_FLT_MIN = float(xp.finfo(xp.float32).tiny)
_DBL_MIN = float(xp.finfo(xp.float64).tiny)
_TWO_PI = 6.283185307179586
_THIRD_F = float(_F32(1.0) / _F32(3.0))      # 1.0f / 3.0f
_C0331 = float(_F32(0.0331))                 # 0.0331f
def _c_lgamma(x: float) -> float:
    return _libm.c_fn("lgamma")(x)


def _gen(generator):
    from ..random import _gen as g
    return g(generator)


def _check_float(arr, kernel: str) -> None:
    if arr.dtype.char not in "fd":
        from ..random import _not_implemented
        raise _not_implemented(kernel, arr.dtype)


def _cmax(lo, x):
    """C++ ``std::max(lo, x)``: ``x`` unless ``lo < x`` fails (so NaN gives ``lo``)."""
    return x if lo < x else lo


# ----------------------------------------------------------------------------- samplers

def _sample_gamma(alpha, f32: bool, uniform, normal) -> float:
    """ATen's ``sample_gamma`` (Marsaglia-Tsang, boosted below 1) with ``scalar_t`` float when
    ``f32``; the accumulation type is double."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        inv = float(_F32(1.0) / _F32(alpha)) if f32 else 1.0 / alpha
        scale *= _pow(1.0 - uniform(), inv)
        alpha = float(_F32(alpha) + _F32(1.0)) if f32 else alpha + 1.0
    d = float(_F32(alpha) - _F32(_THIRD_F)) if f32 else alpha - _THIRD_F
    nine_d = 9.0 * d
    c = 1.0 / math.sqrt(nine_d) if nine_d >= 0 else math.nan
    while True:
        while True:
            x = normal()
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1.0 - uniform()
        xx = x * x
        if u < 1.0 - _C0331 * xx * xx:
            return scale * d * v
        lv = math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)
        if math.log(u) < 0.5 * xx + d * (1.0 - v + lv):
            return scale * d * v


def _sample_poisson(lam: float, uniform) -> int:
    """ATen's ``sample_poisson``: Hoermann's transformed rejection from 10 up, else Knuth's
    product of uniforms."""
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            U = uniform() - 0.5
            V = uniform()
            us = 0.5 - abs(U)
            k = math.floor((2 * a / us + b) * U + lam + 0.43)
            if us >= 0.07 and V <= vr:
                return k
            if k < 0 or (us < 0.013 and V > us):
                continue
            lv = math.log(V) if V > 0 else -math.inf
            if (lv + math.log(invalpha) - math.log(a / (us * us) + b)) <= \
                    (-lam + k * loglam - _c_lgamma(float(k) + 1)):
                return k
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    X = 0
    prod = 1.0
    while True:
        prod *= uniform()
        if prod > enlam:
            X += 1
        else:
            return X


_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _log(x: float) -> float:
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


class _Scalar:
    """``scalar_t`` arithmetic: float32 rounding after each step, or plain doubles."""

    def __init__(self, f32: bool) -> None:
        self.r = (lambda v: float(_F32(v))) if f32 else (lambda v: v)
        self.f32 = f32


def _binomial_inversion(count, prob, S: _Scalar, uniform):
    r = S.r
    geom_sum = 0.0
    num_geom = 0.0
    logprob = r(_log1p_s(-prob, S.f32))
    while True:
        geom = math.ceil(_log(uniform()) / logprob)
        geom_sum += geom
        if geom_sum > count:
            break
        num_geom = r(num_geom + 1)
    return num_geom


def _log1p_s(x: float, f32: bool) -> float:
    if f32:
        return _libm.c_fn("log1pf", xp.float32)(x)
    return math.log1p(x) if x > -1 else (-math.inf if x == -1 else math.nan)


def _btrs(count, prob, S: _Scalar, uniform):
    r = S.r
    q1 = r(1 - prob)
    stddev = r(math.sqrt(r(r(count * prob) * q1))) if S.f32 else math.sqrt(count * prob * q1)
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = r(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    rr = r(prob / q1)
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(math.floor(r(r(count + 1) * prob)))
    while True:
        U = uniform() - 0.5
        V = uniform()
        us = 0.5 - abs(U)
        k = r(math.floor((2 * a / us + b) * U + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and V <= v_r:
            return k
        V = _log(V * alpha / (a / (us * us) + b))
        ckp1 = r(r(count - k) + 1)
        upperbound = ((m + 0.5) * _log((m + 1) / (rr * (count - m + 1)))
                      + r(count + 1) * _log((count - m + 1) / ckp1)
                      + (k + 0.5) * _log(rr * ckp1 / r(k + 1))
                      + _stirling_tail(m) + _stirling_tail(count - m)
                      - _stirling_tail(k) - _stirling_tail(r(count - k)))
        if V <= upperbound:
            return k


def _sample_binomial(count, prob, S: _Scalar, uniform):
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if S.r(count * prob) >= 10.0:
            return _btrs(count, prob, S, uniform)
        return _binomial_inversion(count, prob, S, uniform)
    if prob > 0.5:
        qprob = S.r(1.0 - prob)
        if S.r(count * qprob) >= 10.0:
            return S.r(count - _btrs(count, qprob, S, uniform))
        return S.r(count - _binomial_inversion(count, qprob, S, uniform))
    return math.nan


# ----------------------------------------------------------------------------- the draws

class _Draws:
    """The two samplers of the kernels, ``at::uniform_real_distribution<double>(0, 1)`` (one
    ``u53``) and ``at::normal_distribution<double>(0, 1)`` (the serial Box-Muller with the
    generator's cached second value), read from blocks of engine words; ``close`` rewinds the
    engine to just after the words used (a rejection loop's count is not known ahead)."""

    def __init__(self, gen, hint: int) -> None:
        self.gen = gen
        self.bg = gen._bg
        self.start = self.bg.state
        self.buf: list = []
        self.i = 0
        self.block = max(64, 4 * hint)

    def uniform(self) -> float:
        i = self.i
        if i + 2 > len(self.buf):
            self.buf += self.bg.random_raw(self.block).tolist()
            self.block *= 2
        hi, lo = self.buf[i], self.buf[i + 1]
        self.i = i + 2
        return float(((hi & 0x1FFFFF) << 32) | lo) * 2.0 ** -53

    def normal(self) -> float:
        gen = self.gen
        if gen._normal is not None:
            z, gen._normal = gen._normal, None
            return z
        u1 = self.uniform()
        u2 = self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = _TWO_PI * u1
        gen._normal = r * math.sin(theta)
        return r * math.cos(theta)

    def close(self) -> None:
        self.bg.state = self.start
        if self.i:
            self.gen._u32(self.i)


def _with_draws(generator, hint: int, fn):
    d = _Draws(_gen(generator), hint)
    try:
        return fn(d)
    finally:
        d.close()


def _serial(arr, fn):
    """``fn`` over the elements of ``arr`` into a new array of its shape, in row-major order
    (torch's kernels write a new contiguous tensor, whose order the iteration follows)."""
    vals = [fn(v) for v in arr.reshape(-1).tolist()]
    return xp.array(vals, dtype=xp.float64).astype(arr.dtype).reshape(arr.shape)


def _gamma_kernel(alpha, generator=None):
    _check_float(alpha, "gamma_cpu")
    f32 = alpha.dtype == _F32
    mn = _FLT_MIN if f32 else _DBL_MIN

    def run(d):
        def one(a):
            s = _sample_gamma(a, f32, d.uniform, d.normal)
            return _cmax(mn, float(_F32(s)) if f32 else s)
        return _serial(alpha, one)
    return _with_draws(generator, alpha.size, run)


@op("StandardGammaBackward0", promote=NONE, method=False,
    self=lambda grad, self, result: grad * _standard_gamma_grad(self, result))
def _standard_gamma(self, generator=None):
    """Samples of the standard Gamma distribution of concentration ``self`` (torch's)."""
    return _gamma_kernel(self, generator)


@op(None, name="_sample_dirichlet", promote=NONE, method=False, tensors=("self",))
def _sample_dirichlet(self, generator=None):
    """Samples of the Dirichlet distribution of concentration ``self`` (last dim)."""
    _check_float(self, "dirichlet")
    gamma = _with_draws(generator, self.size, lambda d: _serial(
        self.astype(xp.float64),
        lambda a: _cmax(_DBL_MIN, _sample_gamma(a, False, d.uniform, d.normal))))
    from .. import _factories
    total = _factories.tensor(gamma).sum(-1, keepdim=True)._data
    ratio = gamma / total
    dt = self.dtype
    r = ratio.astype(dt)
    mn = dt.type(xp.finfo(dt).tiny)
    mx = xp.nextafter(dt.type(1.0), dt.type(0.0))
    r = xp.where(mn < r, r, mn)          # std::max(min, r): NaN gives min
    r = xp.where(mx < r, mx, r)          # std::min(max, r)
    return r.astype(dt)


@op("PoissonBackward0", promote=NONE, method=False,
    input=lambda grad, input: grad * 0)
def poisson(input, generator=None):
    """Poisson samples of rates ``input`` (torch's transformed-rejection sampler)."""
    _check_float(input, "poisson_cpu")
    return _with_draws(generator, input.size, lambda d: _serial(
        input, lambda lam: float(_sample_poisson(lam, d.uniform))))


def _binomial_check(count, prob, generator=None):
    if isinstance(count, Tensor) and isinstance(prob, Tensor) and count.dtype != prob.dtype:
        raise RuntimeError(f"Found dtype {_cpp_dt(prob)} but expected {_cpp_dt(count)}")


def _cpp_dt(t):
    from ..random import _sname
    return _sname(t._data.dtype)


@op(None, promote=NONE, method=False, check=_binomial_check, tensors=("count", "prob"))
def binomial(count, prob, generator=None):
    """Binomial samples of ``count`` trials of probability ``prob`` (torch's BTRS sampler)."""
    _check_float(count, "binomial_cpu")
    count, prob = xp.broadcast_arrays(count, prob)
    S = _Scalar(count.dtype == _F32)
    pairs = xp.stack([count, prob], -1).reshape(-1, 2).tolist()
    vals = _with_draws(generator, count.size, lambda d: [
        _sample_binomial(c, p, S, d.uniform) for c, p in pairs])
    return xp.array(vals, dtype=xp.float64).astype(count.dtype).reshape(count.shape)


# ----------------------------------------------------------------------------- gradients

_COEF_UV = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
             1, 0.32668115, 0.10406089, 0.0014179084),
            (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
             0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
            (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
             0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))
_F08, _F09, _F11 = float(_F32(0.8)), float(_F32(0.9)), float(_F32(1.1))


def _digamma_one(x: float) -> float:
    return float(_digamma64(xp.array([x]))[0])


def _gamma_grad_one(alpha: float, x: float) -> float:
    """ATen's ``standard_gamma_grad_one`` (in double): ``-(d/dalpha cdf) / pdf``."""
    with xp.errstate(all="ignore"):
        if x < _F08:
            numer, denom = 1.0, alpha
            series1 = numer / denom
            series2 = numer / (denom * denom)
            for i in range(1, 6):
                numer *= -x / i
                denom += 1
                series1 += numer / denom
                series2 += numer / (denom * denom)
            pxa = _pow(x, alpha)
            pdf = _pow(x, alpha - 1) * math.exp(-x)
            cdf = pxa * series1
            cdf_alpha = (_log(x) - _digamma_one(alpha)) * cdf - pxa * series2
            res = _div(-cdf_alpha, pdf)
            return 0.0 if math.isnan(res) else res
        if alpha > 8.0:
            if _F09 * alpha <= x <= _F11 * alpha:
                numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
                numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x)
                           - 65 * x * x / alpha + alpha * (107 + 3600 * x))
                denom = 1244160 * (alpha * alpha) * (alpha * alpha)
                return numer_1 * numer_2 / denom
            denom = math.sqrt(8 * alpha)
            term2 = _div(denom, alpha - x)
            term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
            term23 = term2 - term3 if x < alpha else term2 + term3
            term1 = _log(x / alpha) * term23 - _div(math.sqrt(2 / alpha) * (alpha + x),
                                                    (alpha - x) * (alpha - x))
            stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
            numer = x * term1
            return -stirling * numer / denom
        u = _log(x / alpha)
        v = _log(alpha)
        cv = [_COEF_UV[0][i] + u * (_COEF_UV[1][i] + u * _COEF_UV[2][i]) for i in range(8)]
        p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
        q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
        return _libm.c_fn("exp")(p / q)


def _pow(a: float, b: float) -> float:
    return _libm.c_fn("pow")(a, b)


def _div(a: float, b: float) -> float:
    return float(xp.float64(a) / xp.float64(b))


def _standard_gamma_grad_arrays(alpha, x):
    alpha, x = xp.broadcast_arrays(alpha, x)
    out = [_gamma_grad_one(a, v) for a, v in zip(alpha.reshape(-1).tolist(),
                                                  x.reshape(-1).tolist())]
    return xp.array(out, dtype=xp.float64).reshape(alpha.shape).astype(alpha.dtype)


@op(None, promote=NONE, method=False, tensors=("self", "output"))
def _standard_gamma_grad(self, output):
    """``d sample / d concentration`` of standard Gamma samples ``output`` (torch's
    approximation)."""
    return _standard_gamma_grad_arrays(self, output)


_DC = (((( 1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
         (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
         (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
        ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
         (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
         (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
        ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
         (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
         (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
       (((1, -0.02924021934, -0.04438342661, 0.007285809825),
         (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
         (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
        ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
         (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
         (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
        ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
         (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
         (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _beta_grad_alpha_small(x, alpha, beta):
    factor = _digamma_one(alpha) - _digamma_one(alpha + beta) - _log(x)
    numer = 1.0
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * _pow(1 - x, -beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta):
    factor = _digamma_one(alpha + beta) - _digamma_one(beta)
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, _div(factor, alpha)
    for i in range(1, 9):
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -_pow(1 - x, 1 - beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta):
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return _div(prefactor_num, 1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx
    term1 = _div(term1_num, term1_den)
    term2 = 0.5 * _log(alpha / (total * x)) if x else math.inf
    term3 = _div(math.sqrt(8 * alpha * beta / total), beta * x + alpha * (x - 1))
    term4_base = (beta * _log(_div(beta, total * (1 - x)))
                  + alpha * _log(_div(alpha, total * x)))
    term4 = _pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


def _digamma_one_f32(x):
    """ATen's ``digamma_one<float, double>`` (Distributions.h): the float argument pushed up
    to 10 in float steps, their reciprocals (float) summed in double, ``logf`` and ``0.5f / x``
    in float, the asymptotic series in double, the result rounded to float."""
    one = _F32(1)
    if x == 0:
        return _F32(math.inf)
    result = 0.0
    while x < 10:
        result -= float(one / x)
        x = x + one
    if x == 10:
        return _F32(result + _PSI_10)
    y = 0.0
    if x < _F32(1e17):
        z = 1.0 / float(x * x)
        poly = 0.0
        for a in _PSI_A:
            poly = poly * z + a
        y = z * poly
    return _F32(result + _libm.c_fn("logf", _F32)(x) - float(_F32(0.5) / x) - y)


def _beta_grad_small_f32(x, alpha, beta, wrt_beta: bool):
    """ATen's ``_beta_grad_alpha_small`` / ``_beta_grad_beta_small`` for float, whose
    series run in float arithmetic (only the digammas see double inside)."""
    one = _F32(1)
    powf = _libm.c_fn("powf", _F32)
    with xp.errstate(all="ignore"):
        if not wrt_beta:
            factor = _digamma_one_f32(alpha) - _digamma_one_f32(alpha + beta) \
                - _F32(_libm.c_fn("logf", _F32)(x))
            numer = one
            series = numer / alpha * (factor + one / alpha)
            for i in range(1, 11):
                ci = _F32(i)
                numer = numer * ((ci - beta) * x / ci)
                denom = alpha + ci
                series = series + numer / denom * (factor + one / denom)
            result = x * _F32(powf(one - x, -beta)) * series
        else:
            factor = _digamma_one_f32(alpha + beta) - _digamma_one_f32(beta)
            numer, betas, dbetas, series = one, one, _F32(0), factor / alpha
            for i in range(1, 9):
                ci = _F32(i)
                numer = numer * (-x / ci)
                dbetas = dbetas * (beta - ci) + betas
                betas = betas * (beta - ci)
                series = series + numer / (alpha + ci) * (dbetas + factor * betas)
            result = -_F32(powf(one - x, one - beta)) * series
    return 0.0 if math.isnan(result) else float(result)


def _dirichlet_grad_one_f32(x: float, alpha: float, total: float) -> float:
    """``dirichlet_grad_one<float, double>``: the branch tests and the small-``x`` series
    in float, the saddle-point and rational branches in double (their digammas in float)."""
    xf, af, tf = _F32(x), _F32(alpha), _F32(total)
    beta = tf - af
    boundary = tf * xf * (_F32(1) - xf)
    with xp.errstate(all="ignore"):
        if xf <= 0.5 and boundary < 2.5:
            return _beta_grad_small_f32(xf, af, beta, False)
        if xf >= 0.5 and boundary < 0.75:
            return -_beta_grad_small_f32(_F32(1) - xf, beta, af, True)
        if af > 6 and beta > 6:
            return _beta_grad_alpha_mid(x, alpha, total - alpha)
        digammas = float(_digamma_one_f32(tf) - _digamma_one_f32(af))
        return _dirichlet_rational(x, alpha, total, digammas)


def _dirichlet_grad_one(x: float, alpha: float, total: float) -> float:
    """ATen's ``dirichlet_grad_one`` (in double): the scaled reparameterised gradient
    ``-(d/dalpha cdf) / pdf / (1 - x)`` of a Beta(alpha, total - alpha) sample ``x``."""
    beta = total - alpha
    boundary = total * x * (1 - x)
    with xp.errstate(all="ignore"):
        if x <= 0.5 and boundary < 2.5:
            return _beta_grad_alpha_small(x, alpha, beta)
        if x >= 0.5 and boundary < 0.75:
            return -_beta_grad_beta_small(1 - x, beta, alpha)
        if alpha > 6 and beta > 6:
            return _beta_grad_alpha_mid(x, alpha, beta)
        return _dirichlet_rational(x, alpha, total,
                                   _digamma_one(total) - _digamma_one(alpha))


def _dirichlet_rational(x: float, alpha: float, total: float, digammas: float) -> float:
    """The rational correction to the analytic approximation, in double; ``digammas`` is
    ``digamma(total) - digamma(alpha)`` as the dtype computes it."""
    with xp.errstate(all="ignore"):
        u = _log(x)
        a = _log(alpha) - u
        b = _log(total) - a
        pow_u, pow_a = (1.0, u, u * u), (1.0, a, a * a)
        p = q = 0.0
        for i in range(3):
            for j in range(3):
                ua = pow_u[i] * pow_a[j]
                c0, c1 = _DC[0][i][j], _DC[1][i][j]
                p += ua * (c0[0] + b * (c0[1] + b * (c0[2] + b * c0[3])))
                q += ua * (c1[0] + b * (c1[1] + b * (c1[2] + b * c1[3])))
        approx = x * digammas / (total - alpha)
        return _div(p, q) * approx


@op(None, promote=NONE, method=False, tensors=("x", "alpha", "total"))
def _dirichlet_grad(x, alpha, total):
    """The reparameterisation gradient of Dirichlet (Beta) samples ``x``."""
    x, alpha, total = xp.broadcast_arrays(x, alpha, total)
    one = _dirichlet_grad_one_f32 if x.dtype == _F32 else _dirichlet_grad_one
    out = [one(*t) for t in zip(x.reshape(-1).tolist(),
                                                alpha.reshape(-1).tolist(),
                                                total.reshape(-1).tolist())]
    return xp.array(out, dtype=xp.float64).reshape(x.shape).astype(x.dtype)
