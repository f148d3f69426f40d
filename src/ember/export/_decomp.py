"""``ExportedProgram.run_decompositions``: the program re-run op by op, each composite op
recorded as the core ATen ops torch decomposes it into, and in-place updates of buffers
recorded functionally (the new values become ``BUFFER_MUTATION`` outputs)."""

from __future__ import annotations

import math
import operator

from ..fx.node import Node
from . import _trace


def _run_op(name: str, overload: str, *args, **kwargs):
    return _trace.op(name, overload)(*args, **kwargs)


class _Emitter:
    """Runs ATen ops on real tensors and records each (with the stack of the op it stands
    for)."""

    def __init__(self, rec: _trace._Recorder, stack: str | None) -> None:
        self.rec, self.stack = rec, stack

    def __call__(self, name: str, *args, **kwargs):
        overload = kwargs.pop("_overload", None)
        bound = _trace._schema.bind(name, args, kwargs)
        schema = bound[0]
        out = _run_op(name, overload or schema.overload, *args, **kwargs)
        return self.rec.record(name, args, kwargs, out, self.stack)


def _linear(e, x, w, b=None):
    out_features = w.shape[0]
    lead = list(x.shape[:-1])
    if x.dim() > 2 and not x.is_contiguous():
        y = _matmul(e, x, e("permute", w, [1, 0]))
        return y if b is None else e("add", y, b)
    x2 = x if x.dim() == 2 else e("view", x, [math.prod(lead), x.shape[-1]])
    wt = e("permute", w, [1, 0])
    y = e("mm", x2, wt) if b is None else e("addmm", b, x2, wt)
    if x.dim() != 2:
        y = e("view", y, lead + [out_features])
    return y


def _viewable(x, shape) -> bool:
    try:
        x.view(shape)
    except RuntimeError:
        return False
    return True


def _view_or_copy(e, x, shape, copy_op="view"):
    """``x`` in ``shape``: a view, or a contiguous copy viewed where no view exists."""
    if _viewable(x, shape):
        return e("view", x, shape)
    from .. import contiguous_format
    return e(copy_op, e("clone", x, memory_format=contiguous_format), shape)


def _conv(n: int):
    def conv(e, x, w, b=None, stride=None, padding=None, dilation=None, groups=1):
        stride = stride or [1] * n
        padding = padding or [0] * n
        dilation = dilation or [1] * n
        return e("convolution", x, w, b, list(stride), list(padding), list(dilation), False,
                 [0] * n, groups)
    return conv


def _batch_norm(e, x, w, b, rm, rv, training, momentum, eps, cudnn=False):
    if not training:
        return e("_native_batch_norm_legit_no_training", x, w, b, rm, rv, momentum, eps)[0]
    out = e("_native_batch_norm_legit_functional", x, w, b, rm, rv, True, momentum, eps)
    e.rec.mutations[id(rm)] = out[3]
    e.rec.mutations[id(rv)] = out[4]
    return out[0]


def _max_pool2d(e, x, kernel, stride=(), padding=(0, 0), dilation=(1, 1), ceil_mode=False):
    return e("max_pool2d_with_indices", x, list(kernel), list(stride), list(padding),
             list(dilation), ceil_mode)[0]


def _flatten(e, x, start=0, end=-1):
    shape = list(x.shape)
    if not shape:
        return e("view", x, [1])
    start, end = start % len(shape), end % len(shape)
    if start == end:
        return x
    new = shape[:start] + [math.prod(shape[start:end + 1])] + shape[end + 1:]
    return e("view", x, new)


def _dropout(e, x, p, train):
    if train:
        return e("native_dropout", x, p, True)[0]
    return e("clone", x)


def _matmul(e, a, b):
    if a.dim() == 2 and b.dim() == 2:
        return e("mm", a, b)
    if a.dim() >= 3 or b.dim() >= 3:
        batch = list(_broadcast(a.shape[:-2], b.shape[:-2]))
        m, k = a.shape[-2], a.shape[-1]
        n = b.shape[-1]
        n_batch = math.prod(batch)
        a3 = _view_or_copy(e, e("expand", a, batch + [m, k]), [n_batch, m, k])
        b3 = _view_or_copy(e, e("expand", b, batch + [k, n]), [n_batch, k, n])
        return e("view", e("bmm", a3, b3), batch + [m, n])
    return e("matmul", a, b)


def _broadcast(s1, s2):
    s1, s2 = list(s1), list(s2)
    n = max(len(s1), len(s2))
    s1, s2 = [1] * (n - len(s1)) + s1, [1] * (n - len(s2)) + s2
    return [max(a, b) for a, b in zip(s1, s2, strict=True)]


def _transpose(e, x, d0, d1):
    perm = list(range(x.dim()))
    d0, d1 = d0 % x.dim(), d1 % x.dim()
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return e("permute", x, perm)


def _contiguous(e, x, memory_format=None):
    from .. import contiguous_format
    return e("clone", x, memory_format=contiguous_format)


def _add_(e, x, other, alpha=1):
    y = e("add", x, other) if alpha == 1 else e("add", x, other, alpha=alpha)
    e.rec.mutations[id(x)] = y
    return y


DECOMPOSITIONS = {
    "linear.default": _linear,
    "conv1d.default": _conv(1),
    "conv2d.default": _conv(2),
    "conv3d.default": _conv(3),
    "batch_norm.default": _batch_norm,
    "max_pool2d.default": _max_pool2d,
    "adaptive_avg_pool2d.default": lambda e, x, size: e("_adaptive_avg_pool2d", x, list(size)),
    "flatten.using_ints": _flatten,
    "dropout.default": _dropout,
    "layer_norm.default": lambda e, x, shape, w=None, b=None, eps=1e-05, cudnn=True: e(
        "native_layer_norm", x, list(shape), w, b, eps)[0],
    "softmax.int": lambda e, x, dim, dtype=None: e("_softmax", x, dim, False),
    "log_softmax.int": lambda e, x, dim, dtype=None: e("_log_softmax", x, dim, False),
    "transpose.int": _transpose,
    "contiguous.default": _contiguous,
    "matmul.default": _matmul,
    "add_.Tensor": _add_,
    "reshape.default": lambda e, x, shape: _view_or_copy(e, x, _infer(shape, x.numel()),
                                                         "_unsafe_view"),
    "split.Tensor": lambda e, x, size, dim=0: e(
        "split_with_sizes", x, _split_sizes(x.shape[dim], size), dim),
}


def _infer(shape, numel):
    shape = list(shape)
    if -1 in shape:
        rest = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = numel // rest if rest else 0
    return shape


def _split_sizes(total, size):
    sizes = [size] * (total // size)
    if total % size:
        sizes.append(total % size)
    return sizes


def run_decompositions(ep):
    """The core-ATen form of ``ep`` (see :meth:`ExportedProgram.run_decompositions`)."""
    from ..fx.graph_module import GraphModule
    from ..nn import Module
    from . import ExportedProgram, ExportGraphSignature
    from ._program import _capture_symbols, _dce, _named_placeholder
    from .graph_signature import OutputKind, OutputSpec, TensorArgument
    sig = ep.graph_signature
    targets = {s.arg.name: s.target for s in sig.input_specs if s.target is not None}
    from ..utils import _pytree as pytree
    user_values = pytree.tree_leaves(ep.example_inputs)
    out_specs: list = []

    def run_with(values):
        rec = _trace._Recorder()
        rec.mutations = {}
        env: dict[Node, object] = {}
        state: dict[str, object] = {}
        it = iter(values)
        for n in ep.graph.nodes:
            if n.op == "placeholder":
                node = _named_placeholder(rec.graph, n.name)
                if n.name in targets:
                    target = targets[n.name]
                    t = ep.state_dict.get(target)
                    if t is None:
                        t = ep.constants[target]
                    t = t.detach().clone()
                    state[n.name] = t
                else:
                    t = next(it)
                rec.track(t, node)
                env[n] = t
            elif n.op == "call_function" and n.target is operator.getitem:
                env[n] = env[n.args[0]][n.args[1]]
            elif n.op == "call_function" and n.target is _trace.op("sym_size", "int"):
                env[n] = env[n.args[0]].size(n.args[1])
            elif n.op == "call_function" and hasattr(n.target, "_overloadname"):
                args = _materialize(n.args, env)
                kwargs = _materialize(n.kwargs, env)
                key = f"{n.target.overloadpacket._name}.{n.target._overloadname}"
                e = _Emitter(rec, n.meta.get("stack_trace"))
                rule = DECOMPOSITIONS.get(key)
                if rule is not None:
                    env[n] = rule(e, *args, **kwargs)
                else:
                    env[n] = e(n.target.overloadpacket._name, *args,
                               _overload=n.target._overloadname, **kwargs)
            elif n.op == "call_function":
                env[n] = n.target(*_materialize(n.args, env), **_materialize(n.kwargs, env))
            elif n.op == "output":
                user = [rec.node_of[id(v)] for v in _materialize(n.args[0], env)]
                mutated = []
                out_specs.clear()
                for name, t in state.items():
                    new = rec.mutations.get(id(t))
                    if new is not None:
                        node = rec.node_of[id(new)]
                        mutated.append(node)
                        out_specs.append(OutputSpec(OutputKind.BUFFER_MUTATION,
                                                    TensorArgument(node.name), targets[name]))
                for u in user:
                    out_specs.append(OutputSpec(OutputKind.USER_OUTPUT,
                                                TensorArgument(u.name), None))
                rec.graph.output(tuple(mutated + user))
        return rec

    from .. import get_rng_state, set_rng_state
    rng = get_rng_state()      # a traced dropout leaves the generator as it was
    try:
        base = run_with(user_values)
    finally:
        set_rng_state(rng)
    final_specs = list(out_specs)
    _capture_symbols(base, run_with, user_values, getattr(ep, "_symbols", []))
    _dce(base.graph)
    gm = GraphModule(Module(), base.graph, "GraphModule")
    new = ExportedProgram(gm, ExportGraphSignature(list(sig.input_specs), final_specs),
                          ep.state_dict, ep.range_constraints, ep.example_inputs, ep._in_spec,
                          ep._out_spec, ep._guards, ep.constants)
    new._symbols = getattr(ep, "_symbols", [])
    new._arg_names = getattr(ep, "_arg_names", None)
    new._n_mutations = sum(s.kind == OutputKind.BUFFER_MUTATION for s in final_specs)
    return new


def _materialize(a, env):
    if isinstance(a, Node):
        v = env[a]
        return v.hint if hasattr(v, "_sym_expr") else v
    if isinstance(a, tuple):
        return tuple(_materialize(v, env) for v in a)
    if isinstance(a, list):
        return [_materialize(v, env) for v in a]
    if isinstance(a, dict):
        return {k: _materialize(v, env) for k, v in a.items()}
    return a
