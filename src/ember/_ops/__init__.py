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
from . import sampling as _sampling  # noqa: F401  (_standard_gamma, poisson, binomial …)
from . import nn as _nn_ops  # noqa: F401  (nn op family: conv, pool, losses …)
from . import distances as _distances  # noqa: F401  (dist, cdist)
from . import histograms as _histograms  # noqa: F401  (histc, histogram)
from . import complex_views as _complex_views  # noqa: F401  (view_as_real …)
from . import nn_extra as _nn_extra  # noqa: F401  (hardshrink, …)
from . import statistics as _statistics  # noqa: F401  (cov, corrcoef, quantile, aminmax)
from . import constructions as _constructions  # noqa: F401  (broadcast_shapes, diff, matrix_exp …)
from . import elementwise as _elementwise  # noqa: F401  (logaddexp, sinc, frexp, gcd …)
from . import view_scatters as _view_scatters  # noqa: F401  (diagonal_scatter, slice_scatter …)
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

# torch's top-level in-place functions: ``torch.sin_(x)`` is ``x.sin_()``


def _in_place_function(name):
    method = getattr(_T, name)

    def fn(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = method.__doc__
    return fn


for _name in ("abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_",
              "arcsinh_", "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_",
              "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_",
              "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_",
              "frac_", "gcd_", "i0_", "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_",
              "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_",
              "relu_", "resize_as_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_",
              "sqrt_", "square_", "tan_", "tanh_", "trunc_", "xlogy_", "zero_"):
    if hasattr(_T, _name) and _name not in FUNCTIONS:
        FUNCTIONS[_name] = _in_place_function(_name)
globals().update(FUNCTIONS)
