"""``torch.special``: special functions under torch's special names (``expit`` is
``sigmoid``, ``gammaln`` is ``lgamma``, ``psi`` is ``digamma`` …) and the few only this
namespace holds (``entr``, ``ndtr``, ``ndtri``, ``log_ndtr``, ``xlog1py``)."""

from . import _ops
from ._ops.special_functions import (  # noqa: F401
    entr,
    erfcx,
    i0,
    i0e,
    i1,
    i1e,
    log_ndtr,
    ndtr,
    ndtri,
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
