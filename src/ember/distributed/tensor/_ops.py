"""DTensor's sharding rules: for each operation, the placements its arguments must have
and the placements of its result, as torch's sharding propagation gives them for the ops
tensor-parallel code runs (pointwise ops, linear/matmul, embedding, reductions, softmax,
layer norm, views, cross entropy); any other op gathers its arguments whole.

Each rule lays the DTensor arguments out (``redistribute``), runs the operation on the
local pieces, and wraps the result. Autograd runs through the local pieces; a replicated
input of a result that is sharded or partial sees on each rank only its rank's term of its
gradient, so its gradient is summed over that mesh dimension in backward.
"""

from __future__ import annotations

import inspect

import numpy as np

from ..._tensor import Tensor
from ...overrides import _DisableTorchFunctionSubclass
from . import _redistribute as R
from ._api import DTensor, DTensorSpec
from .placement_types import Partial, Replicate, Shard, _MaskPartial, _NormPartial

_HANDLERS: dict = {}
_SIGNATURES: dict = {}


def _name(func) -> str:
    name = func.__name__
    if name == "__get__":
        return func.__qualname__.rsplit(".", 1)[-1]
    return name


def dispatch(func, args, kwargs):
    """``DTensor.__torch_function__``: the op's rule, with subclass dispatch off."""
    name = _name(func)
    with _DisableTorchFunctionSubclass():
        if name in _META:
            return func(*_locals_only(args), **_locals_only(kwargs))
        return _HANDLERS.get(name, _fallback)(name, func, args, kwargs)


def _rule(*names):
    def register(fn):
        for n in names:
            _HANDLERS[n] = fn
        return fn
    return register


# ------------------------------------------------------------------ arguments

def _walk(obj, fn):
    """``obj`` with ``fn`` applied to each DTensor (in lists, tuples and dicts)."""
    if isinstance(obj, DTensor):
        return fn(obj)
    if obj.__class__ in (list, tuple):
        return obj.__class__(_walk(o, fn) for o in obj)
    if obj.__class__ is dict:
        return {k: _walk(v, fn) for k, v in obj.items()}
    return obj


def _locals_only(obj):
    return _walk(obj, lambda d: d._local_tensor)


def _flat(args, kwargs) -> list:
    out = []

    def visit(o):
        if o.__class__ in (list, tuple):
            for x in o:
                visit(x)
        elif o.__class__ is dict:
            for x in o.values():
                visit(x)
        else:
            out.append(o)
    visit(args)
    visit(kwargs)
    return out


def _dtensors(args, kwargs) -> list:
    seen, out = set(), []
    for a in _flat(args, kwargs):
        if isinstance(a, DTensor) and id(a) not in seen:
            seen.add(id(a))
            out.append(a)
    return out


def _mesh_of(dts):
    mesh = dts[0].device_mesh
    for d in dts[1:]:
        if d.device_mesh != mesh:
            raise NotImplementedError("DTensor does not support cross-mesh operation yet! Got "
                                      f"meshes: {mesh} {d.device_mesh}")
    return mesh


def _bound(func, args, kwargs) -> dict:
    """The call's arguments by parameter name (the defaults left out)."""
    sig = _SIGNATURES.get(func)
    if sig is None:
        sig = _SIGNATURES[func] = inspect.signature(func)
    return sig.bind(*args, **kwargs).arguments


def _no_mixing(name, args, kwargs, overload: str = "Tensor") -> None:
    for a in _flat(args, kwargs):
        if isinstance(a, Tensor) and not isinstance(a, DTensor) and a.ndim > 0:
            raise RuntimeError(f"aten.{name}.{overload} got mixed torch.Tensor and DTensor, need "
                               "to convert all torch.Tensor to DTensor before calling "
                               "distributed operators!")


def _call(func, args, kwargs, mesh, targets: dict, out_placements):
    """Run ``func`` on the local pieces of the DTensor arguments laid out as ``targets``
    (by ``id``; their own placements when absent)."""
    done: dict = {}

    def local(d):
        key = id(d)
        if key in done:
            return done[key]
        want = tuple(targets.get(key, d.placements))
        loc = R.redistribute_local(d._local_tensor, d._spec.shape, mesh, d.placements, want)
        if loc.requires_grad:
            for i, p in enumerate(want):
                if p.is_replicate() and not out_placements[i].is_replicate():
                    loc = R.grad_all_reduce(loc, mesh, i)
        done[key] = loc
        return loc

    return func(*_walk(args, local), **_walk(kwargs, local))


def _wrap(out, mesh, placements, shape):
    if isinstance(out, Tensor):
        return DTensor._make(out, DTensorSpec(mesh, placements, shape))
    return out


def _linear_partial(p) -> bool:
    """Whether ``p`` is a partial that linear ops carry through (a sum or average; not a
    maximum, a minimum or a norm's pieces)."""
    return p.is_partial() and not isinstance(p, _NormPartial) and p.reduce_op in ("sum", "avg")


def _replicate_all(mesh) -> tuple:
    return (Replicate(),) * mesh.ndim


def _norm(dim: int, ndim: int) -> int:
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {dim})")
    return dim + ndim if dim < 0 else dim


# ------------------------------------------------------------------ metadata: no communication

_META = frozenset({
    "dtype", "device", "layout", "is_cuda", "is_sparse", "is_quantized", "is_meta",
    "is_mps", "is_floating_point", "is_complex", "is_signed", "element_size", "itemsize",
    "is_contiguous", "data_ptr", "_version", "storage_offset", "is_inference", "get_device",
    "nbytes", "names", "is_nested", "is_mkldnn", "is_xpu", "is_cpu",
    "untyped_storage", "output_nr", "_base", "is_shared", "is_pinned", "dim_order"})


# ------------------------------------------------------------------ fallback

def _fallback(name, func, args, kwargs):
    """Any other op: its DTensor arguments gathered whole; a result replicated."""
    dts = _dtensors(args, kwargs)
    mesh = _mesh_of(dts)
    rep = _replicate_all(mesh)
    inplace = name.endswith("_") and not name.endswith("__") and args and args[0] is dts[0]
    if inplace and dts[0].placements != rep:
        raise NotImplementedError(f"Operator {name} has no sharding rule for a DTensor laid "
                                  f"out as {dts[0].placements}")
    out = _call(func, args, kwargs, mesh, {id(d): rep for d in dts}, rep)
    if inplace:
        return args[0]
    return _wrap_tree(out, mesh, rep)


def _wrap_tree(out, mesh, placements):
    if isinstance(out, Tensor):
        return _wrap(out, mesh, placements, tuple(out.shape))
    if isinstance(out, (tuple, list)):
        items = [_wrap_tree(o, mesh, placements) for o in out]
        if hasattr(out, "_fields"):
            return type(out)(*items)
        return type(out)(items)
    return out


# ------------------------------------------------------------------ pointwise

_POINTWISE = (
    "add", "sub", "mul", "div", "true_divide", "divide", "multiply", "subtract", "rsub",
    "__rsub__", "__rdiv__", "__rtruediv__", "__radd__", "__rmul__", "__rpow__", "pow",
    "neg", "negative", "abs", "exp", "expm1", "log", "log1p", "log2", "sqrt", "rsqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "relu6", "gelu", "silu", "mish", "elu", "selu",
    "leaky_relu", "hardtanh", "hardswish", "hardsigmoid", "softplus", "erf", "reciprocal",
    "square", "sign", "floor", "ceil", "round", "trunc", "clamp", "clip", "clamp_min",
    "clamp_max", "maximum", "minimum", "where", "lerp", "addcmul", "addcdiv", "eq", "ne",
    "lt", "le", "gt", "ge", "logical_not", "logical_and", "logical_or", "isnan", "isinf",
    "isfinite", "nan_to_num", "masked_fill", "dropout", "clone", "contiguous", "to",
    "float", "double", "half", "bfloat16", "int", "long", "bool", "type_as", "fmod",
    "remainder", "atan2", "tan", "asin", "acos", "atan", "sinh", "cosh", "exp2", "frac",
    "add_", "sub_", "mul_", "div_", "neg_", "clamp_", "copy_", "zero_", "fill_", "relu_",
    "normal_", "uniform_", "masked_fill_", "pow_", "sqrt_", "exp_", "tanh_", "sigmoid_",
    "addcmul_", "addcdiv_", "lerp_", "mul_", "__iadd__", "__isub__", "__imul__", "__itruediv__",
    "__and__", "__or__", "__xor__", "__invert__", "bitwise_not", "bitwise_and", "bitwise_or",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__sub__",
    "__mul__", "__truediv__", "__neg__", "__pow__", "__abs__")

_LINEAR_UNARY = frozenset({"neg", "negative", "clone", "contiguous", "to", "float", "double",
                           "half", "bfloat16", "type_as", "neg_", "zero_", "__neg__"})
_LINEAR_SUM = frozenset({"add", "sub", "subtract", "__radd__", "rsub", "__rsub__", "add_",
                         "sub_", "__iadd__", "__isub__", "__add__", "__sub__"})
_LINEAR_SCALE = frozenset({"mul", "multiply", "__rmul__", "div", "divide", "true_divide",
                           "mul_", "div_", "__imul__", "__itruediv__", "__mul__",
                           "__truediv__"})


def _keeps_partial(name, args, kwargs, dts) -> bool:
    """Whether the op maps partial terms to partial terms (a sum of partials, a partial
    scaled by a number)."""
    if name in _LINEAR_UNARY:
        return True
    operands = [a for a in args if isinstance(a, (Tensor, int, float, complex))]
    if name in _LINEAR_SUM:
        return all(isinstance(a, DTensor) for a in operands)
    if name in _LINEAR_SCALE:
        return len(dts) == 1 and args[0] is dts[0] and all(
            a is dts[0] or not isinstance(a, Tensor) or a.ndim == 0 for a in operands)
    return False


@_rule(*_POINTWISE)
def _pointwise(name, func, args, kwargs):
    _no_mixing(name, args, kwargs)
    dts = _dtensors(args, kwargs)
    mesh = _mesh_of(dts)
    inplace = (name.endswith("_") and not name.endswith("__")) or name.startswith("__i")
    if inplace and args[0] is not dts[0]:
        inplace = False
    shape = tuple(np.broadcast_shapes(*(d._spec.shape for d in dts)))
    if inplace:
        shape = dts[0]._spec.shape
    out_pl, targets = [], {id(d): [] for d in dts}
    for i in range(mesh.ndim):
        p = None
        if inplace:
            q = dts[0].placements[i]
            p = Shard(q.dim + len(shape) - dts[0].ndim) if q.is_shard() else q
        else:
            for d in dts:
                q = d.placements[i]
                if q.is_shard():
                    od = q.dim + len(shape) - d.ndim
                    if d._spec.shape[q.dim] == shape[od]:
                        p = Shard(od)
                        break
        if p is None:
            ps = {d.placements[i] for d in dts}
            if len(ps) == 1 and _linear_partial(next(iter(ps))) \
                    and _keeps_partial(name, args, kwargs, dts):
                p = next(iter(ps))
            else:
                p = Replicate()
        out_pl.append(p)
        for d in dts:
            if p.is_shard():
                k = p.dim - (len(shape) - d.ndim)
                t = Shard(k) if k >= 0 and d._spec.shape[k] == shape[p.dim] else Replicate()
            else:
                t = p
            targets[id(d)].append(t)
    if inplace and tuple(targets[id(dts[0])]) != dts[0].placements:
        raise RuntimeError(f"{name}: an in-place op cannot change its input's placements "
                           f"{dts[0].placements}")
    out = _call(func, args, kwargs, mesh, targets, out_pl)
    if inplace:
        return args[0]
    return _wrap(out, mesh, tuple(out_pl), shape)


@_rule("zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
       "zero_like")
def _like(name, func, args, kwargs):
    d = args[0]
    out = func(d._local_tensor, *_locals_only(args[1:]), **_locals_only(kwargs))
    return _wrap(out, d.device_mesh, d.placements, d._spec.shape)


# ------------------------------------------------------------------ matmul and linear

def _matmul_layout(a, b, mesh):
    """Targets and result placements of ``a @ b`` (both at least 2-d): per mesh dimension,
    a split batch or row of ``a`` or column of ``b`` stays split, a split contraction on
    both gives a partial sum, a partial times a replicated stays partial; anything else is
    replicated first."""
    na, nb = a.ndim, b.ndim
    nout = max(na, nb)
    ta, tb, out = [], [], []
    for i in range(mesh.ndim):
        pa, pb = a.placements[i], b.placements[i]
        rep = Replicate()
        pa = rep if pa.is_partial() and not _linear_partial(pa) else pa
        pb = rep if pb.is_partial() and not _linear_partial(pb) else pb
        choice = None
        if pa.is_shard() and pb.is_shard() and pa.dim == na - 1 and pb.dim == nb - 2:
            choice = (pa, pb, Partial())
        elif pa.is_shard() and pa.dim != na - 1 and not pb.is_partial():
            od = pa.dim + nout - na
            if pa.dim < na - 2:         # a batch dim: b's matching batch dim follows it
                k = od - (nout - nb)
                tb_ = Shard(k) if 0 <= k < nb - 2 and b._spec.shape[k] == a._spec.shape[pa.dim] \
                    else rep
                choice = (pa, tb_, Shard(od))
            else:
                choice = (pa, rep, Shard(od))
        elif pb.is_shard() and pb.dim == nb - 1 and not pa.is_partial():
            choice = (rep, pb, Shard(nout - 1))
        elif pb.is_shard() and pb.dim < nb - 2 and not pa.is_partial():
            od = pb.dim + nout - nb
            k = od - (nout - na)
            ta_ = Shard(k) if 0 <= k < na - 2 and a._spec.shape[k] == b._spec.shape[pb.dim] else rep
            choice = (ta_, pb, Shard(od))
        elif pa.is_partial() and not pb.is_partial() and not pb.is_shard():
            choice = (pa, rep, pa)
        elif pb.is_partial() and not pa.is_partial() and not pa.is_shard():
            choice = (rep, pb, pb)
        elif pb.is_shard() and pb.dim == nb - 2 and not pa.is_partial():
            choice = (Shard(na - 1), pb, Partial())     # split contraction: split a to match
        elif pa.is_shard() and pa.dim == na - 1:        # split contraction, b not split
            choice = (pa, Shard(nb - 2), Partial())
        else:
            choice = (rep, rep, rep)
        ta.append(choice[0])
        tb.append(choice[1])
        out.append(choice[2])
    return ta, tb, out


def _matmul_shape(sa, sb):
    batch = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
    return batch + (sa[-2], sb[-1])


@_rule("matmul", "mm", "bmm", "__matmul__", "__rmatmul__")
def _matmul(name, func, args, kwargs):
    _no_mixing(name, args, kwargs)
    a, b = args[0], args[1]
    if name == "__rmatmul__":
        a, b = b, a
    if not (isinstance(a, DTensor) and isinstance(b, DTensor)) or a.ndim < 2 or b.ndim < 2:
        return _fallback(name, func, args, kwargs)
    mesh = _mesh_of([a, b])
    ta, tb, out = _matmul_layout(a, b, mesh)
    res = _call(func, args, kwargs, mesh, {id(a): ta, id(b): tb}, out)
    return _wrap(res, mesh, tuple(out), _matmul_shape(a._spec.shape, b._spec.shape))


class _Transposed:
    """A stand-in for ``weight.t()`` in the layout rule of ``linear``."""

    def __init__(self, w) -> None:
        self.ndim = 2
        self._spec = DTensorSpec(w.device_mesh, tuple(
            Shard(1 - p.dim) if p.is_shard() else p for p in w.placements),
            tuple(reversed(w._spec.shape)))
        self.placements = self._spec.placements


@_rule("linear")
def _linear(name, func, args, kwargs):
    _no_mixing(name, args, kwargs)
    b = _bound(func, args, kwargs)
    x, w, bias = b["input"], b["weight"], b.get("bias")
    if not isinstance(x, DTensor) or not isinstance(w, DTensor) or x.ndim < 2:
        return _fallback(name, func, args, kwargs)
    mesh = _mesh_of(_dtensors(args, kwargs))
    ta, twt, out = _matmul_layout(x, _Transposed(w), mesh)
    tw = [Shard(1 - p.dim) if p.is_shard() else p for p in twt]
    targets = {id(x): ta, id(w): tw}
    if isinstance(bias, DTensor):
        targets[id(bias)] = [Shard(0) if p.is_shard() else p for p in out]
    res = _call(func, args, kwargs, mesh, targets, out)
    return _wrap(res, mesh, tuple(out), tuple(x._spec.shape[:-1]) + (w._spec.shape[0],))


# ------------------------------------------------------------------ embedding

@_rule("embedding")
def _embedding(name, func, args, kwargs):
    b = _bound(func, args, kwargs)
    ids, w = b["input"], b["weight"]
    if not isinstance(w, DTensor):
        return _fallback(name, func, args, kwargs)
    mesh = w.device_mesh
    shape = tuple(ids.shape) + (w._spec.shape[1],)
    id_pl = ids.placements if isinstance(ids, DTensor) else _replicate_all(mesh)
    tw, tid, out = [], [], []
    for i in range(mesh.ndim):
        p = w.placements[i]
        if p.is_shard(1):
            tw.append(p)
            tid.append(Replicate())
            out.append(Shard(len(shape) - 1))
        elif p.is_shard(0):
            tw.append(p)
            tid.append(Replicate())
            out.append(_MaskPartial("sum", w.shape, 0))
        else:
            tw.append(Replicate())
            q = id_pl[i]
            tid.append(q if q.is_shard() else Replicate())
            out.append(q if q.is_shard() else Replicate())
    rows = [i for i, p in enumerate(tw) if p.is_shard(0)]
    if rows:
        return _row_sharded_embedding(b, ids, w, mesh, tw, tid, out, shape, rows)
    targets = {id(w): tw}
    if isinstance(ids, DTensor):
        targets[id(ids)] = tid
    res = _call(func, args, kwargs, mesh, targets, out)
    return _wrap(res, mesh, tuple(out), shape)


def _row_sharded_embedding(b, ids, w, mesh, tw, tid, out, shape, rows):
    """Rows of the table split over the ranks: each looks up the ids in its rows and gives
    zeros for the others, a partial sum (torch's ``_MaskPartial``)."""
    import sys
    F = sys.modules["ember.nn.functional"]
    ids_local = ids
    if isinstance(ids, DTensor):
        ids_local = R.redistribute_local(ids._local_tensor, ids._spec.shape, mesh,
                                         ids.placements, tid)
    wl = R.redistribute_local(w._local_tensor, w._spec.shape, mesh, w.placements, tw)
    for i, p in enumerate(tw):
        if p.is_replicate() and not out[i].is_replicate() and wl.requires_grad:
            wl = R.grad_all_reduce(wl, mesh, i)
    idx = ids_local._data.astype(np.int64)
    start, stop = 0, w._spec.shape[0]
    for i in rows:
        a, z = R.chunk_bounds(stop - start, mesh.size(i), mesh.get_local_rank(i))
        start, stop = start + a, start + z
    outside = (idx < start) | (idx >= stop)
    local_idx = Tensor._wrap(np.where(outside, 0, idx - start))
    looked = F.embedding(local_idx, wl)
    keep = Tensor._wrap((~outside)[..., None].astype(looked._data.dtype))
    return _wrap(looked * keep, mesh, tuple(out), shape)


# ------------------------------------------------------------------ reductions

def _reduce_dims(value, ndim: int):
    if value is None:
        return list(range(ndim))
    if isinstance(value, int):
        return [_norm(value, ndim)]
    return sorted(_norm(v, ndim) for v in value)


@_rule("sum", "mean")
def _sum_mean(name, func, args, kwargs):
    b = _bound(func, args, kwargs)
    x = b.get("input", b.get("self", args[0]))
    if not isinstance(x, DTensor):
        return _fallback(name, func, args, kwargs)
    mesh = x.device_mesh
    dims = _reduce_dims(b.get("dim"), x.ndim)
    keep = bool(b.get("keepdim", False))
    shape = tuple(1 if d in dims else s for d, s in enumerate(x._spec.shape) if keep
                  or d not in dims)
    target, out = [], []
    for i, p in enumerate(x.placements):
        if p.is_shard() and p.dim in dims:
            even = x._spec.shape[p.dim] % mesh.size(i) == 0
            if name == "sum":
                target.append(p)
                out.append(Partial())
            elif even and all(not q.is_shard(p.dim) for q in x.placements[:i]):
                target.append(p)
                out.append(Partial("avg"))
            else:
                target.append(Replicate())
                out.append(Replicate())
        elif p.is_shard():
            target.append(p)
            out.append(Shard(p.dim - (0 if keep else sum(d < p.dim for d in dims))))
        elif _linear_partial(p):
            target.append(p)
            out.append(p)
        else:
            target.append(Replicate())
            out.append(Replicate())
    res = _call(func, args, kwargs, mesh, {id(x): target}, out)
    return _wrap(res, mesh, tuple(out), shape)


@_rule("norm", "linalg_vector_norm", "vector_norm")
def _vector_norm(name, func, args, kwargs):
    """The norm of a whole DTensor (no ``dim``, no gradient): each rank's piece's norm, a
    partial norm over the sharded mesh dimensions (torch's ``_NormPartial``, or a partial
    maximum or minimum), nothing gathered."""
    b = _bound(func, args, kwargs)
    x = b.get("input", b.get("self", args[0]))
    p = b.get("ord", b.get("p", 2))
    p = 2.0 if p in ("fro", None) else p
    if not isinstance(x, DTensor) or b.get("dim") is not None or b.get("keepdim") \
            or x.requires_grad or not isinstance(p, (int, float)) or len(_dtensors(args, {})) > 1:
        return _fallback(name, func, args, kwargs)
    mesh = x.device_mesh
    target = tuple(Replicate() if q.is_partial() else q for q in x.placements)
    local = R.redistribute_local(x._local_tensor, x._spec.shape, mesh, x.placements, target)
    out = func(local, *args[1:], **kwargs)
    inf = float("inf")
    partial = Partial("max") if p == inf else Partial("min") if p == -inf else _NormPartial(p)
    placements = tuple(partial if q.is_shard() else Replicate() for q in target)
    return _wrap(out, mesh, placements, ())


# ------------------------------------------------------------------ along one dim

def _whole_along(name, func, args, kwargs, x, dims):
    """An op that needs dimensions ``dims`` whole and keeps the shape: shards of other
    dimensions stay, partials are summed first."""
    mesh = x.device_mesh
    target = [p if p.is_shard() and p.dim not in dims else Replicate() for p in x.placements]
    others = {id(d): _replicate_all(mesh) for d in _dtensors(args, kwargs) if d is not x}
    others[id(x)] = target
    res = _call(func, args, kwargs, mesh, others, target)
    return _wrap_tree(res, mesh, tuple(target)) if not isinstance(res, Tensor) else \
        _wrap(res, mesh, tuple(target), x._spec.shape)


@_rule("softmax", "log_softmax", "cumsum", "argsort", "sort", "cumprod")
def _along_dim(name, func, args, kwargs):
    b = _bound(func, args, kwargs)
    x = b.get("input", b.get("self", args[0]))
    dim = b.get("dim")
    if not isinstance(x, DTensor) or dim is None:
        return _fallback(name, func, args, kwargs)
    return _whole_along(name, func, args, kwargs, x, [_norm(dim, x.ndim)])


@_rule("layer_norm", "rms_norm")
def _norms(name, func, args, kwargs):
    b = _bound(func, args, kwargs)
    x = b["input"]
    if not isinstance(x, DTensor):
        return _fallback(name, func, args, kwargs)
    k = len(tuple(b["normalized_shape"])) if not isinstance(b["normalized_shape"], int) else 1
    return _whole_along(name, func, args, kwargs, x, list(range(x.ndim - k, x.ndim)))


# ------------------------------------------------------------------ shapes

@_rule("t", "transpose", "permute", "swapaxes", "swapdims", "movedim", "unsqueeze", "T", "mT")
def _permute(name, func, args, kwargs):
    x = args[0]
    mesh = x.device_mesh
    n = x.ndim
    if name in ("t", "T", "mT") or (name == "transpose" and n < 2 and not args[1:]):
        order = list(range(n))
        if n >= 2:
            order[-1], order[-2] = order[-2], order[-1]
    elif name in ("transpose", "swapaxes", "swapdims"):
        b = _bound(func, args, kwargs)
        vals = [v for k, v in b.items() if k not in ("self", "input")]
        d0, d1 = _norm(vals[0], n), _norm(vals[1], n)
        order = list(range(n))
        order[d0], order[d1] = d1, d0
    elif name == "permute":
        dims = args[1] if len(args) == 2 and isinstance(args[1], (list, tuple)) else \
            args[1:] or kwargs.get("dims")
        order = [_norm(d, n) for d in dims]
    elif name == "movedim":
        return _fallback(name, func, args, kwargs)
    else:           # unsqueeze
        d = _norm(_bound(func, args, kwargs)["dim"], n + 1)
        order = list(range(n))
        order.insert(d, None)
    shape = tuple(1 if o is None else x._spec.shape[o] for o in order)
    out = tuple(Shard(order.index(p.dim)) if p.is_shard() else p for p in x.placements)
    res = _call(func, args, kwargs, mesh, {}, out)
    return _wrap(res, mesh, out, shape)


def _resolve_shape(shape, numel: int) -> tuple:
    shape = list(shape)
    if -1 in shape:
        i = shape.index(-1)
        rest = int(np.prod([s for j, s in enumerate(shape) if j != i], dtype=np.int64))
        shape[i] = numel // rest if rest else 0
    return tuple(int(s) for s in shape)


def _shard_to(in_shape, out_shape, d: int, n: int):
    """The output dimension a shard of input dimension ``d`` becomes under a reshape, or
    None: where the elements before it are the same, the dimension kept, or split or merged
    with it outermost in pieces that divide evenly."""
    before = int(np.prod(in_shape[:d], dtype=np.int64))
    acc = 1
    for od, size in enumerate(out_shape):
        if acc == before and size != 1 or (acc == before and size == in_shape[d]):
            if size == in_shape[d]:
                return od
            if size % n == 0 and in_shape[d] % n == 0:
                return od
            return None
        acc *= size
        if acc > before and before:
            return None
    return None


@_rule("view", "reshape", "flatten", "view_as", "reshape_as", "unflatten")
def _reshape(name, func, args, kwargs):
    x = args[0]
    if not isinstance(x, DTensor):
        return _fallback(name, func, args, kwargs)
    mesh = x.device_mesh
    numel = x.numel()
    b = _bound(func, args, kwargs)
    if name in ("view_as", "reshape_as"):
        shape = tuple(b["other"].shape)
    elif name == "flatten":
        start = _norm(b.get("start_dim", 0), max(x.ndim, 1))
        end = _norm(b.get("end_dim", -1), max(x.ndim, 1))
        s = x._spec.shape
        shape = s[:start] + (int(np.prod(s[start:end + 1], dtype=np.int64)),) + s[end + 1:] \
            if x.ndim else (1,)
    elif name == "unflatten":
        d = _norm(b["dim"], x.ndim)
        s = x._spec.shape
        sizes = _resolve_shape(b["sizes"], s[d])
        shape = s[:d] + sizes + s[d + 1:]
    else:
        rest = [v for k, v in b.items() if k not in ("self", "input")]
        while len(rest) == 1 and isinstance(rest[0], (list, tuple)):   # (sizes packed)
            rest = list(rest[0])
        if len(rest) == 1 and not isinstance(rest[0], int):        # view(dtype)
            return _fallback(name, func, args, kwargs)
        shape = _resolve_shape(rest, numel)
    target, out = [], []
    local_shape = list(shape)
    for i, p in enumerate(x.placements):
        od = _shard_to(x._spec.shape, shape, p.dim, mesh.size(i)) if p.is_shard() else None
        if p.is_shard() and od is not None and not any(q.is_shard(p.dim)
                                                       for q in x.placements[:i]):
            target.append(p)
            out.append(Shard(od))
            a, z = R.chunk_bounds(x._spec.shape[p.dim], mesh.size(i), mesh.get_local_rank(i))
            local_shape[od] = shape[od] * (z - a) // x._spec.shape[p.dim]
        elif p.is_shard():
            target.append(Replicate())
            out.append(Replicate())
        else:
            target.append(p)
            out.append(p)
    local_fn = (lambda t: t.reshape(tuple(local_shape))) if name != "view" else \
        (lambda t: t.view(tuple(local_shape)))
    res = _call(local_fn, (x,), {}, mesh, {id(x): target}, out)
    return _wrap(res, mesh, tuple(out), tuple(shape))


# ------------------------------------------------------------------ losses

class _LossParallel:
    """Whether ``loss_parallel()`` is on (cross entropy on class-sharded logits)."""

    depth = 0


@_rule("cross_entropy")
def _cross_entropy(name, func, args, kwargs):
    b = _bound(func, args, kwargs)
    x, target = b["input"], b["target"]
    if isinstance(x, DTensor) and _LossParallel.depth:
        cdim = 1 if x.ndim >= 2 else 0
        if any(p.is_shard(cdim) for p in x.placements):
            from .parallel.loss import _sharded_cross_entropy
            return _sharded_cross_entropy(x, target, cdim, b)
    _no_mixing("nll_loss_forward", args, kwargs, "default")
    return _fallback(name, func, args, kwargs)


del annotations
