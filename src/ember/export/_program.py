"""Building an :class:`~ember.export.ExportedProgram`: the traced runs, the symbolic sizes,
the unlifted module, and saving and loading."""

from __future__ import annotations

import inspect
import io
import operator
import pickle
import re
import zipfile
from typing import Any

from ..fx.graph import Graph
from ..fx.graph_module import GraphModule
from ..fx.node import Node, map_aggregate
from . import _trace
from ._trace import SymInt, _Fake

# ----------------------------------------------------------------------------- inputs


def _input_names(mod, args: tuple, kwargs: dict) -> list[str]:
    """The forward parameter name of each positional argument, then the keyword names."""
    sig = inspect.signature(mod.forward)
    names = []
    params = [p for p in sig.parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p.name for p in sig.parameters.values() if p.kind == p.VAR_POSITIONAL), None)
    for i in range(len(args)):
        names.append(params[i].name if i < len(params) else f"{var or 'args'}_{i - len(params)}")
    names.extend(kwargs)
    return names


class _SymbolSpec:
    """A symbol: its name, the Dim (or hint) it stands for, the (input, dim) defining it."""

    def __init__(self, name: str, dim, value: int, lower, upper, where) -> None:
        self.name, self.dim, self.value = name, dim, value
        self.lower, self.upper, self.where = lower, upper, where


def _dynamic_specs(names: list[str], values: list, dynamic_shapes) -> list[dict]:
    """For each input, ``{dim: Dim or hint}`` of its dynamic dimensions."""
    from .._dynamo.exc import UserError, UserErrorType
    n = len(values)
    if dynamic_shapes is None:
        return [{} for _ in range(n)]
    if isinstance(dynamic_shapes, dict):
        unknown = [k for k in dynamic_shapes if k not in names]
        if unknown:
            raise UserError(
                UserErrorType.INVALID_INPUT,
                f"When `dynamic_shapes` is specified as a dict, its top-level keys must be the "
                f"arg names {names} of `inputs`, but here they are {list(dynamic_shapes)}. "
                "Alternatively, you could also ignore arg names entirely and specify "
                "`dynamic_shapes` as a list/tuple matching `inputs`. For more information "
                "about this error, see: https://pytorch.org/docs/main/generated/exportdb/"
                "index.html#dynamic-shapes-validation")
        per_input = [dynamic_shapes.get(name) for name in names]
    else:
        per_input = list(dynamic_shapes) + [None] * (n - len(dynamic_shapes))
    out = []
    for spec in per_input:
        if spec is None:
            out.append({})
        elif isinstance(spec, dict):
            out.append({d: v for d, v in spec.items() if v is not None})
        else:
            out.append({d: v for d, v in enumerate(spec) if v is not None})
    return out


def _symbols(names, values, specs) -> list[_SymbolSpec]:
    from .._dynamo.exc import UserError, UserErrorType
    from . import Dim, _DimHint, _DimHintType
    from . import _int_oo as int_oo
    taken: set[int] = set()
    symbols: list[_SymbolSpec] = []
    by_dim: dict[int, _SymbolSpec] = {}
    for i, (name, value, spec) in enumerate(zip(names, values, specs, strict=True)):
        for d in sorted(spec):
            dim = spec[d]
            if isinstance(dim, int) or (isinstance(dim, _DimHint)
                                        and dim.type == _DimHintType.STATIC):
                continue
            size = value.shape[d]
            if isinstance(dim, Dim) and id(dim) in by_dim:
                by_dim[id(dim)].where.append((i, d))
                continue
            if isinstance(dim, Dim):
                lower, upper, label = dim.min, dim.max, dim.__name__
            else:
                lower = 2 if dim.min is None else dim.min
                upper = int_oo if dim.max is None else dim.max
                label = None
            if size in (0, 1):
                if isinstance(dim, Dim) or dim.type == _DimHintType.DYNAMIC:
                    who = label or f"{name}.size()[{d}]"
                    raise UserError(
                        UserErrorType.CONSTRAINT_VIOLATION,
                        f"Constraints violated ({who})! For more information, run with "
                        f"TORCH_LOGS=\"+dynamic\".\n  - You marked {who} as dynamic but your "
                        f"code specialized it to be a constant ({size}). If you're using "
                        "mark_dynamic, either remove it or use maybe_mark_dynamic. If you're "
                        "using Dim.DYNAMIC, replace it with either Dim.STATIC or Dim.AUTO.\n"
                        f"Suggested fixes:\n  {who} = {size}")
                continue
            if isinstance(dim, Dim) and not lower <= size <= upper:
                from ..fx.experimental.symbolic_shapes import ConstraintViolationError
                raise ConstraintViolationError(f"{size} not in range [{lower}, {upper}]")
            sym = _SymbolSpec(_trace._symbol_name(f"L['{name}'].size()[{d}]", taken), dim, size,
                              lower, upper, [(i, d)])
            symbols.append(sym)
            if isinstance(dim, Dim):
                by_dim[id(dim)] = sym
    return symbols


# ----------------------------------------------------------------------------- tracing

def _flat_inputs(names: list[str], values: list, specs: list[dict]):
    """The inputs flattened as torch names them (a list ``ys`` gives ``ys_0``, a dict
    ``cfg`` with key ``Scale`` gives ``cfg_scale``), with each leaf's dynamic dimensions."""
    from ..utils import _pytree as pytree
    out_names, out_values, out_specs = [], [], []
    for name, value, spec in zip(names, values, specs, strict=True):
        for path, leaf in pytree.tree_flatten_with_path(value)[0]:
            if path and spec:
                raise NotImplementedError("torch.export: dynamic_shapes for the tensors inside "
                                          "a container input are not supported")
            out_names.append(name + "".join("_" + _key_name(k) for k in path))
            out_values.append(leaf)
            out_specs.append(spec)
    return out_names, out_values, out_specs


def _key_name(key) -> str:
    for attr in ("key", "idx", "name"):
        if hasattr(key, attr):
            return re.sub(r"[^a-zA-Z0-9]", "_", str(getattr(key, attr))).lower()
    return str(key)


def _run(mod, args: tuple, kwargs: dict, names: list[str], values: list):
    """One traced run of ``mod(*args, **kwargs)`` whose input leaves are ``values``:
    (recorder, placeholder specs, flat outputs, output tree)."""
    from .. import Tensor, get_rng_state, no_grad, set_rng_state
    from ..utils import _pytree as pytree
    rec = _trace._Recorder()
    g = rec.graph
    specs = []
    params = list(mod.named_parameters())
    buffers = list(mod.named_buffers())
    persistent = {n for n in mod.state_dict(keep_vars=True)}
    for n, p in params:
        node = g.placeholder(_state_name("p_", n))
        rec.track(p, node)
        specs.append(("PARAMETER", node.name, n, None))
    for n, b in buffers:
        node = g.placeholder(_state_name("b_", n))
        rec.track(b, node)
        specs.append(("BUFFER", node.name, n, n in persistent))
    for name, v in zip(names, values, strict=True):
        if not isinstance(v, (Tensor, int, float, bool, type(None))):
            raise NotImplementedError("torch.export: only tensor, number and None inputs are "
                                      "supported")
        node = _named_placeholder(g, name)
        rec.first_user = rec.first_user or node
        if isinstance(v, Tensor):       # a tensor given twice reads the later input
            rec.track(v, node)
        specs.append(("USER_INPUT", node.name, None, None))
    from ..fx import _symbolic_trace
    saved = [(t, t.clone()) for _, t in params + buffers]
    rng = get_rng_state()
    tracing = _symbolic_trace._is_fx_tracing_flag
    try:
        with _trace._Patching(mod), no_grad():
            _trace._ACTIVE = rec
            _symbolic_trace._is_fx_tracing_flag = True     # as under torch's tracer
            out = mod(*args, **kwargs)
            _trace._ACTIVE = None
    finally:
        _trace._ACTIVE = None
        _symbolic_trace._is_fx_tracing_flag = tracing
        with no_grad():
            for t, copy in saved:
                t.copy_(copy)
        set_rng_state(rng)
    n_state = len(params) + len(buffers)
    specs[n_state:n_state] = [("CONSTANT_TENSOR", node, target, None)
                              for node, target, _t in rec.constants]
    flat, out_spec = pytree.tree_flatten(out)
    out_nodes = []
    for v in flat:
        if isinstance(v, Tensor):
            node = rec.node_of.get(id(v))
            if node is None:
                raise NotImplementedError(
                    "torch.export: an output that is no traced tensor is not supported")
            out_nodes.append(node)
        else:
            out_nodes.append(v)
    g.output(tuple(out_nodes))
    return rec, specs, flat, out_spec


def _state_name(prefix: str, target: str) -> str:
    """torch's placeholder name for the state ``target``: ``p_fc_weight``, and a leading
    ``self_`` dropped (``self_attn.in_proj_weight`` is ``p_attn_in_proj_weight``)."""
    if target.startswith("L__self___"):
        target = target[len("L__self___"):]
    elif target.startswith("self_"):
        target = target[len("self_"):]
    return prefix + re.sub(r"[^a-zA-Z0-9]", "_", target).lower()


def _named_placeholder(graph, name: str):
    """A placeholder named exactly ``name``, as torch names the user inputs (``input`` too,
    which the namespace would make ``input_1``)."""
    node = graph.placeholder(name)
    if node.name != name:
        node.name = name
        graph._graph_namespace._rename_object(node, name)
    return node


def _resized(values: list, symbols: list[_SymbolSpec], sizes: dict[str, int]) -> list:
    """The inputs with each symbol's dimensions resized (new entries of random values)."""
    from .. import randn, zeros
    out = list(values)
    for i in range(len(out)):
        shape = list(out[i].shape)
        changed = False
        for s in symbols:
            for (j, d) in s.where:
                if j == i and sizes[s.name] != shape[d]:
                    shape[d] = sizes[s.name]
                    changed = True
        if changed:
            v = out[i]
            if v.is_floating_point():
                out[i] = randn(*shape, dtype=v.dtype)
            else:
                out[i] = zeros(*shape, dtype=v.dtype)
    return out


def _other_value(s: _SymbolSpec, step: int) -> int | None:
    for cand in (s.value + step, s.value - step):
        if cand >= max(2, s.lower) and cand <= s.upper:
            return cand
    return None


# ----------------------------------------------------------------------------- symbolic fit

def _fit(samples: list[tuple[dict, int]], symbols: list[str]) -> dict | None:
    """A polynomial ``{monomial: coefficient}`` (a constant, ``a*s + b`` or ``c*s*t``)
    taking the value of each sample ``(symbol values, value)``."""
    base_env, base = samples[0]
    moving = [s for s in symbols
              if any(env[s] != base_env[s] and v != base for env, v in samples[1:]
                     if all(env[t] == base_env[t] for t in symbols if t != s))]
    candidates: list[dict] = []
    if not moving:
        candidates.append({(): base})
    elif len(moving) == 1:
        s = moving[0]
        env, v = next((e, v) for e, v in samples[1:] if e[s] != base_env[s]
                      and all(e[t] == base_env[t] for t in symbols if t != s))
        a = (v - base) / (env[s] - base_env[s])
        if a == int(a):
            a = int(a)
            candidates.append({(s,): a, (): base - a * base_env[s]})
    else:
        mono = tuple(sorted(moving))
        prod = 1
        for s in mono:
            prod *= base_env[s]
        if base % prod == 0:
            candidates.append({mono: base // prod})
        lin = {}
        for s in moving:
            env, v = next((e, v) for e, v in samples[1:] if e[s] != base_env[s]
                          and all(e[t] == base_env[t] for t in symbols if t != s))
            lin[(s,)] = (v - base) // (env[s] - base_env[s])
        lin[()] = base - sum(c * base_env[k[0]] for k, c in lin.items())
        candidates.append(lin)
    for cand in candidates:
        cand = {k: c for k, c in cand.items() if c != 0 or k == ()}
        if all(_evaluate(cand, env) == v for env, v in samples):
            if () in cand and cand[()] == 0 and len(cand) > 1:
                del cand[()]
            return cand
    return None


def _evaluate(expr: dict, env: dict) -> int:
    total = 0
    for mono, c in expr.items():
        term = c
        for s in mono:
            term *= env[s]
        total += term
    return total


def _int_positions(a, path=()):
    """(path, int) for every integer inside an argument structure."""
    if isinstance(a, (list, tuple)):
        for i, v in enumerate(a):
            yield from _int_positions(v, path + (i,))
    elif isinstance(a, dict):
        for k, v in a.items():
            yield from _int_positions(v, path + (k,))
    elif isinstance(a, int) and not isinstance(a, bool):
        yield path, a


def _replace_at(a, path, value):
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(a, tuple):
        return tuple(_replace_at(v, rest, value) if i == head else v for i, v in enumerate(a))
    if isinstance(a, list):
        return [_replace_at(v, rest, value) if i == head else v for i, v in enumerate(a)]
    return {k: (_replace_at(v, rest, value) if k == head else v) for k, v in a.items()}


def _symbolize(base_rec, runs, symbols: list[_SymbolSpec], envs: list[dict],
               n_dynamic: int) -> None:
    """Turn the sizes and integer arguments of the base run that follow the symbols into
    symbolic ones (``meta['val']`` shapes, ``sym_size`` nodes)."""
    from .._dynamo.exc import UserError, UserErrorType
    graph = base_rec.graph
    names = [s.name for s in symbols]
    base_nodes = list(graph.nodes)
    other_nodes = [list(r.graph.nodes) for r in runs]
    for nodes in other_nodes:
        if len(nodes) != len(base_nodes) or any(
                a.op != b.op or (a.target is not b.target and a.target != b.target)
                for a, b in zip(nodes, base_nodes, strict=True)):
            who = ", ".join(s.dim.__name__ if hasattr(s.dim, "__name__") else s.name
                            for s in symbols)
            raise UserError(UserErrorType.CONSTRAINT_VIOLATION,
                            f"Constraints violated ({who})! The traced program takes another "
                            "path for other sizes of the dynamic dimensions (a branch on a "
                            "size): specialize the dimension or make the program size-generic.")

    def fit(values: list[int]) -> SymInt | int:
        expr = _fit(list(zip(envs, values, strict=True)), names)
        if expr is None:
            raise UserError(UserErrorType.CONSTRAINT_VIOLATION,
                            "torch.export: a size of the traced program depends on the dynamic "
                            "dimensions in a way Ember cannot express (floor division, "
                            f"products of more symbols): {values}")
        if set(expr) == {()}:
            return expr[()]
        return SymInt(expr, values[0])

    # sizes
    for idx, node in enumerate(base_nodes):
        val = node.meta.get("val")
        if not isinstance(val, _Fake):
            continue
        shapes = [val.shape] + [o[idx].meta["val"].shape for o in other_nodes]
        val.shape = tuple(fit([s[d] for s in shapes]) for d in range(len(val.shape)))
    # the symbols' defining sizes, read once each from the input placeholders
    placeholders = [n for n in base_nodes if n.op == "placeholder"]
    user = [n for n in placeholders if not n.name.startswith(("p_", "b_"))]
    last_placeholder = placeholders[-1] if placeholders else None
    for _ in range(n_dynamic):        # torch numbers its sym_size nodes from here
        graph._graph_namespace.create_name("sym_size_int", None)
    sym_nodes: dict[str, Node] = {}
    order = [s.name for s in symbols]
    insert_after = [last_placeholder]

    def sym_node(sym: str) -> Node:
        if sym not in sym_nodes:
            spec = next(s for s in symbols if s.name == sym)
            i, d = spec.where[0]
            with graph.inserting_after(insert_after[0]):
                n = graph.create_node("call_function", _trace.op("sym_size", "int"),
                                      (user[i], d), {}, name="sym_size_int")
            n.meta["val"] = SymInt({(sym,): 1}, spec.value)
            insert_after[0] = n
            sym_nodes[sym] = n
        return sym_nodes[sym]

    def expr_node(expr: dict, hint: int, before: Node):
        if set(expr) == {()}:
            return expr[()]
        terms = []
        for mono, c in sorted(expr.items(), key=lambda kv: (-len(kv[0]), kv[0])):
            if mono == ():
                continue
            mono = sorted(mono, key=order.index)     # read in the inputs' order
            cur = sym_node(mono[0])
            acc = {(mono[0],): 1}
            for s in mono[1:]:
                acc = {tuple(sorted(next(iter(acc)) + (s,))): 1}
                with graph.inserting_before(before):
                    cur = _sym_op(graph, operator.mul, cur, sym_node(s), acc, hint,
                                  before.stack_trace)
            if c != 1:
                acc = {k: v * c for k, v in acc.items()}
                with graph.inserting_before(before):
                    cur = _sym_op(graph, operator.mul, cur, c, acc, hint, before.stack_trace)
            terms.append((cur, acc))
        cur, acc = terms[0]
        for t, e in terms[1:]:
            acc = {**acc, **e}
            with graph.inserting_before(before):
                cur = _sym_op(graph, operator.add, cur, t, acc, hint, before.stack_trace)
        if () in expr and expr[()]:
            acc = {**acc, (): expr[()]}
            with graph.inserting_before(before):
                cur = _sym_op(graph, operator.add, cur, expr[()], acc, hint,
                              before.stack_trace)
        return cur

    # integer arguments
    for idx, node in enumerate(base_nodes):
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        others = [o[idx] for o in other_nodes]
        positions = list(_int_positions((node.args, node.kwargs)))
        other_positions = [dict(_int_positions((o.args, o.kwargs))) for o in others]
        new = (node.args, node.kwargs)
        for path, v in positions:
            values = [v] + [op.get(path, v) for op in other_positions]
            if all(x == v for x in values):
                continue
            expr = _fit(list(zip(envs, values, strict=True)), names)
            if expr is None:
                raise UserError(UserErrorType.CONSTRAINT_VIOLATION,
                                "torch.export: an argument depends on the dynamic dimensions "
                                "in a way Ember cannot express")
            new = _replace_at(new, path, expr_node(expr, v, node))
        if new != (node.args, node.kwargs):
            node.args, node.kwargs = new


def _sym_op(graph, fn, a, b, expr, hint, stack):
    n = graph.create_node("call_function", fn, (a, b), {}, name=fn.__name__)
    n.meta["val"] = SymInt(dict(expr), hint)
    if stack:
        n.meta["stack_trace"] = stack
    return n


def _dce(graph) -> None:
    """Drop the nodes nothing reads that change no state."""
    for node in reversed(list(graph.nodes)):
        if node.op != "call_function" or node.users:
            continue
        target = node.target
        if target is operator.getitem or not getattr(target, "_overloadname", None):
            graph.erase_node(node)
            continue
        schema = _trace._schema_of(target)
        if schema is not None and not schema.is_mutable:
            graph.erase_node(node)


def export(mod, args: tuple, kwargs: dict, dynamic_shapes):
    """The :class:`~ember.export.ExportedProgram` of ``mod(*args, **kwargs)``."""
    from collections import OrderedDict

    from ..utils import _pytree as pytree
    from . import ExportedProgram, ExportGraphSignature, _Symbol
    from . import _ValueRanges as ValueRanges
    from .graph_signature import InputKind, InputSpec, OutputKind, OutputSpec, TensorArgument
    top_names = _input_names(mod, args, kwargs)
    top_values = list(args) + list(kwargs.values())
    names, values, specs = _flat_inputs(top_names, top_values,
                                        _dynamic_specs(top_names, top_values, dynamic_shapes))
    symbols = _symbols(names, values, specs)
    tree = pytree.tree_structure((tuple(args), dict(kwargs)))
    base_rec, in_specs, flat, out_spec = _run(mod, args, kwargs, names, values)

    def run_with(new_values):
        new_args, new_kwargs = pytree.tree_unflatten(new_values, tree)
        return _run(mod, new_args, new_kwargs, names, new_values)[0]
    _capture_symbols(base_rec, run_with, values, symbols)
    graph = base_rec.graph
    from ..nn import Module
    gm = GraphModule(Module(), graph, "GraphModule")
    input_specs = [InputSpec(InputKind[kind], TensorArgument(node), target, pers)
                   for kind, node, target, pers in in_specs]
    outs = graph.output_node().args[0]
    output_specs = [OutputSpec(OutputKind.USER_OUTPUT, TensorArgument(getattr(o, "name", "")),
                               None) for o in outs]
    state = mod.state_dict(keep_vars=True)
    state_dict = OrderedDict()
    for kind, _node, target, pers in in_specs:
        if kind == "PARAMETER" or (kind == "BUFFER" and pers):
            state_dict[target] = state[target] if target in state else \
                mod.get_buffer(target)
    from ..utils import _pytree as pytree
    in_spec = pytree.tree_structure((tuple(args), dict(kwargs)))
    ranges = {_Symbol(s.name): ValueRanges(s.lower, s.upper) for s in symbols}
    guards = _guards(names, values, specs, symbols)
    ep = ExportedProgram(gm, ExportGraphSignature(input_specs, output_specs), state_dict,
                         ranges, (args, kwargs), in_spec, out_spec, guards)
    # torch keeps the non-persistent buffers with the lifted constants
    ep._constants = {**{target: t for _node, target, t in base_rec.constants},
                     **{target: mod.get_buffer(target) for kind, _n, target, pers in in_specs
                        if kind == "BUFFER" and not pers}}
    ep._symbols = symbols
    ep._arg_names = top_names
    return ep


def _capture_symbols(base_rec, run_with, values: list, symbols: list[_SymbolSpec]) -> None:
    """Run ``run_with`` on the inputs resized for each symbol (and for all of them), and
    make the base run's graph symbolic where its sizes follow the symbols."""
    if not symbols:
        return
    envs = [{s.name: s.value for s in symbols}]
    plans = []
    for s in symbols:
        v = _other_value(s, 1)
        if v is not None:
            plans.append({**envs[0], s.name: v})
    check = {s.name: _other_value(s, 2) for s in symbols}
    if all(v is not None for v in check.values()):
        plans.append(check)
    from .. import get_rng_state, set_rng_state
    rng = get_rng_state()
    runs = []
    try:
        for env in plans:
            runs.append(run_with(_resized(values, symbols, env)))
            envs.append(env)
    finally:
        set_rng_state(rng)
    _symbolize(base_rec, runs, symbols, envs, sum(len(s.where) for s in symbols))


def _guards(names, values, specs, symbols):
    """(input name, input index, dim, kind, bound) checks the unlifted module runs on its
    inputs: the static sizes, and each symbol's range."""
    from . import _int_oo as int_oo
    dynamic = {}
    for s in symbols:
        for (i, d) in s.where:
            dynamic[(i, d)] = s
    out = []
    for i, v in enumerate(values):
        for d, size in enumerate(getattr(v, "shape", ())):
            s = dynamic.get((i, d))
            if s is None:
                out.append((names[i], i, d, "==", size))
            else:
                if s.lower > 0:
                    out.append((names[i], i, d, ">=", s.lower))
                if s.upper != int_oo:
                    out.append((names[i], i, d, "<=", s.upper))
    return out


# ----------------------------------------------------------------------------- module()

def unlift(ep, check_guards: bool = True):
    """``ep`` as a module of the user inputs with its state installed."""
    from .. import Tensor
    from ..fx.graph import _PyTreeCodeGen, _PyTreeInfo
    from ..nn import Module, Parameter
    graph = Graph()
    env: dict[Node, Any] = {}
    sig = ep.graph_signature
    targets = {s.arg.name: s.target for s in sig.input_specs if s.target is not None}
    user_names = []
    root = Module()
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    for n in placeholders:
        if n.name not in targets:
            new = graph.placeholder(n.name)
            new.meta = dict(n.meta)
            env[n] = new
            user_names.append(n.name)
    by_target = {targets[n.name]: n for n in placeholders if n.name in targets}
    for n in placeholders:
        if n.name in targets:
            target = targets[n.name]
            new = graph.create_node("get_attr", target, (), {}, name=target.replace(".", "_"))
            new.meta = dict(n.meta)
            env[n] = new
            value = ep.state_dict.get(target)
            if value is None:
                value = ep.constants.get(target)
            *path, leaf = target.split(".")
            owner = root
            for p in path:
                if not hasattr(owner, p):
                    owner.add_module(p, Module())
                owner = getattr(owner, p)
            if isinstance(value, Parameter):
                owner.register_parameter(leaf, value)
            elif isinstance(value, Tensor):
                owner.register_buffer(leaf, value)
    if check_guards:
        root.add_module("_guards_fn", _guards_module(ep._guards))
        graph.create_node("call_module", "_guards_fn",
                          tuple(env[n] for n in placeholders if n.name not in targets), {},
                          name="_guards_fn")
    for n in ep.graph.nodes:
        if n.op in ("placeholder",):
            continue
        if n.op == "output":
            outs = [env[a] if isinstance(a, Node) else a for a in n.args[0]]
            kinds = [s.kind.name for s in sig.output_specs]
            buffers = {s.arg.name: s.target for s in sig.output_specs
                       if s.kind.name == "BUFFER_MUTATION"}
            for out, kind, spec in zip(outs, kinds, sig.output_specs, strict=True):
                if kind == "BUFFER_MUTATION":
                    target = buffers[spec.arg.name]
                    graph.create_node("call_function", _trace.op("copy_", "default"),
                                      (env[by_target[target]], out), {}, name="copy_")
            graph.output(tuple(o for o, k in zip(outs, kinds, strict=True)
                               if k == "USER_OUTPUT"))
            continue
        new = graph.node_copy(n, lambda a: env[a]) if hasattr(graph, "node_copy") else \
            graph.create_node(n.op, n.target,
                              map_aggregate(n.args, lambda a: env[a] if isinstance(a, Node)
                                            else a),
                              map_aggregate(n.kwargs, lambda a: env[a] if isinstance(a, Node)
                                            else a), name=n.name)
        new.meta = dict(n.meta)
        env[n] = new
    graph._codegen = _PyTreeCodeGen(_PyTreeInfo(getattr(ep, "_arg_names", None) or user_names,
                                                ep._in_spec, ep._out_spec))
    gm = GraphModule(root, graph, "GraphModule")
    if not check_guards and ep._guards:
        from ..utils import _pytree as pytree
        gm.register_forward_pre_hook(
            lambda module, args: _check_guards(ep._guards, pytree.tree_leaves(args)))
    return gm


def _guards_module(guards):
    from ..nn import Module

    class GuardsFn(Module):
        """Checks the static sizes and the symbol ranges of the inputs."""

        def forward(self, *args):
            _check_guards(guards, args)
    return GuardsFn()


def _check_guards(guards, args) -> None:
    """Raise ``AssertionError: Guard failed: ...`` for the first guard the flat inputs
    ``args`` break."""
    flat = list(args)
    for name, i, d, kind, bound in guards:
        if i >= len(flat):
            continue
        size = flat[i].shape[d] if d < flat[i].dim() else None
        ok = {"==": size == bound, ">=": size is not None and size >= bound,
              "<=": size is not None and size <= bound}[kind]
        if not ok:
            raise AssertionError(f"Guard failed: {name}.size()[{d}] {kind} {bound}")


# ----------------------------------------------------------------------------- save / load

def _target_name(target) -> str:
    if target is operator.getitem or target in (operator.mul, operator.add):
        return f"operator.{target.__name__}"
    return str(target)


def _resolve_target(name: str):
    if name.startswith("operator."):
        return getattr(operator, name.split(".", 1)[1])
    _, op_name, overload = name.split(".")
    return _trace.op(op_name, overload)


def save(ep, f) -> None:
    """Write ``ep`` as a zip archive holding the graph, the signature and the state."""
    from .. import save as save_tensors
    nodes = []
    for n in ep.graph.nodes:
        def ref(a):
            return ("__node__", a.name) if isinstance(a, Node) else a
        args = map_aggregate(n.args, ref)
        kwargs = map_aggregate(n.kwargs, ref)
        target = n.target if n.op in ("placeholder", "output", "get_attr") else \
            _target_name(n.target)
        nodes.append((n.op, n.name, target, args, kwargs, n.meta.get("val"),
                      n.meta.get("stack_trace")))
    meta = {"nodes": nodes, "signature": ep.graph_signature,
            "range_constraints": ep.range_constraints, "in_spec": ep._in_spec,
            "out_spec": ep._out_spec, "guards": ep._guards,
            "arg_names": getattr(ep, "_arg_names", None)}
    buf = io.BytesIO()
    save_tensors({"state": dict(ep.state_dict), "constants": dict(ep.constants)}, buf)
    with zipfile.ZipFile(f, "w") as z:
        z.writestr("archive/program.pkl", pickle.dumps(meta))
        z.writestr("archive/state_dict.pt", buf.getvalue())


def load(f):
    """Read a program written by :func:`save`."""
    from .. import load as load_tensors
    from ..nn import Module
    from . import ExportedProgram
    with zipfile.ZipFile(f, "r") as z:
        meta = pickle.loads(z.read("archive/program.pkl"))  # noqa: S301
        tensors = load_tensors(io.BytesIO(z.read("archive/state_dict.pt")))
    state, constants = tensors["state"], tensors["constants"]
    graph = Graph()
    env: dict[str, Node] = {}
    for op_, name, target, args, kwargs, val, stack in meta["nodes"]:
        args, kwargs = _deref(args, env), _deref(kwargs, env)
        if op_ == "placeholder":
            n = _named_placeholder(graph, name)
        elif op_ == "output":
            n = graph.output(args[0])
        else:
            n = graph.create_node(op_, _resolve_target(target), args, kwargs, name=name)
        if val is not None:
            n.meta["val"] = val
        if stack is not None:
            n.meta["stack_trace"] = stack
        env[name] = n
    gm = GraphModule(Module(), graph, "GraphModule")
    from ..nn import Parameter
    sig = meta["signature"]
    params = set(sig.parameters)
    state = {k: (Parameter(v) if k in params and not isinstance(v, Parameter) else v)
             for k, v in state.items()}
    ep = ExportedProgram(gm, sig, state, meta["range_constraints"], None, meta["in_spec"],
                         meta["out_spec"], meta["guards"], constants)
    ep._arg_names = meta["arg_names"]
    return ep


def _deref(a, env: dict):
    """A saved argument with its node references resolved in ``env``."""
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "__node__":
        return env[a[1]]
    if isinstance(a, tuple):
        return tuple(_deref(v, env) for v in a)
    if isinstance(a, list):
        return [_deref(v, env) for v in a]
    if isinstance(a, dict):
        return {k: _deref(v, env) for k, v in a.items()}
    return a
