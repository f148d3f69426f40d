"""torch's prototype ``MaskedTensor`` (``torch.masked.maskedtensor``): a data tensor and a
boolean mask of its shape; ``False`` marks an element as unspecified (printed ``--``).

Ops work on the data and carry the mask: unary math keeps it, binary ops need equal masks,
reductions skip the unspecified elements (their result is unspecified where every element
reduced was), ``softmax`` leaves them out. Autograd runs on the data tensor; a masked
tensor's ``.grad`` is the data's gradient under the mask.

Methods are the class's own; the ``ember`` functions that take a masked tensor
(``ember.exp``, ``ember.sum``, ``ember.where`` …) are routed here by :func:`_install`, and a
plain tensor's binary op with a masked operand reaches :func:`_masked_form` through the op
runner's error path, so plain tensors pay nothing.
"""

from __future__ import annotations

import functools
import sys
import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _disabled_torch_function_impl, _new_object, _VersionCounter
from ..autograd import grad_mode
from ..overrides import _S
from ..sparse._sparse import _NoStorage


def _package():
    """The ember package itself (imported by name it could be a second copy under an alias)."""
    return sys.modules[__package__.partition(".")[0]]

_PROTOTYPE = ("The PyTorch API of MaskedTensors is in prototype stage and will change in the "
              "near future. Please open a Github issue for features requests and see our "
              "documentation on the torch.masked module for further information about the "
              "project.")
_DATA_REQUIRES_GRAD = ("It is not recommended to create a MaskedTensor with a tensor that "
                       "requires_grad. To avoid this, you can use data.detach().clone()")
_MASKS_MUST_MATCH = ("Input masks must match. If you need support for this, please open an "
                     "issue on Github.")
_SUPPORTED = ("float16", "float32", "float64", "bool", "int8", "int16", "int32", "int64")


def _not_implemented(name: str) -> str:
    return (f"{name} is not implemented in __torch_dispatch__ for MaskedTensor.\n"
            "If you would like this operator to be supported, please file an issue for a "
            "feature request at https://github.com/pytorch/maskedtensor/issues with a minimal "
            "reproducible code snippet.\nIn the case that the semantics for the operator are "
            "not trivial, it would be appreciated to also include a proposal for the semantics.")


class MaskedUnsupported(TypeError, ValueError):
    """An op reached a masked tensor's missing array. A ``ValueError`` too, so that the op
    runner hands a binary op with a masked operand to :func:`_masked_form`."""

    def __init__(self, name: str):
        super().__init__(self._text(name))

    @staticmethod
    def _text(name: str) -> str:
        return (f"Multiple dispatch failed for 'torch._ops.aten.{name}'; all "
                "__torch_dispatch__ handlers returned NotImplemented:\n\n  - tensor subclass "
                "<class 'torch.masked.maskedtensor.core.MaskedTensor'>\n\nFor more information, "
                "try re-running with TORCH_LOGS=not_implemented")

    @staticmethod
    def renamed(name: str) -> TypeError:
        warnings.warn(_not_implemented(name.split(".")[0]), UserWarning, stacklevel=4)
        return TypeError(MaskedUnsupported._text(name))

    @staticmethod
    def sparse_form(name: str, args, out=None):
        """The op runner's op ``name`` on ``args`` where a masked tensor is among them
        (``dense * masked`` …), else None."""
        if out is not None:
            return None
        if name in _BINARY_NAMES:
            if len(args) > 2 and args[2] != 1:       # (add/sub's alpha)
                return None
            return _binary(name, args[0], args[1])
        if name in _UNARY_NAMES and args[0].__class__ is MaskedTensor:
            return _unary(name, *args)
        return None


class _MaskedStorage(_NoStorage):
    """A masked tensor's ``_data``: its shape and dtype; array work raises torch's error."""

    __slots__ = ()
    _error = MaskedUnsupported


def is_masked_tensor(obj, /) -> bool:
    """Whether ``obj`` is a :class:`MaskedTensor`."""
    return isinstance(obj, MaskedTensor)


def _validate(data, mask) -> None:
    if mask.dtype is not D.bool:
        raise TypeError("mask must have dtype bool.")
    if data.dtype.name not in _SUPPORTED:
        raise TypeError(f"{data.dtype} is not supported in MaskedTensor.")
    if data.dim() != mask.dim():
        raise ValueError("data.dim() must equal mask.dim()")
    if data.shape != mask.shape:
        raise ValueError("data.size() must equal mask.size()")


def _make(data: Tensor, mask: Tensor) -> MaskedTensor:
    """A masked tensor over ``data`` and ``mask`` as they are (no copy, no checks but the
    shape): the result of an op."""
    warnings.warn(_PROTOTYPE, UserWarning, stacklevel=3)
    t = object.__new__(MaskedTensor)
    t._data = _MaskedStorage(tuple(data._data.shape), data._data.dtype)
    t._requires_grad = False
    t._grad = t._base = t._acc = t._hooks = None
    t._output_nr = 0
    t._vc = vc = _new_object(_VersionCounter)
    vc.value = 0
    t._retains_grad = False
    if grad_mode._state.inference:
        t._inference = True
    t._masked_data = data
    t._masked_mask = mask
    return t


class MaskedTensor(Tensor):
    """A tensor whose elements are each specified (``mask`` True) or not (printed ``--``),
    as ``torch.masked.MaskedTensor``.

    >>> import ember
    >>> from ember.masked import masked_tensor
    >>> masked_tensor(ember.tensor([1., 2.]), ember.tensor([True, False])).sum()
    MaskedTensor(  1.0000, True)
    """

    __torch_function__ = _disabled_torch_function_impl

    __slots__ = ("_masked_data", "_masked_mask")

    def __new__(cls, data, mask, requires_grad=False):
        if isinstance(data, MaskedTensor) or not isinstance(data, Tensor):
            raise TypeError("data must be a Tensor")
        if isinstance(mask, MaskedTensor) or not isinstance(mask, Tensor):
            raise TypeError("mask must be a Tensor")
        warnings.warn(_PROTOTYPE, UserWarning, stacklevel=2)
        if data.requires_grad:
            warnings.warn(_DATA_REQUIRES_GRAD, UserWarning, stacklevel=2)
        _validate(data, mask)
        inner = data.detach().clone()
        if requires_grad:
            inner.requires_grad_(True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _make(inner, mask.clone())

    def __init__(self, data, mask, requires_grad=False):
        pass

    # ----- parts
    def get_data(self) -> Tensor:
        """The data tensor (its unspecified elements hold whatever they held)."""
        return self._masked_data

    def get_mask(self) -> Tensor:
        """The boolean mask: True where an element is specified."""
        return self._masked_mask

    def to_tensor(self, value) -> Tensor:
        """A plain tensor: the data with ``value`` at the unspecified elements."""
        return self._masked_data.masked_fill(~self._masked_mask, value)

    def is_sparse_coo(self) -> bool:
        return False

    def is_sparse_csr(self) -> bool:
        return False

    @property
    def is_sparse(self) -> bool:
        return False

    # ----- autograd (on the data tensor)
    @property
    def requires_grad(self) -> bool:
        return self._masked_data.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._masked_data.requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> MaskedTensor:
        self._masked_data.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._masked_data.grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._masked_data.is_leaf

    @property
    def grad(self):
        g = self._masked_data.grad
        return None if g is None else _make(g, self._masked_mask)

    @grad.setter
    def grad(self, value) -> None:
        self._masked_data.grad = value if not isinstance(value, MaskedTensor) else \
            value._masked_data

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Backpropagate through the data tensor."""
        if isinstance(gradient, MaskedTensor):
            gradient = gradient._masked_data
        self._masked_data.backward(gradient, retain_graph, create_graph, inputs)

    def detach(self) -> MaskedTensor:
        return _make(self._masked_data.detach(), self._masked_mask)

    def clone(self, *, memory_format=None) -> MaskedTensor:
        return _make(self._masked_data.clone(), self._masked_mask)

    def contiguous(self, memory_format=None) -> MaskedTensor:
        return self

    def to_dense(self, dtype=None, *, masked_grad=None) -> MaskedTensor:
        return self

    def to(self, *args, **kwargs) -> MaskedTensor:
        """The data converted (``dtype``, ``device`` …); the mask stays boolean."""
        return _make(self._masked_data.to(*args, **kwargs), self._masked_mask)

    def float(self, memory_format=None) -> MaskedTensor:
        return self.to(D.float32)

    def double(self, memory_format=None) -> MaskedTensor:
        return self.to(D.float64)

    def half(self, memory_format=None) -> MaskedTensor:
        return self.to(D.float16)

    def int(self, memory_format=None) -> MaskedTensor:
        return self.to(D.int32)

    def long(self, memory_format=None) -> MaskedTensor:
        return self.to(D.int64)

    def bool(self, memory_format=None) -> MaskedTensor:
        return self.to(D.bool)

    def is_contiguous(self, memory_format=None) -> bool:
        return self._masked_data.is_contiguous()

    def item(self):
        if self._masked_data.numel() != 1:
            return self._masked_data.item()     # (torch's error)
        if not self._masked_mask.item():
            raise ValueError("__torch_dispatch__, aten._local_scalar_dense: expected "
                             "a mask tensor")
        return self._masked_data.item()

    def any(self, dim=None, keepdim=False, **kwargs):
        """Not among torch's masked reductions: torch's dispatch error."""
        raise MaskedUnsupported.renamed("any.default" if dim is None else "any.dim")

    # ----- printing
    def __repr__(self, *, tensor_contents=None) -> str:
        if self.dim() == 0:
            value = self._masked_data.item()
            text = _FMT.format(value) if isinstance(value, float) else str(value)
            specified = self._masked_mask.item()
            return f"MaskedTensor({text if specified else '--'}, {specified})"
        s = _tensor_str(self._masked_data._data, self._masked_mask._data)
        return "MaskedTensor(\n" + "\n".join("  " + line for line in s.split("\n")) + "\n)"

    __str__ = __repr__

    # ----- shape ops: on data and mask alike
    def _both(self, name, *args, **kwargs):
        return _make(getattr(self._masked_data, name)(*args, **kwargs),
                     getattr(self._masked_mask, name)(*args, **kwargs))

    def __getitem__(self, key):
        return self._both("__getitem__", key)


_FMT = "{0:8.4f}"


def _tensor_str(data: np.ndarray, mask: np.ndarray) -> str:
    """torch's ``_masked_tensor_str``: ``{0:8.4f}`` floats, ``str`` of other items, ``--``
    right-justified to eight characters, nested lists two spaces further in."""
    if data.ndim == 1:
        items = [_FMT.format(float(d)) if data.dtype.kind == "f" else str(d.item())
                 for d in data]
        width = max(len(e) if m else 8 for e, m in zip(items, mask))
        return "[" + ", ".join(e if m else "--".rjust(width) for e, m in zip(items, mask)) + "]"
    subs = [_tensor_str(d, m) for d, m in zip(data, mask)]
    subs = ["\n".join("  " + line for line in s.split("\n")) for s in subs]
    return "[\n" + ",\n".join(subs) + "\n]"


def masked_tensor(data, mask, requires_grad=False) -> MaskedTensor:
    """A masked tensor over copies of ``data`` and ``mask`` (a leaf; ``requires_grad``)."""
    return MaskedTensor(data, mask, requires_grad)


def as_masked_tensor(data, mask) -> MaskedTensor:
    """A masked tensor over ``data`` that stays in ``data``'s graph (gradients flow back)."""
    if isinstance(data, MaskedTensor) or not isinstance(data, Tensor):
        raise TypeError("data must be a Tensor")
    if isinstance(mask, MaskedTensor) or not isinstance(mask, Tensor):
        raise TypeError("mask must be a Tensor")
    _validate(data, mask)
    return _make(data.clone(), mask.clone())


# ----------------------------------------------------------------------------- ops

def _data(a):
    return a._masked_data if isinstance(a, MaskedTensor) else a


def _fn(name):
    ember = _package()
    return _ORIGINAL.get(name) or getattr(ember, name)


def _unary(name, self, *args, **kwargs):
    # (torch's dispatcher passes keyword arguments on as positional ones)
    if any(isinstance(a, Tensor) for a in (*args, *kwargs.values())):
        raise TypeError("MaskedTensor unary ops do not support additional Tensor arguments")
    return _make(_fn(name)(self._masked_data, *args, **kwargs), self._masked_mask)


def _masks_match(a, b) -> bool:
    if isinstance(a, MaskedTensor) and isinstance(b, MaskedTensor):
        ma, mb = a._masked_mask, b._masked_mask
        return ma.dim() == mb.dim() and bool(ma.eq(mb).all().item())
    return True


def _binary(name, a, b, *args, **kwargs):
    if kwargs:
        raise ValueError("len(kwargs) must equal 0")
    if any(isinstance(x, Tensor) for x in args):
        raise TypeError("MaskedTensor binary ops do not support Tensor arguments aside from "
                        "the lhs and rhs")
    if not _masks_match(a, b):
        raise ValueError(_MASKS_MUST_MATCH)
    result = _fn(name)(_data(a), _data(b), *args)
    mask = (a if isinstance(a, MaskedTensor) else b)._masked_mask
    return _make(result, mask.expand_as(result))


def _filled(data: Tensor, mask: Tensor, value) -> Tensor:
    """``data`` with ``value`` at the unspecified elements; its gradient goes to every
    element (torch's masked reductions fill a MaskedTensor's data, and autograd sees the
    wrapper, not the fill)."""
    from ..autograd import Function

    class _Fill(Function):
        @staticmethod
        def forward(ctx, data):
            ember = _package()
            return ember.where(mask, data, ember.tensor(value, dtype=data.dtype))

        @staticmethod
        def backward(ctx, grad):
            return grad

    return _Fill.apply(data)


def _identity(name: str, data: Tensor):
    """torch.masked's ``_reduction_identity``: the value unspecified elements take."""
    dt = data.dtype
    if name == "sum":
        return 0
    if name == "prod":
        return 1
    if dt.is_floating_point:
        return -float("inf") if name in ("amax", "argmax") else float("inf")
    info = np.iinfo(dt.np) if dt is not D.bool else None
    if info is None:
        return name in ("amin", "argmin")
    return info.min if name in ("amax", "argmax") else info.max


def _any_over(mask: Tensor, dim, keepdim: bool) -> Tensor:
    ember = _package()
    dims = [dim] if isinstance(dim, int) else list(dim)
    for d in sorted(dims, reverse=True):
        mask = ember.any(mask, dim=d, keepdim=keepdim)
    return mask


def _reduced(name: str, data: Tensor, mask: Tensor, dim, keepdim, dtype):
    """torch.masked's reduction ``name`` of ``data`` over the specified elements."""
    ember = _package()
    if name == "all":
        filled = data.masked_fill(~mask, True)
        return filled.all() if dim is None else ember.all(filled, dim=dim, keepdim=keepdim)
    if name == "mean":
        dt = dtype if dtype is not None else data.dtype
        if not (dt.is_floating_point or dt.is_complex):
            source = "Optional" if dtype is not None else "Input"
            raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be "
                             "either a floating point or complex dtype. Got: " + str(dt))
        count = mask.sum() if dim is None else mask.sum(dim=dim, keepdim=bool(keepdim))
        return _reduced("sum", data, mask, dim, keepdim, dt) / count
    filled = _filled(data, mask, _identity(name, data))
    fn = _fn(name)
    if name in ("sum", "prod"):
        if dim is None:
            return fn(filled, dtype=dtype)
        return fn(filled, dim, keepdim=bool(keepdim), dtype=dtype)
    out = fn(filled) if dim is None else fn(filled, dim, keepdim=bool(keepdim))
    # (torch's MaskedTensor gives an index in the input's dtype)
    return out.to(data.dtype) if name in ("argmax", "argmin") else out


def _reduction(name):
    def reduce(self, dim=None, keepdim=False, dtype=None, **kwargs):
        if not isinstance(self, MaskedTensor):
            raise TypeError("Input to reduce_dim must be a MaskedTensor")
        if "dim" in kwargs:
            dim = kwargs.pop("dim")
        mask = self._masked_mask
        data = _reduced(name, self._masked_data, mask, dim, keepdim, dtype)
        out_mask = mask.any() if dim is None else _any_over(mask, dim, keepdim)
        return _make(data, out_mask)
    reduce.__name__ = name
    reduce.__doc__ = f"torch.masked's ``{name}`` over the specified elements."
    return reduce


def _where(condition, input, other):
    mx = input if isinstance(input, MaskedTensor) else _full(input)
    my = other if isinstance(other, MaskedTensor) else _full(other)
    where = _ORIGINAL["where"]
    from ..autograd import Function

    class _MaskedWhere(Function):
        # torch's: each side's gradient is the whole incoming one, its elements from the
        # other side left unspecified (the data kept)
        @staticmethod
        def forward(ctx, x, y):
            ctx.shapes = x.shape, y.shape
            return where(condition, x, y)

        @staticmethod
        def backward(ctx, grad):
            return tuple(grad if grad.shape == s else grad.sum_to_size(s) for s in ctx.shapes)

    return _make(_MaskedWhere.apply(mx._masked_data, my._masked_data),
                 where(condition, mx._masked_mask, my._masked_mask))


def _no_layout(other):
    raise AttributeError(f"'{type(other).__name__}' object has no attribute 'layout'")


def _full(t):
    ember = _package()
    return _make(t, ember.ones_like(t, dtype=D.bool))


def _masked_softmax(x: np.ndarray, keep: np.ndarray, dim: int) -> np.ndarray:
    """ATen's ``_masked_softmax`` CPU loop along ``dim`` over the elements ``keep`` marks:
    ``std::exp`` of each less the slice's maximum, summed one by one in double, times the
    sum's reciprocal (a double); 0 where left out, NaN where a slice keeps none."""
    from .._ops._libm import libm
    x, keep = np.moveaxis(x, dim, -1), np.moveaxis(keep, dim, -1)
    with np.errstate(invalid="ignore", over="ignore"):
        top = np.where(keep, x, -np.inf).max(-1, keepdims=True)
        z = np.where(keep, libm("exp", np.where(keep, x - top, 0).astype(x.dtype)), 0)
        z = z.astype(x.dtype)
        total = np.cumsum(z, -1, dtype=np.float64)[..., -1:]
        with np.errstate(divide="ignore"):
            inv = np.where(total == 0, np.nan, 1 / total)
        out = (z * inv).astype(x.dtype)
    return np.ascontiguousarray(np.moveaxis(out, -1, dim))


def _masked_softmax_backward(grad: np.ndarray, out: np.ndarray, keep: np.ndarray,
                             dim: int) -> np.ndarray:
    """ATen's ``_masked_softmax_backward`` CPU loop: ``out * (grad - sum)``, the sum of
    ``grad * out`` over the kept elements taken one by one in double; 0 where left out."""
    g, y, k = (np.moveaxis(a, dim, -1) for a in (grad, out, keep))
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.cumsum(np.where(k, g * y, 0), -1, dtype=np.float64)[..., -1:]
        gi = np.where(k, (y * (g - total)).astype(g.dtype), 0).astype(g.dtype)
    return np.ascontiguousarray(np.moveaxis(gi, -1, dim))


def _softmax(self, dim, dtype=None, **kwargs):
    from .._ops.util import norm_dim
    from ..autograd import Function
    data, mask = self._masked_data, self._masked_mask
    if dtype is not None:
        data = data.to(dtype)
    dim = norm_dim(dim, data.dim()) if data.dim() else 0
    keep = mask._data

    class _MaskedSoftmax(Function):
        @staticmethod
        def forward(ctx, x):
            a = x._data
            out = _masked_softmax(a.reshape(1) if a.ndim == 0 else a,
                                  keep.reshape(1) if a.ndim == 0 else keep, dim)
            out = Tensor._wrap(out.reshape(a.shape))
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, grad):
            (out,) = ctx.saved_tensors
            g = grad._data
            if g.ndim == 0:
                return Tensor._wrap(_masked_softmax_backward(
                    g.reshape(1), out._data.reshape(1), keep.reshape(1), 0).reshape(()))
            return Tensor._wrap(_masked_softmax_backward(g, out._data, keep, dim))

    return _make(_MaskedSoftmax.apply(data), mask)


_UNARY_NAMES = (
    "abs", "absolute", "acos", "arccos", "acosh", "arccosh", "angle", "asin", "arcsin", "asinh",
    "arcsinh", "atan", "arctan", "atanh", "arctanh", "bitwise_not", "ceil", "clamp", "clip",
    "conj_physical", "cos", "cosh", "deg2rad", "digamma", "erf", "erfc", "erfinv", "exp", "exp2",
    "expm1", "fix", "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "logit", "i0",
    "isnan", "nan_to_num", "neg", "negative", "positive", "pow", "rad2deg", "reciprocal",
    "round", "rsqrt", "sigmoid", "sign", "sgn", "signbit", "sin", "sinc", "sinh", "sqrt",
    "square", "tan", "tanh", "trunc")
_BINARY_NAMES = frozenset((
    "add", "atan2", "arctan2", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
    "bitwise_right_shift", "div", "divide", "floor_divide", "fmod", "logaddexp", "logaddexp2",
    "mul", "multiply", "nextafter", "remainder", "sub", "subtract", "true_divide", "eq", "ne",
    "le", "ge", "greater", "greater_equal", "gt", "less_equal", "lt", "less", "maximum",
    "minimum", "fmax", "fmin", "not_equal"))
_OUT_OF_PLACE_ONLY = ("logaddexp", "logaddexp2", "fmin", "minimum", "maximum", "fmax")
_REDUCE_NAMES = ("sum", "mean", "amin", "amax", "argmin", "argmax", "prod", "all")
_DUNDERS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div",
            "floordiv": "floor_divide", "mod": "remainder", "and": "bitwise_and",
            "or": "bitwise_or", "xor": "bitwise_xor"}
_COMPARISONS = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "eq": "eq", "ne": "ne"}

_ORIGINAL: dict = {}        # the ember functions routed here, as they were


def _inplace(impl, name):
    def method(self, *args, **kwargs):
        result = impl(name, self, *args, **kwargs)
        self._masked_data = result._masked_data
        return self
    method.__name__ = name + "_"
    return method


def _method(impl, name):
    def method(self, *args, **kwargs):
        return impl(name, self, *args, **kwargs)
    method.__name__ = name
    return method


def _install() -> None:
    """Give :class:`MaskedTensor` its methods and route the ember functions of its ops."""
    ember = _package()
    from ..nn import functional as F

    for name in _UNARY_NAMES:
        if hasattr(Tensor, name):
            setattr(MaskedTensor, name, _method(_unary, name))
    for name in _BINARY_NAMES:
        if hasattr(Tensor, name):
            setattr(MaskedTensor, name, _method(_binary, name))
    for name in _REDUCE_NAMES:
        setattr(MaskedTensor, name, _reduction(name))
    for name in _UNARY_NAMES:
        if hasattr(Tensor, name + "_") and name not in ("positive", "signbit", "isnan"):
            setattr(MaskedTensor, name + "_", _inplace(_unary, name))
    for name in _BINARY_NAMES:
        if hasattr(Tensor, name + "_") and name not in _OUT_OF_PLACE_ONLY:
            setattr(MaskedTensor, name + "_", _inplace(_binary, name))
    for dunder, name in _DUNDERS.items():
        setattr(MaskedTensor, f"__i{dunder}__", _inplace(_binary, name))
    MaskedTensor.__pow__ = lambda self, exponent: _unary("pow", self, exponent)
    for dunder, name in {**_DUNDERS, **_COMPARISONS}.items():
        setattr(MaskedTensor, f"__{dunder}__",
                lambda self, other, _n=name: _binary(_n, self, other))
    for dunder in ("add", "mul", "truediv"):
        setattr(MaskedTensor, f"__r{dunder}__",
                lambda self, other, _n=_DUNDERS[dunder]: _binary(_n, other, self))
    for dunder in ("sub", "pow", "matmul"):
        setattr(MaskedTensor, f"__r{dunder}__", lambda self, other: NotImplemented)
    MaskedTensor.__matmul__ = lambda self, other: NotImplemented
    for dunder in ("floordiv", "mod"):
        # (torch's binary helper reads the number's layout)
        setattr(MaskedTensor, f"__r{dunder}__", lambda self, other: _no_layout(other))
    MaskedTensor.__neg__ = lambda self: _unary("neg", self)
    MaskedTensor.__abs__ = lambda self: _unary("abs", self)
    MaskedTensor.__invert__ = lambda self: _unary("bitwise_not", self)
    MaskedTensor.softmax = _softmax
    MaskedTensor.where = lambda self, condition, other: _where(condition, self, other)

    def route(module, name, masked):
        original = getattr(module, name)
        _ORIGINAL.setdefault(name, original)

        @functools.wraps(original)
        def fn(*args, **kwargs):
            if args and args[0].__class__ is MaskedTensor:
                return masked(*args, **kwargs)
            return original(*args, **kwargs)
        setattr(module, name, fn)

    def route_any(module, name, masked):
        original = getattr(module, name)
        _ORIGINAL.setdefault(name, original)

        @functools.wraps(original)
        def fn(*args, **kwargs):
            if any(a.__class__ is MaskedTensor for a in args[:3]):
                return masked(*args, **kwargs)
            return original(*args, **kwargs)
        setattr(module, name, fn)

    for name in _UNARY_NAMES:
        if hasattr(ember, name):
            route(ember, name, _method(_unary, name))
    for name in _REDUCE_NAMES:
        route(ember, name, getattr(MaskedTensor, name))
    for name in _BINARY_NAMES:
        if hasattr(ember, name):
            route_any(ember, name, functools.partial(_binary, name))
    route_any(ember, "where", _where)
    route(ember, "softmax", _softmax)
    original_f = F.softmax

    @functools.wraps(original_f)
    def softmax(input, dim=None, _stacklevel=3, dtype=None):
        if input.__class__ is MaskedTensor:
            return _softmax(input, dim, dtype)
        if dim is None:     # (warned from here: one frame below the caller, as F.softmax)
            dim = F._softmax_dim("softmax", input.ndim)
        return original_f(input, dim, _stacklevel, dtype)
    F.softmax = softmax
    _S.rebinds += 1


_install()
