"""Every op, defined once; importing a family installs its functions and methods.

``FUNCTIONS`` maps each public name to its function (``ember.<name>``). The families every
program uses load with this package; the others (``LAZY``) load on the first read of one of
their names (``ember.sort``, ``Tensor.sort``, ``ember._ops.sort``), which ``_index`` lists.
"""

from __future__ import annotations

from . import indexing, pointwise, reduction, shape  # noqa: F401  (register the ops)
from .indexing import getitem, setitem  # noqa: F401
from .registry import FUNCTIONS, OPS, expose  # noqa: F401
from .shape import _to_copy  # noqa: F401
from .. import _factories  # noqa: F401  (its Tensor methods, with the ops': NumPy's names too)
from .. import _lazy
from .._tensor import Tensor as _T
from . import _index, registry
from . import numpy_names as _numpy_names
from .._names import name_methods as _name_methods

# the op families loaded on first use (see _index, which tools/op_index.py writes)
LAZY = ("unary", "sorting", "linalg", "cross", "bucketing", "special", "sampling", "nn",
        "distances", "histograms", "complex_views", "nn_extra", "statistics", "constructions",
        "elementwise", "view_scatters", "decompositions", "fake_quantize")

FUNCTIONS.update(subtract=FUNCTIONS["sub"], multiply=FUNCTIONS["mul"], divide=FUNCTIONS["div"],
                 negative=FUNCTIONS["neg"])
for _alias, _name in (("subtract", "sub"), ("multiply", "mul"), ("divide", "div"),
                      ("negative", "neg"), ("subtract_", "sub_"), ("multiply_", "mul_"),
                      ("divide_", "div_"), ("negative_", "neg_")):
    setattr(_T, _alias, getattr(_T, _name))

_numpy_names.install(FUNCTIONS, _T)   # axis= / keepdims= for dim= / keepdim=
globals().update(FUNCTIONS)

# torch's top-level in-place functions (``torch.sin_(x)`` is ``x.sin_()``), for the methods
# that exist
_IN_PLACE = ("abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
             "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_",
             "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_",
             "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "gcd_",
             "i0_", "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_", "log_",
             "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_",
             "resize_as_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_",
             "square_", "tan_", "tanh_", "trunc_", "xlogy_", "zero_")


def _in_place_function(name):
    method = getattr(_T, name)

    def fn(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = method.__doc__
    return fn


def _add_in_place_functions(names) -> None:
    for name in names:
        if name not in FUNCTIONS and name in vars(_T):
            FUNCTIONS[name] = _in_place_function(name)


_add_in_place_functions(_IN_PLACE)
globals().update(FUNCTIONS)
_CORE = frozenset(FUNCTIONS)
_FAMILY = {name: family for family, names in _index.FUNCTIONS.items() for name in names}
_METHOD_FAMILY = {n: family for family, names in _index.METHODS.items() for n in names}
_IN_PLACE_OF: dict = {}
for _name in _IN_PLACE:
    if _name in _METHOD_FAMILY and _name not in _FAMILY:
        _IN_PLACE_OF.setdefault(_METHOD_FAMILY[_name], []).append(_name)
_FAMILY.update({n: family for family, names in _IN_PLACE_OF.items() for n in names})
_LOADED: set = set()
registry._NUMPY_NAMED.update(f"{__name__}.{family}" for family in LAZY)


def load(family: str):
    """The op family ``family`` (``"sorting"``), imported, its names installed."""
    module = _lazy.import_module(f"{__name__}.{family}")
    if family not in _LOADED:
        _LOADED.add(family)
        names = _index.FUNCTIONS.get(family, ())
        _numpy_names.install(FUNCTIONS, _T, names, _index.METHODS.get(family, ()))
        _add_in_place_functions(_IN_PLACE_OF.get(family, ()))
        _name_methods(_T, _index.METHODS.get(family, ()))
        registry.require_arguments(FUNCTIONS, False, (*names, *_IN_PLACE_OF.get(family, ())))
        registry.require_arguments(vars(_T), True, _index.METHODS.get(family, ()))
        globals().update({n: FUNCTIONS[n] for n in _FAMILY if n in FUNCTIONS})
    return module


def function(name: str):
    """``ember.<name>`` if an op family defines it (its family loaded if need be), else None."""
    family = _FAMILY.get(name)
    if family is not None:
        load(family)
    elif name not in _CORE:
        return None
    return FUNCTIONS.get(name)


def load_all() -> None:
    """Load every op family (what lists or searches all of them needs)."""
    for family in LAZY:
        load(family)


def __getattr__(name: str):
    fn = function(name) if name in _FAMILY else None
    if fn is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return fn


_LATE_METHODS: dict = {}      # module name -> the Tensor methods it defines when imported


def _methods_of(target: str, names) -> None:
    """Tensor's methods ``names``, defined in module ``target`` when it is imported (on the
    first read of one, or by whatever imports it: it calls :func:`methods_defined`)."""
    _LATE_METHODS[target] = tuple(names)
    _lazy.methods(_T, target, names)


def methods_defined(module: str) -> None:
    """Module ``module`` has set its Tensor methods (see :func:`_methods_of`): they get
    torch's errors for a call its parser refuses, as the op families' do
    (:func:`registry.require_arguments`)."""
    registry.require_arguments(vars(_T), True, _LATE_METHODS.get(module, ()))


for _family, _names in _index.METHODS.items():
    _lazy.methods(_T, _family, _names, load=load)
# methods of the rarer linear algebra, defined where it lives
_methods_of(f"{__name__}.linalg_legacy", ("eig", "lstsq", "lu", "lu_solve", "solve", "symeig",
                                          "triangular_solve"))
_methods_of(f"{__name__}.householder", ("geqrf", "orgqr", "ormqr"))
# sparse COO and CSR tensors, and what a strided tensor answers about sparsity
_methods_of("ember.sparse._sparse", ("to_sparse", "to_sparse_coo", "to_sparse_csr", "to_dense",
                                     "sparse_dim", "dense_dim", "sparse_mask", "indices",
                                     "values", "coalesce", "is_coalesced", "_indices", "_values",
                                     "_nnz"))


def scalar_tensor_like(value, like):
    """A 0-d tensor holding ``value`` (for reflected operators such as ``2 // x``)."""
    from .. import _dtype as D
    from .._tensor import Tensor
    if isinstance(value, Tensor):       # (called as ``t.__rfloordiv__(u)``)
        return value
    dt = D.result_type(value, like).np
    try:
        return Tensor._wrap(D.np.array(value, dtype=dt))
    except OverflowError:   # torch's cast of the number to the type wraps around
        return Tensor._wrap(D.np.array(value).astype(dt))
