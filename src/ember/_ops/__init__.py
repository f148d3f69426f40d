"""Every op, defined once; importing this package installs functions and methods.

``FUNCTIONS`` maps each public name to its function (``ember.<name>``).
"""

from __future__ import annotations

from . import indexing, linalg, pointwise, reduction, shape  # noqa: F401  (register the ops)
from . import search, sorting  # noqa: F401  (max, min, argmax, sort, topk, unique …)
from . import unary  # noqa: F401  (exp, log, erf, rounding, isnan …)
from . import cross as _cross  # noqa: F401  (cross, linalg.cross)
from . import triangular as _triangular  # noqa: F401  (linalg.solve_triangular)
from . import bucketing  # noqa: F401  (bincount, searchsorted, bucketize)
from . import special  # noqa: F401  (lgamma, digamma, polygamma, mvlgamma)
from . import nn as _nn_ops  # noqa: F401  (nn op family: conv, pool, losses …)
from . import attention as _attention  # noqa: F401  (scaled dot-product attention)
from . import distances as _distances  # noqa: F401  (dist, cdist)
from . import histograms as _histograms  # noqa: F401  (histc, histogram)
from . import complex_views as _complex_views  # noqa: F401  (view_as_real …)
from . import statistics as _statistics  # noqa: F401  (cov, corrcoef, quantile, aminmax)
from .indexing import getitem, setitem  # noqa: F401
from .registry import FUNCTIONS, OPS, expose  # noqa: F401
from .shape import _to_copy  # noqa: F401

FUNCTIONS.update(subtract=FUNCTIONS["sub"], multiply=FUNCTIONS["mul"], divide=FUNCTIONS["div"],
                 negative=FUNCTIONS["neg"], absolute=FUNCTIONS["abs"], clip=FUNCTIONS["clamp"])
for _alias, _name in (("subtract", "sub"), ("multiply", "mul"), ("divide", "div"),
                      ("negative", "neg"), ("absolute", "abs"), ("clip", "clamp"),
                      ("clip_", "clamp_"), ("subtract_", "sub_"), ("multiply_", "mul_"),
                      ("divide_", "div_"), ("absolute_", "abs_"), ("negative_", "neg_")):
    from .._tensor import Tensor as _T
    setattr(_T, _alias, getattr(_T, _name))

from . import numpy_names as _numpy_names  # noqa: E402

_numpy_names.install(FUNCTIONS, _T)   # axis= / keepdims= for dim= / keepdim=
globals().update(FUNCTIONS)


def scalar_tensor_like(value, like):
    """A 0-d tensor holding ``value`` (for reflected operators such as ``2 // x``)."""
    from .. import _dtype as D
    from .._tensor import Tensor
    return Tensor._wrap(D.np.array(value, dtype=D.result_type(value, like).np))
