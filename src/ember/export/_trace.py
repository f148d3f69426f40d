"""Tracing a module into an ATen-level graph, as ``torch.export`` does without strict mode.

The module runs eagerly on real tensors while the public functions of ``ember``,
``ember.nn.functional`` (and the other namespaces :mod:`ember.fx` patches) and the methods
of ``Tensor`` are patched with recorders: the outermost call that meets a traced tensor
becomes one ``call_function`` node of its ATen op (``F.linear`` -> ``aten.linear.default``,
``x + 1`` -> ``aten.add.Tensor``), with the arguments torch records (see
:mod:`._schema`); what the call does inside is not recorded. Parameters and buffers are
lifted to ``p_``/``b_`` inputs. A tensor used in control flow raises as torch does.

Dynamic dimensions: the trace runs once more for each symbol, with that dimension one
larger, and once with all of them moved; the sizes and integer arguments that follow a
symbol are fitted to ``a*s + b`` or ``c*s*t`` and become symbolic (``s77``, ``sym_size``
nodes), as torch's fake tensors would have them.
"""

from __future__ import annotations

import hashlib
import inspect
import operator
import os
import traceback
from typing import Any

from ..fx.graph import Graph
from ..fx.node import Node, map_aggregate
from . import _schema

_ACTIVE: _Recorder | None = None
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_MODULES_DIR = os.path.join(_PACKAGE_DIR, "nn", "modules") + os.sep

# torch's Python functions that record a differently named ATen op or reorder arguments:
# name -> (ATen op, the op's arguments as the function's parameter names (``a|b``: either;
# ``a=v``: ``v`` when None) or constants)
_FUNCTION_FORMS = {
    "batch_norm": ("batch_norm", ("input", "weight", "bias", "running_mean", "running_var",
                                  "training", "momentum", "eps", False)),
    "layer_norm": ("layer_norm", ("input", "normalized_shape", "weight", "bias", "eps",
                                  False)),
    "group_norm": ("group_norm", ("input", "num_groups", "weight", "bias", "eps", False)),
    "instance_norm": ("instance_norm", ("input", "weight", "bias", "running_mean",
                                        "running_var", "use_input_stats", "momentum", "eps",
                                        False)),
    "dropout": ("dropout", ("input", "p", "training|train")),
    "embedding": ("embedding", ("weight", "input", "padding_idx=-1")),
    "softmax": ("softmax", ("input", "dim", "dtype")),
    "log_softmax": ("log_softmax", ("input", "dim", "dtype")),
    "max_pool2d": ("max_pool2d", ("input", "kernel_size", "stride=[]", "padding",
                                  "dilation", "ceil_mode")),
    "max_pool1d": ("max_pool1d", ("input", "kernel_size", "stride=[]", "padding",
                                  "dilation", "ceil_mode")),
    "cross_entropy": ("cross_entropy_loss", ("input", "target", "weight", "reduction",
                                             "ignore_index", "label_smoothing")),
}
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

# Tensor operators -> (ATen op, whether the operands swap)
_DUNDERS = {
    "__add__": ("add", False), "__radd__": ("add", False), "__iadd__": ("add_", False),
    "__sub__": ("sub", False), "__rsub__": ("rsub", False), "__isub__": ("sub_", False),
    "__mul__": ("mul", False), "__rmul__": ("mul", False), "__imul__": ("mul_", False),
    "__truediv__": ("div", False), "__itruediv__": ("div_", False),
    "__matmul__": ("matmul", False), "__rmatmul__": ("matmul", True),
    "__neg__": ("neg", False), "__pow__": ("pow", False), "__abs__": ("abs", False),
    "__eq__": ("eq", False), "__ne__": ("ne", False), "__lt__": ("lt", False),
    "__le__": ("le", False), "__gt__": ("gt", False), "__ge__": ("ge", False),
    "__floordiv__": ("floor_divide", False), "__mod__": ("remainder", False),
    "__and__": ("bitwise_and", False), "__or__": ("bitwise_or", False),
    "__xor__": ("bitwise_xor", False), "__invert__": ("bitwise_not", False),
}
_UNPATCHED_METHODS = {
    "__init__", "__new__", "__repr__", "__str__", "__format__", "__hash__", "__len__",
    "__iter__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__reduce__",
    "__reduce_ex__", "__deepcopy__", "__copy__", "__array__", "__dir__", "__bool__",
    "__index__", "__int__", "__float__", "__complex__", "__contains__", "__setstate__",
    "__getstate__", "__init_subclass__", "__subclasshook__", "__sizeof__", "__class_getitem__",
    "size", "dim", "numel", "stride", "is_contiguous", "data_ptr", "item", "tolist", "numpy",
    "type",
    "element_size", "nelement", "ndimension", "storage_offset", "is_floating_point",
    "is_complex", "untyped_storage", "get_device", "register_hook", "backward",
    "requires_grad_", "retain_grad", "_is_view",
}


class _Fake:
    """The ``meta['val']`` of a tensor node: its (possibly symbolic) shape and dtype."""

    @property
    def shape(self):
        """The size, a ``torch.Size`` whose entries may be symbols."""
        return self._shape

    @shape.setter
    def shape(self, value) -> None:
        from .. import Size
        self._shape = Size(tuple(value))

    def __init__(self, shape: tuple, dtype, device=None, requires_grad=False) -> None:
        self.shape = shape
        self.dtype = dtype
        self.device = device
        self.requires_grad = requires_grad

    def size(self, dim: int | None = None):
        """The shape, or one dimension of it."""
        return self.shape if dim is None else self.shape[dim]

    def dim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    def __repr__(self) -> str:
        shape = ", ".join(map(str, self.shape)) + ("," if len(self.shape) == 1 else "")
        return f"FakeTensor(..., size=({shape}), dtype={self.dtype})"


class SymInt:
    """A symbolic size (``s77``, ``2*s77``) with the value it had in the traced run."""

    def __init__(self, expr: dict, hint: int) -> None:
        self._sym_expr = expr      # {(symbol names...): coefficient}
        self.hint = hint

    def __str__(self) -> str:
        return _format_expr(self._sym_expr)

    __repr__ = __str__

    def __int__(self) -> int:
        return self.hint

    def __eq__(self, other) -> bool:
        return isinstance(other, SymInt) and other._sym_expr == self._sym_expr

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._sym_expr.items())))


def _format_expr(expr: dict) -> str:
    """An integer polynomial as sympy prints it: ``s27*s77``, ``2*s77 + 1``."""
    terms = sorted((k for k in expr if k), key=lambda k: (-len(k), k))
    parts = []
    for mono in terms:
        c = expr[mono]
        body = "*".join(mono)
        text = body if c == 1 else (f"-{body}" if c == -1 else f"{c}*{body}")
        parts.append(text)
    const = expr.get((), 0)
    out = ""
    for i, p in enumerate(parts):
        if i == 0:
            out = p
        elif p.startswith("-"):
            out += f" - {p[1:]}"
        else:
            out += f" + {p}"
    if const or not out:
        if not out:
            out = str(const)
        elif const < 0:
            out += f" - {-const}"
        else:
            out += f" + {const}"
    return out


def _symbol_name(source: str, taken: set[int]) -> str:
    """torch's name for the symbol of ``source`` (``L['x'].size()[0]`` -> ``s77``)."""
    attempt = int(hashlib.sha256(source.encode()).hexdigest(), 16) % 100
    while attempt in taken:
        attempt += 1
    taken.add(attempt)
    return f"s{attempt}"


# ----------------------------------------------------------------------------- op packets

_PACKETS: dict[str, Any] = {}


def op(name: str, overload: str):
    """``torch.ops.aten.<name>.<overload>`` as Ember runs it."""
    from .. import _aten
    packet = _PACKETS.get(name)
    if packet is None:
        packet = _aten.OpOverloadPacket("aten", name, _runner(name))
        _PACKETS[name] = packet
    return getattr(packet, overload)


def _runner(name: str):
    """The Ember callable that computes ``aten::name`` from its recorded arguments."""
    import importlib

    from .. import Tensor
    from ..nn import functional as F
    special = {
        "sym_size": lambda x, d: x.size(d),
        "alias": lambda x: x.view(x.shape),
        "slice": _slice,
        "select": lambda x, d, i: x.select(d, i),
        "cross_entropy_loss": _cross_entropy_loss,
        "embedding": lambda w, i, padding_idx=-1, *a: F.embedding(
            i, w, None if padding_idx == -1 else padding_idx),
        "dropout": lambda x, p, train: F.dropout(x, p, train),
        "lift_fresh_copy": lambda t: t.clone(),
        "numpy_T": lambda t: t.T, "mT": lambda t: t.mT, "mH": lambda t: t.mH,
        "numpy_H": lambda t: t.H,
        "_assert_tensor_metadata": _assert_tensor_metadata,
        "rsub": lambda x, o, alpha=1: ember.sub(o, x, alpha=alpha) if not isinstance(
            o, Tensor) else ember.rsub(x, o, alpha=alpha),
    }
    special.update(_CORE_RUNNERS)
    special.update({op_name: _upsample(mode) for (mode, _n), op_name in _UPSAMPLE.items()})
    special["linalg_vector_norm"] = _vector_norm
    if name in special:
        return special[name]
    ember = importlib.import_module("..", __package__)
    fn = getattr(ember, name, None)
    if callable(fn) and not isinstance(fn, type):
        return fn
    if name.endswith("_") or hasattr(Tensor, name):
        def method(x, *args, **kwargs):
            return getattr(x, name)(*args, **kwargs)
        return method
    return getattr(F, name)


def _native_layer_norm(x, shape, w=None, b=None, eps=1e-05):
    from ..nn import functional as F
    dims = list(range(x.dim() - len(shape), x.dim()))
    mean = x.mean(dims, keepdim=True)
    rstd = (x.var(dims, unbiased=False, keepdim=True) + eps).rsqrt()
    return F.layer_norm(x, shape, w, b, eps), mean, rstd


def _batch_stats(x, eps):
    dims = [0] + list(range(2, x.dim()))
    return x.mean(dims), (x.var(dims, unbiased=False) + eps).rsqrt()


def _bn_no_training(x, w, b, rm, rv, momentum, eps):
    from .. import empty
    from ..nn import functional as F
    return F.batch_norm(x, rm, rv, w, b, False, momentum, eps), empty(0), empty(0)


def _bn_functional(x, w, b, rm, rv, training, momentum, eps):
    from ..nn import functional as F
    new_rm, new_rv = rm.clone(), rv.clone()
    out = F.batch_norm(x, new_rm, new_rv, w, b, True, momentum, eps)
    mean, invstd = _batch_stats(x, eps)
    return out, mean, invstd, new_rm, new_rv


def _native_dropout(x, p, train):
    from ..nn import functional as F
    out = F.dropout(x, p, train)
    return out, out != 0


def _max_pool2d_with_indices(x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
    from ..nn import functional as F
    return F.max_pool2d(x, kernel, stride or None, padding, dilation, ceil_mode,
                        return_indices=True)


_CORE_RUNNERS = {
    "native_layer_norm": _native_layer_norm,
    "_native_batch_norm_legit_no_training": _bn_no_training,
    "_native_batch_norm_legit_functional": _bn_functional,
    "native_dropout": _native_dropout,
    "max_pool2d_with_indices": _max_pool2d_with_indices,
    "_adaptive_avg_pool2d": lambda x, size: _functional("adaptive_avg_pool2d")(x, size),
    "_softmax": lambda x, dim, half_to_float=False: x.softmax(dim),
    "_log_softmax": lambda x, dim, half_to_float=False: x.log_softmax(dim),
}


def _upsample(mode: str):
    def run(x, output_size, *rest):
        align_corners = rest[0] if len(rest) == 2 else None
        scale = rest[-1] if rest else None
        return _functional("interpolate")(x, size=output_size, scale_factor=scale, mode=mode,
                                          align_corners=align_corners)
    return run


def _vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _linalg().vector_norm(x, ord, dim, keepdim, dtype=dtype)


def _linalg():
    import importlib
    return importlib.import_module("..linalg", __package__)


def _functional(name: str):
    from ..nn import functional as F
    return getattr(F, name)


def _assert_tensor_metadata(x, size=None, stride=None, dtype=None, *, device=None,
                            layout=None):
    if dtype is not None and x.dtype != dtype:
        raise RuntimeError(f"Tensor dtype mismatch! Expected: {dtype}, Got: {x.dtype}")


def _slice(x, dim=0, start=None, end=None, step=1):
    index = [slice(None)] * x.dim()
    index[dim] = slice(start, end, step)
    return x[tuple(index)]


def _cross_entropy_loss(x, target, weight=None, reduction=1, ignore_index=-100,
                        label_smoothing=0.0):
    from ..nn import functional as F
    names = {v: k for k, v in _REDUCTIONS.items()}
    return F.cross_entropy(x, target, weight, ignore_index=ignore_index,
                           reduction=names[reduction], label_smoothing=label_smoothing)


# ----------------------------------------------------------------------------- recorder

class _Recorder:
    """One run of the module: the graph, and the node each traced tensor is."""

    def __init__(self) -> None:
        self.graph = Graph()
        self.node_of: dict[int, Node] = {}
        self.alive: list = []
        self.depth = 0
        self.first_user: Node | None = None
        self.constants: list[tuple[str, str, Any]] = []

    def track(self, t, node: Node) -> None:
        """Make tensor ``t`` the value of ``node``."""
        self.node_of[id(t)] = node
        self.alive.append(t)
        node.meta["val"] = _Fake(t.shape, t.dtype, t.device, t.requires_grad)

    def traced(self, obj) -> bool:
        """Whether ``obj`` holds a traced tensor."""
        from .. import Tensor
        if isinstance(obj, Tensor):
            return id(obj) in self.node_of
        if isinstance(obj, (list, tuple)):
            return any(self.traced(o) for o in obj)
        if isinstance(obj, dict):
            return any(self.traced(o) for o in obj.values())
        return False

    def to_arg(self, a):
        """A value as a node argument: traced tensors become their nodes."""
        from .. import Tensor

        def leaf(v):
            if isinstance(v, Tensor):
                node = self.node_of.get(id(v))
                if node is None:
                    node = self.lift_constant(v)
                return node
            return v
        return map_aggregate(a, leaf)

    def lift_constant(self, t):
        """``t`` as a lifted constant input ``c_lifted_tensor_<n>`` (before the user inputs)."""
        if self.first_user is None:
            raise NotImplementedError(
                "torch.export: a tensor that is neither an input, a parameter nor a buffer "
                "(a constant created outside the traced program) is not supported")
        target = f"lifted_tensor_{len(self.constants)}"
        with self.graph.inserting_before(self.first_user):
            node = self.graph.placeholder("c_" + target)
        self.constants.append((node.name, target, t))
        self.track(t, node)
        return t

    def record(self, name: str, args: tuple, kwargs: dict, out, stack: str | None,
               overload: str | None = None):
        """Add the node of a call of ATen op ``name`` (its ``overload``, else the one the
        arguments choose) that returned ``out``."""
        bound = _schema.bind(name, args, kwargs, overload)
        if bound is None:
            raise NotImplementedError(
                f"torch.export: no ATen overload of {name} takes the arguments "
                f"{tuple(type(a).__name__ for a in args)}")
        schema, rargs, rkwargs = bound
        if name in _FACTORIES and "pin_memory" in {a.name for a in schema.args}:
            from .. import device
            rkwargs = {**rkwargs}
            rkwargs.setdefault("device", device("cpu"))
            rkwargs.setdefault("pin_memory", False)
        elif name.endswith("_like") and "pin_memory" in {a.name for a in schema.args}:
            rkwargs = {**rkwargs}
            rkwargs.setdefault("pin_memory", False)
        return self._add(name, schema.overload, rargs, rkwargs, out, stack, name)

    def record_named(self, name: str, args: tuple, kwargs: dict, out, stack, node_name: str):
        """A call torch makes through ``torch.ops`` itself: recorded with the arguments as
        given, the node named ``node_name``."""
        schema = _schema.bind(name, args, kwargs)[0]
        return self._add(name, schema.overload, args, kwargs, out, stack, node_name)

    def _add(self, name, overload, rargs, rkwargs, out, stack, node_name):
        from .. import Tensor
        from ..fx.graph import _snake_case
        target = op(name, overload)
        node = self.graph.create_node("call_function", target, self.to_arg(rargs),
                                      self.to_arg(rkwargs), name=_snake_case(node_name))
        if stack:
            node.meta["stack_trace"] = stack
        if isinstance(out, Tensor):
            self.track(out, node)
        elif isinstance(out, (tuple, list)):
            vals = []
            for i, o in enumerate(out):
                g = self.graph.create_node("call_function", operator.getitem, (node, i), {},
                                           name="getitem")
                if stack:
                    g.meta["stack_trace"] = stack
                if isinstance(o, Tensor):
                    self.track(o, g)
                vals.append(o)
            node.meta["val"] = vals
        return out


def _user_stack() -> str | None:
    """The ``forward`` frames of the calling program as torch records them (the modules'
    frames included, the library's other frames left out)."""
    frames = [f for f in traceback.extract_stack()[:-2]
              if f.name == "forward" and (not f.filename.startswith(_PACKAGE_DIR)
                                          or f.filename.startswith(_MODULES_DIR))]
    if not frames:
        return None
    return "".join(traceback.StackSummary.from_list(frames).format()).strip()


def _tensor_in(obj) -> bool:
    from .. import Tensor
    if isinstance(obj, Tensor):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_tensor_in(o) for o in obj)
    return False


def _call_and_record(fn, aten_name, args, kwargs, convert=None):
    """Run ``fn``; when it is the outermost call of a trace that meets a traced tensor
    (or creates a tensor), record it as ``aten_name``."""
    rec = _ACTIVE
    if rec is None or rec.depth:
        return fn(*args, **kwargs)
    rec.depth += 1
    try:
        out = fn(*args, **kwargs)
    finally:
        rec.depth -= 1
    if not _tensor_in(out):
        return out
    if not (rec.traced(args) or rec.traced(kwargs)) and not aten_name:
        return out
    name, rargs, rkwargs = aten_name, args, kwargs
    if convert is not None:
        name, rargs, rkwargs = convert(args, kwargs)
    if args and out is args[0] and name and not name.endswith("_"):
        if name in _SELF_WHEN_NOOP:
            return out      # x.contiguous() of a contiguous x: torch records nothing
        # an op that handed its input back (dropout in eval): its result is another tensor
        # in torch's graph, so the input keeps its own node
        out = _untraced(lambda t: t.view(t.shape), out)
    if name is None:
        return out
    return rec.record(name, rargs, rkwargs, out, _user_stack())


def _function_form(fn, form: tuple, op_name: str):
    sig = inspect.signature(fn)

    def convert(args, kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        if "reduction" in values and isinstance(values["reduction"], str):
            values["reduction"] = _REDUCTIONS[values["reduction"]]
        out = []
        for p in form:
            if not isinstance(p, str):
                out.append(p)
                continue
            pname, eq, default = p.partition("=")
            v = next((values[n] for n in pname.split("|") if n in values), None)
            if v is None and eq:
                v = _schema._default(default)
            out.append(v)
        name = op_name
        if values.get("inplace"):
            name += "_"
        return name, tuple(out), {}
    return convert


def _function_wrapper(fn, name: str, torch_name: str):
    """The recording wrapper of public function ``fn`` named ``name`` (``torch_name`` in
    torch), or None where torch's function is Python that calls no ATen op of its name (a
    trace runs through it)."""
    special = _SPECIAL_FUNCTIONS.get(name)
    if special is not None:
        def traced_special(*args, **kwargs):
            rec = _ACTIVE
            if rec is None or rec.depth or not (rec.traced(args) or rec.traced(kwargs)):
                return fn(*args, **kwargs)
            return special(rec, fn, args, kwargs, _user_stack())
        return traced_special
    form = _FUNCTION_FORMS.get(name)
    if not _schema.schemas(form[0] if form else name):
        return None
    if form is not None:
        convert = _function_form(fn, form[1], form[0])
    elif torch_name in _torch_names().CALL_FORMS:
        convert = _python_call(fn, name)
    else:
        def convert(args, kwargs):
            return name, args, kwargs
    aten_name = name if name in _FACTORIES else None

    def traced(*args, **kwargs):
        return _call_and_record(fn, aten_name, args, kwargs, convert)
    traced.__wrapped__ = fn
    return traced


def _torch_names():
    from ..fx import _torch_names
    return _torch_names


def _python_call(fn, name: str):
    """torch's Python function ``name`` hands its ATen op its own parameters, defaults
    included (``F.elu(x)`` records ``elu(x, 1.0)``); ``inplace=True`` picks ``name_``."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return lambda args, kwargs: (name, args, kwargs)
    known = {a.name for s in _schema.schemas(name) for a in s.args} | {"input", "inplace"}

    def convert(args, kwargs):
        bound = sig.bind(*args, **kwargs)
        given = set(bound.arguments)
        if not given <= known:
            return name, args, kwargs
        bound.apply_defaults()
        values = {k: v for k, v in bound.arguments.items()
                  if k in known and (k in given or v is not None)}
        inplace = values.pop("inplace", False)
        return (name + "_" if inplace else name), (), values
    return convert


def _broadcasting_loss(rec, fn, args, kwargs, stack):
    """``F.mse_loss`` and kin: torch broadcasts the operands first, then calls the loss with
    the reduction as its enum."""
    from .. import broadcast_tensors
    name = fn.__name__
    sig = inspect.signature(fn)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    values = dict(bound.arguments)
    out = _untraced(lambda: fn(*args, **kwargs))
    pair = _untraced(broadcast_tensors, values.pop("input"), values.pop("target"))
    pair = rec.record("broadcast_tensors", (list(pair),), {}, list(pair), stack)
    extra = {k: v for k, v in values.items() if k in ("beta", "delta")}
    reduction = _REDUCTIONS[values.get("reduction", "mean")]
    return rec.record(name, (pair[0], pair[1], reduction), extra, out, stack)


_UPSAMPLE = {("nearest", 3): "upsample_nearest1d", ("nearest", 4): "upsample_nearest2d",
             ("nearest", 5): "upsample_nearest3d", ("linear", 3): "upsample_linear1d",
             ("bilinear", 4): "upsample_bilinear2d", ("bicubic", 4): "upsample_bicubic2d",
             ("trilinear", 5): "upsample_trilinear3d",
             ("nearest-exact", 3): "_upsample_nearest_exact1d",
             ("nearest-exact", 4): "_upsample_nearest_exact2d",
             ("nearest-exact", 5): "_upsample_nearest_exact3d"}


def _interpolate(rec, fn, args, kwargs, stack):
    """``F.interpolate``: the ``upsample_<mode><n>d.vec`` op torch's function calls."""
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    v = bound.arguments
    x, mode = v["input"], v["mode"]
    out = _untraced(lambda: fn(*args, **kwargs))
    op_name = _UPSAMPLE.get((mode, x.dim()))
    if op_name is None or v.get("antialias") or v.get("recompute_scale_factor"):
        raise NotImplementedError(f"torch.export: interpolate with mode={mode!r} on a "
                                  f"{x.dim()}-d input is not supported")
    n = x.dim() - 2
    size, scale = v["size"], v["scale_factor"]
    size = None if size is None else ([size] * n if isinstance(size, int) else list(size))
    if scale is not None:
        scale = [float(scale)] * n if isinstance(scale, (int, float)) else \
            [float(f) for f in scale]
    if size is not None:
        scale = None
    middle = () if mode.startswith("nearest") else (bool(v["align_corners"]),)
    return rec.record(op_name, (x, size) + middle + (scale,), {}, out, stack, "vec")


def _norm(rec, fn, args, kwargs, stack):
    """``x.norm(p, dim, keepdim)`` with a numeric ``p``: torch's Python ``norm`` calls
    ``linalg_vector_norm``."""
    params = list(inspect.signature(fn).parameters)
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    v = bound.arguments
    x = v[params[0]]
    p, dim, keepdim = v.get("p", "fro"), v.get("dim"), v.get("keepdim", False)
    out = _untraced(lambda: fn(*args, **kwargs))
    if isinstance(p, str) and (p != "fro" or (dim is not None and not isinstance(dim, int)
                                               and len(dim) == 2)):
        return rec.record("norm", args, kwargs, out, stack)
    ordinal = 2 if isinstance(p, str) else p
    dims = [dim] if isinstance(dim, int) else (None if dim is None else list(dim))
    rest = {"dtype": v["dtype"]} if v.get("dtype") is not None else {}
    return rec.record("linalg_vector_norm", (x, ordinal, dims, keepdim), rest, out, stack)


_SPECIAL_FUNCTIONS = {"mse_loss": _broadcasting_loss, "l1_loss": _broadcasting_loss,
                      "smooth_l1_loss": _broadcasting_loss, "huber_loss": _broadcasting_loss,
                      "interpolate": _interpolate, "norm": _norm}


# torch's composite ops that return their input itself, without calling an ATen op, when
# there is nothing to do
_SELF_WHEN_NOOP = {"contiguous", "cpu"}
_FACTORIES = {"ones", "zeros", "full", "empty", "arange", "rand", "randn", "eye", "linspace"}


def _method_wrapper(fn, name: str):
    if name == "__setitem__":
        return _setitem_wrapper(fn)
    if name in _CONVERSIONS or name == "to":
        return _conversion_wrapper(fn, name)
    if name == "norm":
        return _function_wrapper(fn, name, "torch.Tensor.norm")
    if name == "__getitem__":
        def getitem(self, index):
            rec = _ACTIVE
            if rec is None or rec.depth or not rec.traced(self):
                return fn(self, index)
            return _record_getitem(rec, fn, self, index)
        return getitem
    aten, swap = _DUNDERS.get(name, (name, False))
    if name.startswith("__") and name not in _DUNDERS:
        return None

    def convert(args, kwargs):
        if swap:
            args = (args[1], args[0]) + tuple(args[2:])
        return aten, args, kwargs

    def traced(*args, **kwargs):
        # an in-place op returns its input: the tensor's node becomes the op's
        return _call_and_record(fn, None, args, kwargs, convert)
    return traced


_INT64_MAX = 9223372036854775807      # a slice's open end, as torch records it


def _untraced(fn, *args):
    rec = _ACTIVE
    rec.depth += 1
    try:
        return fn(*args)
    finally:
        rec.depth -= 1


def _index_chain(rec: _Recorder, x, items: tuple, stack):
    """The view ``x[items]`` (basic indexing) recorded as torch does: ``unsqueeze`` for None,
    ``select`` for an integer, ``slice`` for a slice other than ``:``; (view, changed)."""
    cur, dim, changed = x, 0, False
    n_specified = sum(1 for i in items if i is not None and i is not Ellipsis)
    for i in items:
        if i is Ellipsis:
            dim += x.dim() - n_specified
        elif i is None:
            cur = rec.record("unsqueeze", (cur, dim), {},
                             _untraced(lambda t, d: t.unsqueeze(d), cur, dim), stack)
            dim += 1
            changed = True
        elif isinstance(i, int):
            cur = rec.record("select", (cur, dim, i), {},
                             _untraced(lambda t, d, j: t.select(d, j), cur, dim, i), stack)
            changed = True
        elif isinstance(i, slice):
            if i != slice(None):
                step = 1 if i.step is None else i.step
                view = _untraced(_slice, cur, dim, i.start, i.stop, step)
                args = (cur, dim, 0 if i.start is None else i.start,
                        _INT64_MAX if i.stop is None else i.stop) + ((step,) if step != 1 else ())
                cur = rec.record("slice", args, {}, view, stack)
                changed = True
            dim += 1
    return cur, changed


def _record_getitem(rec: _Recorder, fn, x, index):
    """``x[index]`` as torch records it: the basic-indexing chain (``alias`` when it changes
    nothing), ``index`` for tensor indices."""
    from .. import Tensor
    out = _untraced(fn, x, index)
    stack = _user_stack()
    items = index if isinstance(index, tuple) else (index,)
    if any(isinstance(i, (Tensor, list)) for i in items):
        return rec.record("index", (x, list(items)), {}, out, stack)
    cur, changed = _index_chain(rec, x, items, stack)
    if not changed:
        cur = rec.record("alias", (x,), {}, _untraced(lambda t: t.view(t.shape), x), stack)
    return cur


def _setitem_wrapper(fn):
    """``x[index] = value`` on a traced ``x``: ``fill_`` with a lifted constant for a number,
    ``copy_`` for a tensor, ``index_put_`` for tensor indices (on the indexed view)."""
    def setitem(self, index, value):
        rec = _ACTIVE
        if rec is None or rec.depth or not rec.traced(self):
            return fn(self, index, value)
        from .. import Tensor, tensor
        stack = _user_stack()
        items = index if isinstance(index, tuple) else (index,)
        fill = None
        if not isinstance(value, Tensor):
            const = rec.lift_constant(tensor(value, dtype=self.dtype))
            fill = rec.record("lift_fresh_copy", (const,), {}, _untraced(
                lambda t: t.clone(), const), stack)
        if any(isinstance(i, (Tensor, list)) for i in items):
            _untraced(fn, self, index, value)
            rec.record("index_put_", (self, list(items), value if fill is None else fill), {},
                       self, stack)
            return None
        view, _ = _index_chain(rec, self, items, stack)
        _untraced(fn, self, index, value)
        if fill is not None:
            rec.record("fill_", (view, fill), {}, view, stack)
        else:
            rec.record("copy_", (view, value), {}, view, stack)
        return None
    return setitem


_CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16",
                "bfloat16": "bfloat16", "int": "int32", "long": "int64", "bool": "bool"}


def _conversion_wrapper(fn, name: str):
    """``x.float()``, ``x.to(dtype)``, ``x.to(other)``: torch records the input's metadata
    check (``_assert_tensor_metadata``) and ``to.dtype`` (``to.device`` for a tensor)."""
    def convert(*args, **kwargs):
        rec = _ACTIVE
        if rec is None or rec.depth or not rec.traced(args[0]):
            return fn(*args, **kwargs)
        import importlib

        from .. import Tensor, dtype
        x = args[0]
        out = _untraced(lambda: fn(*args, **kwargs))
        if out is x:        # a conversion to what x is: still a node of its own in torch
            out = _untraced(lambda t: t.view(t.shape), x)
        stack = _user_stack()
        rest = args[1:]
        if name in _CONVERSIONS:
            package = importlib.import_module("..", __package__)
            to_args = (x, getattr(package, _CONVERSIONS[name]))
        elif len(rest) == 1 and not kwargs and isinstance(rest[0], dtype):
            to_args = (x, rest[0])
        elif len(rest) == 1 and not kwargs and isinstance(rest[0], Tensor):
            to_args = (x, rest[0].device, rest[0].dtype)
        else:
            return rec.record("to", args, kwargs, out, stack)
        rec.record_named("_assert_tensor_metadata", (x,),
                         {"dtype": x.dtype, "device": x.device, "layout": x.layout},
                         None, stack, "_assert_tensor_metadata_default")
        return rec.record("to", to_args, {}, out, stack)
    return convert


def _bool_guard(fn):
    def guarded(self):
        rec = _ACTIVE
        if rec is not None and not rec.depth and rec.traced(self):
            _raise_data_dependent()
        return fn(self)
    return guarded


def _raise_data_dependent():
    frames = [f for f in traceback.extract_stack()[:-2]
              if not f.filename.startswith(_PACKAGE_DIR)]
    where = ""
    if frames:
        f = frames[-1]
        where = (f"\n\nThe following call raised this error:\n  File \"{f.filename}\", line "
                 f"{f.lineno}, in {f.name}\n    {f.line}\n")
    from ..fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode
    raise GuardOnDataDependentSymNode(
        "Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  "
        "(Size-like symbols: none)\n\nconsider using data-dependent friendly APIs such as "
        "guard_or_false, guard_or_true and statically_known_true." + where)


def _patches():
    """(owner, name, replacement) for every function and method the recorder wraps."""
    import types

    from .. import Tensor
    from ..fx._symbolic_trace import _traced_functions
    out = []
    wrappers: dict[int, Any] = {}
    from .. import _torch_alias
    for ns_dict, name, fn, _target, _form, _method in _traced_functions():
        w = _function_wrapper(fn, name,
                              f"{_torch_alias.torch_module(ns_dict['__name__'])}.{name}")
        if w is not None:
            out.append((ns_dict, name, w))
            wrappers.setdefault(id(fn), w)
    for name, attr in list(vars(Tensor).items()):
        if name in _UNPATCHED_METHODS or (name.startswith("_") and not name.startswith("__")):
            continue
        if not isinstance(attr, types.FunctionType):
            continue
        w = _method_wrapper(attr, name)
        if w is not None:
            out.append((Tensor, name, w))
    out.append((Tensor, "__bool__", _bool_guard(Tensor.__bool__)))
    for attr, op_name in _PROPERTIES.items():
        out.append((Tensor, attr, _property_wrapper(vars(Tensor)[attr], op_name)))
    return out, wrappers


# Tensor properties that are ATen ops: ``x.T`` records ``aten.numpy_T``
_PROPERTIES = {"T": "numpy_T", "mT": "mT", "H": "numpy_H", "mH": "mH"}


def _property_wrapper(prop: property, op_name: str) -> property:
    def get(self):
        rec = _ACTIVE
        if rec is None or rec.depth or not rec.traced(self):
            return prop.fget(self)
        return rec.record(op_name, (self,), {}, _untraced(prop.fget, self), _user_stack())
    return property(get, doc=prop.__doc__)


class _Patching:
    """Installs the recorders for the duration of a ``with`` block."""

    def __init__(self, root) -> None:
        self.root = root
        self.undo: list = []

    def __enter__(self):
        global _ACTIVE
        patches, wrappers = _patches()
        for owner, name, new in patches:
            self._set(owner, name, new)
        # the same functions where the library's own code reaches them (``_ops.bmm``)
        import importlib
        for home in ("_ops", "_factories"):
            d = vars(importlib.import_module(f"..{home}", __package__))
            for k, v in list(d.items()):
                if callable(v) and id(v) in wrappers and not k.startswith("__"):
                    self._set(d, k, wrappers[id(v)])
        # functions imported by name into the modules' own files
        seen = set()
        for m in self.root.modules():
            g = getattr(type(m).forward, "__globals__", None)
            if g is None or id(g) in seen or g.get("__name__", "").startswith("ember."):
                continue
            seen.add(id(g))
            for k, v in list(g.items()):
                if callable(v) and id(v) in wrappers:
                    self._set(g, k, wrappers[id(v)])
        return self

    def _set(self, owner, name, new) -> None:
        if isinstance(owner, dict):
            self.undo.append((owner, name, owner[name]))
            owner[name] = new
        else:
            self.undo.append((owner, name, vars(owner)[name]))
            setattr(owner, name, new)

    def __exit__(self, *exc) -> None:
        global _ACTIVE
        _ACTIVE = None
        for owner, name, old in reversed(self.undo):
            if isinstance(owner, dict):
                owner[name] = old
            else:
                setattr(owner, name, old)


def _schema_of(target) -> _schema.Schema | None:
    """The schema of an ``aten`` op overload."""
    name = target.overloadpacket._name
    return next((s for s in _schema.schemas(name) if s.overload == target._overloadname), None)
