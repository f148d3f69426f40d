"""``torch.special``: special functions under torch's special names (``expit`` is
``sigmoid``, ``gammaln`` is ``lgamma``, ``psi`` is ``digamma`` …) and the few only this
namespace holds (``entr``, ``ndtr``, ``ndtri``, ``log_ndtr``, ``xlog1py``, the orthogonal
polynomials, Bessel functions and ``airy_ai``)."""

from . import _ops
from ._ops.special_functions import (  # noqa: F401
    airy_ai,
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    entr,
    erfcx,
    hermite_polynomial_h,
    hermite_polynomial_he,
    i0,
    i0e,
    i1,
    i1e,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    log_ndtr,
    modified_bessel_i0,
    modified_bessel_i1,
    modified_bessel_k0,
    modified_bessel_k1,
    ndtr,
    ndtri,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
    spherical_bessel_j0,
    xlog1py,
    zeta,
)

expit = _ops.sigmoid
logit = _ops.logit
erf = _ops.erf
erfc = _ops.erfc
erfinv = _ops.erfinv
gammaln = _ops.lgamma
digamma = psi = _ops.digamma
polygamma = _ops.polygamma
multigammaln = _ops.mvlgamma
gammainc = _ops.igamma
gammaincc = _ops.igammac
sinc = _ops.sinc
log1p = _ops.log1p
expm1 = _ops.expm1
exp2 = _ops.exp2
xlogy = _ops.xlogy
logsumexp = _ops.logsumexp
softmax = _ops.softmax
log_softmax = _ops.log_softmax


def round(input, *, decimals: int = 0, out=None):  # noqa: A001
    """``round`` with torch.special's default ``decimals=0`` (node ``RoundBackward1``)."""
    return _ops.round(input, decimals=decimals, out=out)


from ._names import name_namespace as _name_namespace  # noqa: E402

_name_namespace(globals(), __name__)      # torch's __name__: ``special_erf`` …
del _name_namespace

from ._ops.registry import require_namespace as _require  # noqa: E402

_require(list(globals().values()))      # torch's error for a missing argument
del _require
