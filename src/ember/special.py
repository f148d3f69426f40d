"""``torch.special``: special functions under torch's special names (``expit`` is
``sigmoid``, ``gammaln`` is ``lgamma``, ``psi`` is ``digamma`` …) and the few only this
namespace holds (``entr``, ``ndtr``, ``ndtri``, ``log_ndtr``, ``xlog1py``)."""

from ._ops import FUNCTIONS as _F
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

expit = _F["sigmoid"]
logit = _F["logit"]
erf = _F["erf"]
erfc = _F["erfc"]
erfinv = _F["erfinv"]
gammaln = _F["lgamma"]
digamma = psi = _F["digamma"]
polygamma = _F["polygamma"]
multigammaln = _F["mvlgamma"]
gammainc = _F["igamma"]
gammaincc = _F["igammac"]
sinc = _F["sinc"]
log1p = _F["log1p"]
expm1 = _F["expm1"]
exp2 = _F["exp2"]
xlogy = _F["xlogy"]
logsumexp = _F["logsumexp"]
softmax = _F["softmax"]
log_softmax = _F["log_softmax"]


def round(input, *, decimals: int = 0, out=None):  # noqa: A001
    """``round`` with torch.special's default ``decimals=0`` (node ``RoundBackward1``)."""
    return _F["round"](input, decimals=decimals, out=out)
