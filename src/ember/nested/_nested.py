"""Nested tensors of the default (strided) layout: a batch of tensors of one dimension whose
sizes may differ.

A :class:`NestedTensor` is a ``Tensor`` (``is_nested`` True, ``layout`` strided) holding its
constituents as ordinary tensors. Its ``_data`` is a :class:`_NestedStorage`: the dimension,
dtype and element count (so ``dim()``, ``dtype``, ``numel()`` are the inherited ones), no
sizes (torch's ``NestedTensorImpl doesn't support sizes``) and torch's dispatcher error for
any array work, so a strided op given a nested tensor fails as torch's does without a check
on the dense path. The ops torch runs on nested tensors run on each constituent with Ember's
dense kernels (the constituents' autograd carries the gradients), which computes torch's
values: its nested kernels apply the same dense kernels to the constituents' buffer.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _disabled_torch_function_impl
from ..autograd import grad_mode
from ..sparse._sparse import _NoStorage, _record, no_kernel

__all__ = ["NestedTensor", "nested_tensor", "as_nested_tensor", "to_padded_tensor"]

_state = grad_mode._state
_NO_SIZES = "Internal error: NestedTensorImpl doesn't support sizes. Please file an issue."
_NO_STRIDES = "Internal error: NestedTensorImpl doesn't support strides. Please file an issue."


class NestedUnsupported(NotImplementedError, ValueError):
    """An op reached a nested tensor's missing array (torch: no NestedTensorCPU kernel). A
    ``ValueError`` too, so that the op runner puts the op's own name in the message, or
    computes the op on the constituents where torch has a nested kernel for it."""

    def __init__(self, name: str):
        super().__init__(no_kernel(name, "NestedTensorCPU"))

    @staticmethod
    def renamed(name: str) -> NotImplementedError:
        return NotImplementedError(no_kernel(name, "NestedTensorCPU"))

    @staticmethod
    def sparse_form(name: str, args, out=None):
        """The op runner's hook (shared with sparse tensors): op ``name`` computed on the
        constituents where torch has a nested kernel for it, else None."""
        fn = _FORMS.get(name) if out is None else None
        return None if fn is None else fn(*args)


class _NestedStorage(_NoStorage):
    """A nested tensor's ``_data``: dimension, dtype and element count; no sizes."""

    __slots__ = ()
    _error = NestedUnsupported

    def __init__(self, ndim: int, dtype: np.dtype, size: int):
        self.dtype = dtype
        self.ndim = ndim
        self.size = size
        self.itemsize = dtype.itemsize

    def __getattribute__(self, name):
        if name == "shape":
            raise RuntimeError(_NO_SIZES)
        return object.__getattribute__(self, name)


def warn_prototype() -> None:
    """torch's once-per-process warning on its first (strided) nested tensor."""
    from .._errors import warn_once
    warn_once("nested_prototype", (
        "The PyTorch API of nested tensors is in prototype stage and will change in the near "
        "future. We recommend specifying layout=torch.jagged when constructing a nested "
        "tensor, as this layout receives active development, has better operator coverage, "
        "and works with torch.compile. (Triggered internally at "
        "/__w/pytorch/pytorch/aten/src/ATen/NestedTensorImpl.cpp:177.)"))


def _make(parts, node: str | None = None) -> NestedTensor:
    """A nested tensor over the tensors ``parts`` (of one dimension and dtype), their
    autograd kept: a result requires grad where a constituent does. Its ``grad_fn`` is the
    first constituent's node, or one named ``node`` (torch's node of the nested op) whose
    inputs are the constituents."""
    parts = tuple(parts)
    warn_prototype()
    dt = parts[0]._data.dtype if parts else D.get_default_dtype().np
    ndim = parts[0].ndim + 1 if parts else 1
    t = NestedTensor._wrap(_NestedStorage(ndim, dt, sum(p.numel() for p in parts)))
    t._nt_parts = parts
    nodes = [p.grad_fn for p in parts if p.grad_fn is not None]
    t.grad_fn = nodes[0] if nodes else None
    if node is not None and nodes:
        _record(t, node, parts, lambda g: g._nt_parts)
    return t


def _view(part: Tensor, node: str) -> Tensor:
    """A constituent as torch's ``unbind`` / ``select`` of a nested tensor give it: its
    data, and a node named ``node`` where it requires grad."""
    if not (_state.enabled and part.requires_grad):
        return part
    return _record(Tensor._wrap(part._data), node, (part,), lambda g: (g,))


def _map(fn, nt: NestedTensor, *args, **kwargs) -> NestedTensor:
    return _make(fn(p, *args, **kwargs) for p in nt._nt_parts)


def _same_structure(name: str, a: NestedTensor, b: NestedTensor) -> None:
    if [p.shape for p in a._nt_parts] != [p.shape for p in b._nt_parts]:
        raise RuntimeError(f"{name} does not support broadcasting when given a NestedTensor")


def _binary(name: str, fn):
    """Op ``name`` of a nested tensor and a nested tensor of the same structure or a number
    (torch's ``NestedTensor_elementwise_Tensor``)."""
    def form(self, other, *rest):
        if isinstance(self, NestedTensor) and isinstance(other, NestedTensor):
            _same_structure(name, self, other)
            return _make(fn(a, b, *rest) for a, b in zip(self._nt_parts, other._nt_parts))
        nested, plain = (self, other) if isinstance(self, NestedTensor) else (other, self)
        if isinstance(plain, Tensor) and plain.ndim:
            which = ("a nested self and non-nested other" if nested is self
                     else "a non-nested self and nested other")
            raise RuntimeError(f"Expected both self and other to be nested, but got {which}")
        if nested is self:
            return _map(lambda p: fn(p, other, *rest), self)
        return _map(lambda p: fn(self, p, *rest), other)
    return form


class NestedTensor(Tensor):
    """A nested tensor of the strided layout, as ``torch.nested.nested_tensor`` makes it.

    >>> import ember
    >>> nt = ember.nested.nested_tensor([ember.ones(2, 3), ember.ones(1, 3)])
    >>> nt.size(0), nt.size(2), nt.dim(), nt.numel()
    (2, 3, 3, 9)
    """

    __torch_function__ = _disabled_torch_function_impl

    __slots__ = ("_nt_parts",)

    is_nested = True

    # ----- structure
    @property
    def shape(self):
        raise RuntimeError(_NO_SIZES)

    def size(self, dim: int | None = None):
        """The length of dimension ``dim`` where it is regular (torch's error otherwise)."""
        if dim is None:
            raise RuntimeError(_NO_SIZES)
        from .._ops.util import norm_dim
        d = norm_dim(dim, self.ndim)
        if d == 0:
            return len(self._nt_parts)
        sizes = {p._data.shape[d - 1] for p in self._nt_parts}
        if len(sizes) != 1:
            raise RuntimeError(f"Given dimension {d} is irregular and does not have a size.")
        return sizes.pop()

    def stride(self, dim: int | None = None):
        raise RuntimeError(_NO_STRIDES)

    def is_contiguous(self, memory_format=None) -> bool:
        return all(p.is_contiguous() for p in self._nt_parts)

    def __len__(self) -> int:
        raise RuntimeError(_NO_SIZES)

    def _nested_tensor_size(self) -> Tensor:
        """The constituents' sizes, one row each (int64)."""
        return Tensor._wrap(np.array([p._data.shape for p in self._nt_parts], np.int64)
                     .reshape(len(self._nt_parts), self.ndim - 1))

    def unbind(self, dim: int = 0) -> tuple:
        """The constituents."""
        if dim != 0:
            raise RuntimeError("NestedTensor can only be unbound along dimension 0 got "
                               f"dimension {dim} instead.")
        return tuple(_view(p, "UnbindBackwardAutogradNestedTensor0") for p in self._nt_parts)

    def __iter__(self):
        return iter(self.unbind())

    def __getitem__(self, index):
        rest = ()
        if isinstance(index, tuple) and index:
            index, rest = index[0], index[1:]
        if not isinstance(index, int):
            raise NotImplementedError(no_kernel("slice.Tensor", "NestedTensorCPU"))
        n = len(self._nt_parts)
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {n}")
        part = self._nt_parts[index]
        return part[rest] if rest else _view(part, "SelectBackwardAutogradNestedTensor0")

    # ----- autograd
    @property
    def requires_grad(self) -> bool:
        return any(p.requires_grad for p in self._nt_parts)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        for p in self._nt_parts:
            p.requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> NestedTensor:
        for p in self._nt_parts:
            p.requires_grad_(requires_grad)
        return self

    @property
    def grad(self):
        if self.grad_fn is not None:
            return None
        grads = [p._grad for p in self._nt_parts]
        if any(g is None for g in grads) or not grads:
            return None
        return _make(grads)

    @grad.setter
    def grad(self, value) -> None:
        parts = value._nt_parts if value is not None else (None,) * len(self._nt_parts)
        for p, g in zip(self._nt_parts, parts):
            p.grad = g

    def detach(self) -> NestedTensor:
        return _map(Tensor.detach, self)

    # ----- conversions
    def to_padded_tensor(self, padding: float, output_size=None) -> Tensor:
        """A dense tensor of the constituents padded with ``padding`` (to ``output_size``)."""
        return to_padded_tensor(self, padding, output_size)

    def clone(self, *, memory_format=None) -> NestedTensor:
        return _map(Tensor.clone, self)

    def contiguous(self, memory_format=None) -> NestedTensor:
        return self if self.is_contiguous() else _map(Tensor.contiguous, self)

    def to(self, *args, **kwargs) -> NestedTensor:
        return _map(Tensor.to, self, *args, **kwargs)

    def double(self) -> NestedTensor:
        return _map(Tensor.double, self)

    def float(self) -> NestedTensor:
        return _map(Tensor.float, self)

    def half(self) -> NestedTensor:
        return _map(Tensor.half, self)

    def tolist(self):
        raise RuntimeError(_NO_STRIDES)

    def numpy(self, *, force: bool = False):
        raise RuntimeError(_NO_SIZES)

    # ----- ops torch has nested kernels for
    def softmax(self, dim: int, dtype=None) -> NestedTensor:
        from .._ops.util import norm_dim
        d = norm_dim(dim, self.ndim)
        if d == 0:
            raise RuntimeError("Cannot apply softmax across nested dimension 0")
        return _map(Tensor.softmax, self, d - 1, dtype)

    def transpose(self, dim0: int, dim1: int) -> NestedTensor:
        from .._ops.util import norm_dim
        d0, d1 = norm_dim(dim0, self.ndim), norm_dim(dim1, self.ndim)
        if d0 == 0 or d1 == 0:
            raise RuntimeError("Nested tensor dimension 0 cannot be transposed")
        return _map(Tensor.transpose, self, d0 - 1, d1 - 1)

    def reshape(self, *shape) -> NestedTensor:
        return self._reshape("reshape", Tensor.reshape, shape)

    def view(self, *shape) -> NestedTensor:
        return self._reshape("view", Tensor.view, shape)

    def _reshape(self, name, fn, shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if not shape or shape[0] != len(self._nt_parts):
            raise RuntimeError(f"{name}: For now nested {name} cannot change or infer the "
                               "implicit batch dimension")
        return _make((fn(p, *shape[1:]) for p in self._nt_parts),
                     "ViewBackwardAutogradNestedTensor0")

    def sum(self, dim=None, keepdim: bool = False, *, dtype=None) -> NestedTensor:
        if dim is None:
            raise NotImplementedError(no_kernel("sum", "NestedTensorCPU"))
        from .._ops.util import norm_dim
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        if len(dims) != 1:
            raise RuntimeError("NestedTensor only allows reduction of a single dimension "
                               "for now.")
        d = norm_dim(dims[0], self.ndim)
        if d != self.ndim - 1:
            raise RuntimeError("NestedTensor can only be reduced across the last dimension "
                               f"for now got dimension {d} instead.")
        if not keepdim:
            raise RuntimeError("NestedTensor always requires keepdim=True for now.")
        if dtype is not None:
            raise RuntimeError("NestedTensor does not support dtype argument for now.")
        return _make((_sum_last(p) for p in self._nt_parts), "SumBackwardAutogradNestedTensor1")

    def matmul(self, other, _node: str = "MatmulBackward0") -> NestedTensor:
        if not isinstance(other, NestedTensor):
            raise RuntimeError("Expected both to be nested, but got a nested self and "
                               "non-nested other")
        if self.ndim < 3 or other.ndim < 3:
            raise RuntimeError("matmul: For nested tensors, only inputs with >= 3 dims are "
                               "currently supported. 1st input has rank: "
                               f"{self.ndim}; 2nd input has rank: {other.ndim}")
        if _node == "MatmulBackward0":
            return _matmul(self._nt_parts, other._nt_parts)
        return _make((a.matmul(b) for a, b in zip(self._nt_parts, other._nt_parts)), _node)

    def __matmul__(self, other) -> NestedTensor:
        return self.matmul(other)

    def bmm(self, mat2) -> NestedTensor:
        return self.matmul(mat2, "BmmBackward0")

    def __repr__(self, *, tensor_contents=None) -> str:
        req = self.requires_grad
        with grad_mode.no_grad():
            strs = []
            for p in self._nt_parts:
                p = p.detach()
                p._requires_grad = req
                strs.append("\n".join(f"  {line}" for line in repr(p).split("\n")))
        text = "nested_tensor([\n" + ",\n".join(strs) + "\n]"
        if self.grad_fn is not None:
            text += f", grad_fn=<{type(self.grad_fn).__name__}>"
        elif req:
            text += ", requires_grad=True"
        return text + ")"

    __str__ = __repr__


def _padded_product(xs, ys) -> list:
    """torch's ``matmul_nested`` of constituents ``xs`` and ``ys``: each side padded with
    zeros to its largest sizes (``to_padded_tensor(0.)``), one dense ``matmul`` of the two
    (the batched product's own path: its loop for small matrices, MKL's batched gemm …, whose
    bits depend on the padded sizes), each result cut back to its constituent's size."""
    if not xs:
        return []
    px = to_padded_tensor(_make(x.contiguous() for x in xs), 0.0)
    py = to_padded_tensor(_make(y.contiguous() for y in ys), 0.0)
    out = px.matmul(py)
    return [out[(i, *(slice(0, n) for n in x.shape[:-1]), slice(0, y.shape[-1]))].contiguous()
            for i, (x, y) in enumerate(zip(xs, ys))]


def _matmul(a_parts, b_parts) -> NestedTensor:
    """``matmul`` of two nested tensors (``MatmulBackward0``): the padded product, and its
    gradients as torch's ``matmul_backward_nested`` computes them, padded products too
    (``grad @ b^T``, ``a^T @ grad``) over all the constituents at once. A constituent taken
    alone (``unbind``) gets the same gradients with zeros for the others'."""
    a0 = [a.detach() for a in a_parts]
    b0 = [b.detach() for b in b_parts]
    with grad_mode.no_grad():
        parts = [Tensor._wrap(p._data) for p in _padded_product(a0, b0)]
    inputs = (*a_parts, *b_parts)
    if not (grad_mode._state.enabled and any(p.requires_grad for p in inputs)):
        return _make(parts)
    need_a = any(a.requires_grad for a in a_parts)
    need_b = any(b.requires_grad for b in b_parts)

    def backward(grads):
        ga = _padded_product(grads, [b.mT for b in b0]) if need_a else [None] * len(a0)
        gb = _padded_product([a.mT for a in a0], grads) if need_b else [None] * len(b0)
        return (*ga, *gb)

    for i, part in enumerate(parts):
        _record(part, "MmBackward0", inputs, lambda g, i=i: backward(
            [g if j == i else p.new_zeros(p.shape) for j, p in enumerate(parts)]))
    return _record(_make(parts), "MatmulBackward0", inputs, lambda g: backward(g._nt_parts))


def _sum_last(p: Tensor) -> Tensor:
    """``p.sum(-1, keepdim=True)`` as torch's ``NestedTensor_sum_dim_CPU`` adds: one
    element after another, in the element type."""
    x = p._data
    acc = np.zeros(x.shape[:-1], x.dtype)
    for i in range(x.shape[-1]):
        acc = acc + x[..., i]
    out = Tensor._wrap(acc[..., None])
    return _record(out, "SumBackward1", (p,), lambda g: (g.expand(p.shape),))


def _unary(method: str):
    return lambda self, *args, **kwargs: _map(getattr(Tensor, method), self, *args, **kwargs)


# torch's nested kernels of pointwise unary ops (NestedTensorCPU entries of
# native_functions.yaml); the others (exp, log, sigmoid …) have none
_UNARY = ("abs", "neg", "relu", "tanh", "sin", "cos", "sqrt", "sgn", "logical_not",
          "isnan", "isinf", "abs_", "neg_", "relu_", "tanh_", "zero_", "fill_")
for _name in _UNARY:
    setattr(NestedTensor, _name, _unary(_name))


def _per_part(name: str):
    """Op ``name`` of the op runner on each constituent."""
    def form(self, *rest):
        from .._ops.registry import OPS, run
        op = OPS[name]
        return _make(run(op, [p, *rest]) for p in self._nt_parts)
    return form


def _softmax(self, dim):
    if dim == 0:
        raise RuntimeError("Cannot apply softmax across nested dimension 0")
    return _per_part("_softmax")(self, dim - 1)


_FORMS = {
    "add": _binary("add", lambda a, b, alpha=1: a.add(b, alpha=alpha)),
    "sub": _binary("sub", lambda a, b, alpha=1: a.sub(b, alpha=alpha)),
    "mul": _binary("mul", Tensor.mul),
    "div_true": _binary("div", Tensor.div),
    "_softmax": _softmax,
    "clone": lambda s, memory_format=None: s.clone(),
    **{name: _per_part(name) for name in ("neg", "relu", "gelu", "silu")},
}

for _name, _op in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div_true", "div")):
    _fn = _FORMS[_name]
    setattr(NestedTensor, _op, _fn)
    setattr(NestedTensor, f"__{_op}__", _fn)


def _in_place(name: str):
    """In-place ``add_`` / ``mul_`` of a nested tensor of the same structure or a number
    (torch's ``NestedTensor_elementwise__Tensor``): each constituent written."""
    method = getattr(Tensor, name)

    def form(self, other, *rest, **kwargs):
        if isinstance(other, NestedTensor):
            _same_structure(name, self, other)
            others = other._nt_parts
        elif isinstance(other, Tensor) and other.ndim:
            raise RuntimeError("Expected both self and other to be nested, but got a nested "
                               "self and non-nested other")
        else:
            others = (other,) * len(self._nt_parts)
        for p, o in zip(self._nt_parts, others):
            method(p, o, *rest, **kwargs)
        return self
    return form


NestedTensor.add_ = NestedTensor.__iadd__ = _in_place("add_")
NestedTensor.mul_ = NestedTensor.__imul__ = _in_place("mul_")
NestedTensor.__truediv__ = NestedTensor.div
NestedTensor.__neg__ = NestedTensor.neg
NestedTensor.__radd__ = NestedTensor.add
NestedTensor.__rmul__ = NestedTensor.mul


# ----------------------------------------------------------------------------- constructors

def _constituents(tensor_list, dtype):
    from .._factories import tensor as _tensor
    if not isinstance(tensor_list, list):
        raise TypeError("Only lists (List[Tensor] and List[List...[Scalar]]) are accepted "
                        "in nested_tensor")
    parts = [t if isinstance(t, Tensor) else _tensor(t, dtype=dtype) for t in tensor_list]
    for i, p in enumerate(parts):
        if p.ndim != parts[0].ndim:
            raise RuntimeError("All Tensors given to nested_tensor must have the same "
                               f"dimension. Found dimension {p.ndim} for Tensor at index {i} "
                               f"and dimension {parts[0].ndim} for Tensor at index 0.")
    if dtype is None and parts:
        dtype = parts[0].dtype
    return parts, dtype


def nested_tensor(tensor_list, *, dtype=None, layout=None, device=None,
                  requires_grad: bool = False, pin_memory: bool = False) -> NestedTensor:
    """A nested tensor (a leaf, no autograd history) from a list of tensors or of nested
    lists of numbers, copied; constituents of other dtypes are cast to the first's (or
    ``dtype``)."""
    _check_layout(layout)
    parts, dtype = _constituents(tensor_list, dtype)
    with grad_mode.no_grad():
        parts = [p.detach().to(dtype).clone() for p in parts]
    nt = _make(parts)
    if requires_grad:
        if not (nt.dtype.is_floating_point or nt.dtype.is_complex):
            from .._errors import INT_REQUIRES_GRAD_FACTORY
            raise RuntimeError(INT_REQUIRES_GRAD_FACTORY)
        nt.requires_grad_()
    return nt


def as_nested_tensor(ts, dtype=None, device=None, layout=None) -> NestedTensor:
    """A nested tensor from a list of tensors (or the slices of a tensor along dim 0),
    keeping the autograd history: gradients flow back to the given tensors."""
    _check_layout(layout)
    if isinstance(ts, NestedTensor):
        return ts if dtype is None else ts.to(dtype)
    if isinstance(ts, Tensor):
        ts = list(ts.unbind(0))
    elif isinstance(ts, tuple):
        ts = list(ts)
    if not (isinstance(ts, list) and all(isinstance(t, Tensor) for t in ts)):
        raise TypeError("as_nested_tensor(): Expected first argument to be a tensor or a list "
                        "/ tuple of tensors ")
    parts, dtype = _constituents(ts, dtype)
    return _make((p.to(dtype).clone() for p in parts), "NestedTensorFromTensorListBackward0")


def _check_layout(layout):
    from .._layout import strided
    if layout is not None and layout is not strided:
        raise RuntimeError(f"Specified layout is unsupported for nested tensors: {layout}")


def to_padded_tensor(input, padding: float, output_size=None) -> Tensor:
    """The constituents of nested tensor ``input`` stacked into a dense tensor, each padded
    at the end of every dimension with ``padding`` to the largest size (or ``output_size``);
    node ``ToPaddedTensorBackward0``."""
    if not isinstance(input, NestedTensor):
        raise NotImplementedError(no_kernel("to_padded_tensor", "CPU"))
    parts = input._nt_parts
    if not input.is_contiguous():
        raise RuntimeError("for now to_padded_tensor only supports contiguous nested tensor")
    inner = input.ndim - 1
    sizes = [p._data.shape for p in parts]
    big = [max((s[d] for s in sizes), default=0) for d in range(inner)]
    if output_size is not None:
        output_size = tuple(output_size)
        if len(output_size) != input.ndim:
            raise RuntimeError("Length of output_size does not match NestedTensor dims. "
                               "Broadcasting is not supported.")
        if output_size[0] < len(parts) or any(o < b for o, b in zip(output_size[1:], big)):
            raise RuntimeError("Value in output_size is less than NestedTensor padded size. "
                               "Truncation is not supported.")
        shape = output_size
    else:
        shape = (len(parts), *big)
    dt = input._data.dtype
    out = np.full(shape, padding, dt)
    for i, p in enumerate(parts):
        out[(i, *(slice(0, n) for n in p._data.shape))] = p._data
    res = Tensor._wrap(out)

    def backward(g):
        return tuple(g[(i, *(slice(0, n) for n in s))] for i, s in enumerate(sizes))
    return _record(res, "ToPaddedTensorBackward0", parts, backward)


def linear(input: NestedTensor, weight: Tensor, bias: Tensor | None = None) -> NestedTensor:
    """``F.linear`` of a 3-d nested tensor: the constituents' rows in one product with
    ``weight.t()``, then ``bias`` added (torch's ``NestedTensor_linear``)."""
    from .. import _ops
    if input.ndim != 3 or weight.ndim != 2:
        raise RuntimeError("Linear requires nested_tensor.dim == 3 and dense_matrix.dim == 2. "
                           f"Nested tensor dim: {input.ndim}. Dense tensor dim: {weight.ndim}")
    last = input.size(2)
    if last != weight.shape[1]:
        raise RuntimeError("Shape mismatch for NestedTensor Linear: Expected input's (a nested "
                           "tensor) 'last_dim' to equal 'weight.size(1), but got: last_dim = "
                           f"{last}, and weight.size(1) = {weight.shape[1]}")
    parts = input._nt_parts
    out = _ops.cat(parts).matmul(weight.t())
    if bias is not None:
        out = out + bias
    return _make(out.split([p._data.shape[0] for p in parts]), "LinearBackward0")


def nested_op(name: str, *args):
    """Op ``name`` (``matmul``, ``bmm``) where one of its operands is nested: the entry
    points call it from their error path, so that dense calls pay nothing."""
    if not any(isinstance(a, NestedTensor) for a in args):
        return None
    if not isinstance(args[0], NestedTensor):
        raise RuntimeError("Expected both to be nested, but got a non-nested self and nested "
                           "other")
    return args[0].matmul(args[1], "BmmBackward0" if name == "bmm" else "MatmulBackward0")
