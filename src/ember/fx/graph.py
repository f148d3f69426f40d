"""``torch.fx.graph``: the :class:`Graph` of :class:`~ember.fx.Node` and its Python code."""

from __future__ import annotations

import builtins
import contextlib
import functools
import keyword
import math
import re
import types
import typing
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .node import Node, _get_qualified_name, _legal_ops, _type_repr, map_arg

__all__ = ["PythonCode", "CodeGen", "Graph"]

magic_methods = {
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}",
    "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}", "add": "{} + {}",
    "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}",
    "rshift": "{} >> {}", "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}",
    "getitem": "{}[{}]", "matmul": "{} @ {}",
}
reflectable_magic_methods = {k: v for k, v in magic_methods.items()
                             if k not in ("eq", "ne", "lt", "gt", "le", "ge", "pos", "neg",
                                          "invert")}
inplace_methods = {
    "iadd": "{} += {}", "iand": "{} &= {}", "ifloordiv": "{} //= {}", "ilshift": "{} <<= {}",
    "imod": "{} %= {}", "imul": "{} *= {}", "imatmul": "{} @= {}", "ior": "{} |= {}",
    "ipow": "{} **= {}", "irshift": "{} >>= {}", "isub": "{} -= {}", "itruediv": "{} /= {}",
    "ixor": "{} ^= {}", "setitem": "{}[{}] = {}",
}


_origin_type_map = {list: typing.List, dict: typing.Dict, set: typing.Set,   # noqa: UP006
                    frozenset: typing.FrozenSet, tuple: typing.Tuple}       # noqa: UP006


def _custom_builtins() -> dict[str, object]:
    """Objects every generated forward can name (their ``repr`` is not valid Python alone)."""
    from .. import device
    from ..utils import _pytree as pytree
    from . import _pytree as fx_pytree
    return {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": _TorchNames({}),
            "device": device, "fx_pytree": fx_pytree, "pytree": pytree}


_illegal_names = {k: object() for k in keyword.kwlist}
_illegal_names.update(builtins.__dict__)
# the custom builtins' names: taken, whatever node asks for them
_illegal_names.update({name: object() for name in
                       ("inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree")})


# the short dtype names of verbose code (``f32[3, 2]``)
dtype_abbrs = {
    "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "float32": "f32", "float64": "f64", "complex32": "c32", "complex64": "c64",
    "complex128": "c128", "bool": "b8", "bfloat16": "bf16", "bits1x8": "b1x8",
    "bits2x4": "b2x4", "bits4x2": "b4x2", "bits8": "b8x1", "bits16": "b16x1",
    "float8_e5m2": "f8e5m2", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2fnuz": "f8e5m2fnuz",
    "float8_e4m3fnuz": "f8e4m3fnuz", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float8_e8m0fnu": "f8e8m0fnu", "float4_e2m1fn_x2": "f4e2m1fnx2",
}


def _is_fake(v: object) -> bool:
    """Whether ``v`` is the shape-and-dtype record ``torch.export`` keeps in ``meta['val']``."""
    return type(v).__name__ == "_Fake" and hasattr(v, "shape")


def _is_magic(x: str) -> bool:
    return x.startswith("__") and x.endswith("__")


_snake_case_sub = functools.partial(re.compile(r"(?<=[a-z])([A-Z])").sub, r"_\1")
_illegal_char_regex = re.compile("[^0-9a-zA-Z_]+")
_name_regex = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")


def _snake_case(s: str) -> str:
    return _snake_case_sub(s).lower()


_PACKAGE = __package__.rpartition(".")[0]      # ember


def _is_from_torch(obj: object) -> bool:
    module_name = getattr(obj, "__module__", None) or ""
    if module_name.startswith((f"{_PACKAGE}._dynamo", "torch._dynamo")):
        return False
    return module_name.split(".")[0] in (_PACKAGE, "torch")


class _TorchNames:
    """``torch`` inside generated code: the dotted names the code prints (``torch._C._nn.linear``)
    resolve to the recorded ember objects, any other attribute to ember's own."""

    def __init__(self, names: dict[str, object], prefix: str = "torch") -> None:
        self._names = names
        self._prefix = prefix

    def __getattr__(self, attr: str):
        path = f"{self._prefix}.{attr}"
        if path in self._names:
            from ._symbolic_trace import _traced_version
            return _traced_version(self._names[path])
        if any(n.startswith(path + ".") for n in self._names):
            return _TorchNames(self._names, path)
        import importlib
        obj = importlib.import_module("..", __package__)     # the ember package
        for part in path.split(".")[1:]:
            obj = getattr(obj, part)
        return obj


class _Namespace:
    """Names unique within one scope, each tied to at most one object; never a builtin's
    or keyword's name unless the object is that builtin."""

    def __init__(self) -> None:
        self._obj_to_name: dict[Any, str] = {}
        self._used_names: set[str] = set()
        self._base_count: dict[str, int] = {}

    def create_name(self, candidate: str, obj: object | None) -> str:
        """A unique name based on ``candidate`` (associated with ``obj`` when given)."""
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _name_regex.match(candidate)
        if match is None:
            candidate = _illegal_char_regex.sub("_", candidate)
            if not candidate:
                candidate = "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _name_regex.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if _illegal_names.get(candidate, obj) is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name: str, obj: object) -> None:
        """Tie ``name`` (already created) to ``obj``."""
        if self._obj_to_name.setdefault(obj, name) is not name:
            raise AssertionError("obj is already associated")

    def _rename_object(self, obj: object, name: str) -> None:
        self._obj_to_name[obj] = name
        self._used_names.add(name)


@dataclass
class _ParsedStackTrace:
    """The innermost frame of a node's stack trace."""

    file: str
    lineno: str
    name: str
    code: str

    def get_summary_str(self) -> str:
        return f"File: {self.file}:{self.lineno} in {self.name}, code: {self.code}"


_frame_line = re.compile(r"^File \"(.+)\", line (\d+), in (.+)$")


def _parse_stack_trace(stack_trace: str | None,
                       filter_fn: Callable[[str, str, str], bool] | None = None):
    """The innermost ``File "...", line N, in name`` frame of ``stack_trace`` (that
    ``filter_fn(file, name, code)`` accepts) with its code line, or None."""
    if stack_trace is None:
        return None
    lines = stack_trace.strip().split("\n")
    for idx in range(len(lines) - 2, -1, -1):
        matches = _frame_line.match(lines[idx].strip())
        if matches:
            file, lineno, name = matches.group(1, 2, 3)
            code = lines[idx + 1].strip()
            if filter_fn and not filter_fn(file, name, code):
                continue
            return _ParsedStackTrace(file, lineno, name, code)
    return None


@dataclass
class PythonCode:
    """The source of a graph's forward function and the globals it runs with."""

    src: str
    globals: dict[str, Any]
    _lineno_map: dict[int, int | None] | None = None


def _format_target(base: str, target: str) -> str:
    r = base
    for e in target.split("."):
        r = f'getattr({r}, "{e}")' if not e.isidentifier() else f"{r}.{e}"
    return r


class CodeGen:
    """Turns a graph's nodes into the source of a Python function."""

    def __init__(self) -> None:
        self._body_transformer = None
        self._func_name = "forward"

    def gen_fn_def(self, free_vars: list[str], maybe_return_annotation: str) -> str:
        """The ``def`` line of the generated function."""
        if len(free_vars) == 0 or free_vars[0] != "self":
            free_vars.insert(0, "self")
        return f"def {self._func_name}({', '.join(free_vars)}){maybe_return_annotation}:"

    def generate_output(self, output_args: Any, repr_fn: Callable[[Any], str] = repr) -> str:
        """The ``return`` statement of the generated function."""
        return f"return {repr_fn(output_args)}"

    def process_inputs(self, *args: Any) -> Any:
        """The inputs as the graph's placeholders take them."""
        return args

    def process_outputs(self, outputs: Any) -> Any:
        """The graph's output as the caller receives it."""
        return outputs

    def additional_globals(self) -> list[tuple[str, Any]]:
        """Extra (name, value) globals the generated code needs."""
        return []

    def _gen_python_code(self, nodes, root_module: str, namespace: _Namespace,
                         verbose: bool = False) -> PythonCode:
        free_vars: list[str] = []
        body: list[str] = []
        globals_: dict[str, Any] = {}
        torch_names: dict[str, Any] = {}
        wrapped_fns: dict[str, None] = {}
        maybe_return_annotation = [""]

        def add_global(name_hint: str, obj: Any) -> str:
            if _is_from_torch(obj) and obj is not globals_["device"]:
                name = _get_qualified_name(obj)
                torch_names[name] = obj
                return name
            global_name = namespace.create_name(name_hint, obj)
            if global_name in globals_:
                if globals_[global_name] is not obj:
                    raise AssertionError(
                        f"Global name {global_name} already assigned to different object")
                return global_name
            globals_[global_name] = obj
            return global_name

        for name, obj in _custom_builtins().items():
            namespace._used_names.add(name)
            namespace._obj_to_name.setdefault(obj, name)
            globals_[name] = obj

        def type_repr(o: object) -> str:
            if o == ():
                return "()"
            typename = _type_repr(o)
            if isinstance(o, types.UnionType) and "|" in typename:
                return "|".join(type_repr(arg) for arg in typing.get_args(o))
            origin_type = getattr(o, "__origin__", None)
            if origin_type:     # list[...], typing.List[...], Optional[...]
                if isinstance(o, typing._GenericAlias):
                    origin_type = _origin_type_map.get(origin_type, origin_type)
                origin_typename = add_global(_type_repr(origin_type), origin_type)
                type_args = typing.get_args(o)
                if type_args:
                    return f"{origin_typename}[{','.join(type_repr(a) for a in type_args)}]"
                return origin_typename
            return add_global(typename, o)

        def _get_repr(arg: object) -> str:
            from .. import Tensor
            if isinstance(arg, Node):
                return repr(arg)
            if isinstance(arg, tuple) and hasattr(arg, "_fields"):
                global_name = add_global(_get_qualified_name(type(arg)), type(arg))
                return f"{global_name}{repr(tuple(arg))}"
            if isinstance(arg, Tensor):
                size = list(arg.size())
                dtype = str(arg.dtype).split(".")[-1]
                return f"torch.Tensor(size={size}, dtype={dtype})"
            if isinstance(arg, tuple):
                if len(arg) == 1:
                    return f"({_get_repr(arg[0])},)"
                return "(" + ", ".join(_get_repr(a) for a in arg) + ")"
            if isinstance(arg, list):
                return "[" + ", ".join(_get_repr(a) for a in arg) + "]"
            if isinstance(arg, slice):
                return (f"slice({_get_repr(arg.start)}, {_get_repr(arg.stop)}, "
                        f"{_get_repr(arg.step)})")
            return repr(arg)

        def _format_args(args: tuple, kwargs: dict) -> str:
            res = [_get_repr(a) for a in args]
            res.extend(f"{k} = {_get_repr(v)}" for k, v in kwargs.items())
            return ", ".join(res)

        # the first use met walking backwards is a node's last use: free it there
        node_to_last_use: dict[Node, Node] = {}
        user_to_last_uses: dict[Node, list[Node]] = {}
        for node in reversed(nodes):
            for input_node in node._input_nodes:
                if input_node not in node_to_last_use:
                    node_to_last_use[input_node] = node
                    user_to_last_uses.setdefault(node, []).append(input_node)

        def delete_unused_values(user: Node) -> None:
            if user.op == "placeholder":
                return
            if user.op == "output":
                body.append("\n")
                return
            nodes_to_delete = user_to_last_uses.get(user, [])
            if len(user.users) == 0:
                nodes_to_delete.append(user)
            if nodes_to_delete:
                body.append(";  " + " = ".join([repr(n) for n in nodes_to_delete] + ["None"])
                            + "\n")
            else:
                body.append("\n")

        def tensor_annotation(node: Node) -> str | None:
            from .. import Tensor
            from .passes.shape_prop import TensorMetadata
            meta_val = node.meta.get("val", node.meta.get("tensor_meta",
                                                          node.meta.get("example_value", None)))
            if isinstance(meta_val, (Tensor, TensorMetadata)) or _is_fake(meta_val):
                shape = ", ".join(str(x) for x in meta_val.shape)
                return f': "{dtype_abbrs[str(meta_val.dtype).split(".")[-1]]}[{shape}]"'
            if hasattr(meta_val, "_sym_expr"):
                return f': "Sym({meta_val})"'
            return None

        summary = [None]

        def append_stacktrace_summary(node: Node) -> None:
            if node.op in ("placeholder", "output"):
                return
            parsed = _parse_stack_trace(node.stack_trace) if node.stack_trace else None
            summary_str = ("\n# " + (parsed.get_summary_str() if parsed else
                                     "No stacktrace found for following nodes") + "\n")
            if summary_str != summary[0]:
                summary[0] = summary_str
                body.append(summary_str)

        def emit_node(node: Node) -> None:
            ann = "" if node.type is None else f" : {type_repr(node.type)}"
            if verbose:
                ann = tensor_annotation(node) or ann
            if node.op == "placeholder":
                default = "" if not node.args else f" = {_get_repr(node.args[0])}"
                free_vars.append(f"{node.target}{ann}{default}")
                raw_name = node.target.replace("*", "")
                if raw_name != repr(node):
                    body.append(f"{repr(node)} = {raw_name}\n")
                return
            if node.op == "call_method":
                body.append(f"{repr(node)}{ann} = "
                            f"{_format_target(_get_repr(node.args[0]), node.target)}"
                            f"({_format_args(node.args[1:], node.kwargs)})")
                return
            if node.op == "call_function":
                is_operator = getattr(node.target, "__module__", "") == "_operator"
                if is_operator and node.target.__name__ in magic_methods:
                    body.append(f"{repr(node)}{ann} = " + magic_methods[
                        node.target.__name__].format(*(_get_repr(a) for a in node.args)))
                    return
                if is_operator and node.target.__name__ in inplace_methods:
                    body.append(inplace_methods[node.target.__name__].format(
                        *(_get_repr(a) for a in node.args))
                        + f";  {repr(node)}{ann} = {_get_repr(node.args[0])}")
                    return
                global_name = add_global(_get_qualified_name(node.target), node.target)
                if (global_name == "getattr" and isinstance(node.args, tuple)
                        and isinstance(node.args[1], str) and node.args[1].isidentifier()
                        and len(node.args) == 2):
                    body.append(f"{repr(node)}{ann} = "
                                f"{_format_target(_get_repr(node.args[0]), node.args[1])}")
                    return
                body.append(f"{repr(node)}{ann} = "
                            f"{global_name}({_format_args(node.args, node.kwargs)})")
                if node.meta.get("is_wrapped", False):
                    wrapped_fns.setdefault(global_name)
                return
            if node.op == "call_module":
                body.append(f"{repr(node)}{ann} = {_format_target(root_module, node.target)}"
                            f"({_format_args(node.args, node.kwargs)})")
                return
            if node.op == "get_attr":
                body.append(f"{repr(node)}{ann} = {_format_target(root_module, node.target)}")
                return
            if node.op == "output":
                if node.type is not None:
                    maybe_return_annotation[0] = f" -> {type_repr(node.type)}"
                body.append(self.generate_output(node.args[0], repr_fn=_get_repr))
                return
            raise NotImplementedError(f"node: {node.op} {node.target}")

        for node in nodes:
            if verbose:
                append_stacktrace_summary(node)
            emit_node(node)
            delete_unused_values(node)

        if len(body) == 0:
            body.append("pass\n")
        if wrapped_fns:
            from ._symbolic_trace import wrap
            wrap_name = add_global("wrap", wrap)
            wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in wrapped_fns)
        else:
            wrap_stmts = ""
        if self._body_transformer:
            body = self._body_transformer(body)
        for name, value in self.additional_globals():
            add_global(name, value)
        prologue = self.gen_fn_def(free_vars, maybe_return_annotation[0])
        code = "".join(body).lstrip("\n")
        code = "\n".join("    " + line for line in code.split("\n"))
        fn_code = f"""
{wrap_stmts}

{prologue}
{code}"""
        globals_["torch"] = _TorchNames(torch_names)
        return PythonCode(fn_code, globals_)


class _PyTreeInfo(typing.NamedTuple):
    """The parameter names of a function traced with container ``concrete_args``, and the
    structures of its inputs and output."""

    orig_args: list[str]
    in_spec: Any
    out_spec: Any | None


class _PyTreeCodeGen(CodeGen):
    """Code that takes the traced function's own (nested) arguments, flattens them into the
    placeholders with ``fx_pytree.tree_flatten_spec`` and rebuilds the output's structure."""

    def __init__(self, pytree_info: _PyTreeInfo) -> None:
        super().__init__()
        self.pytree_info = pytree_info

    def process_inputs(self, *inputs: Any) -> Any:
        from ..utils._pytree import arg_tree_leaves
        return arg_tree_leaves(*inputs)

    def process_outputs(self, out: Any) -> Any:
        from ..utils._pytree import tree_unflatten
        if self.pytree_info is None or self.pytree_info.out_spec is None:
            return out
        if not isinstance(out, (list, tuple)):
            out = [out]
        return tree_unflatten(out, self.pytree_info.out_spec)

    def gen_fn_def(self, free_vars: list[str], maybe_return_annotation: str) -> str:
        if self.pytree_info is None:
            return super().gen_fn_def(free_vars, maybe_return_annotation)
        fn_args = self.pytree_info.orig_args
        if fn_args and fn_args[0] == "self":
            free_vars.insert(0, "self")
        fn_definition = super().gen_fn_def(fn_args[:], maybe_return_annotation)
        if free_vars:
            in_spec = self.pytree_info.in_spec
            fn_signature = f"[{', '.join(fn_args)}], self._in_spec"
            # when kwargs is present, in_spec is tuple(args, kwargs)
            if (in_spec.type is tuple and in_spec.num_children == 2
                    and in_spec.child(0).type is tuple and in_spec.child(1).type is dict):
                count_args = in_spec.child(0).num_children
                fn_kwargs = ", ".join(f"'{k}':{v}" for k, v in zip(
                    in_spec.child(1).context, fn_args[count_args:], strict=False))
                fn_signature = (f"([{', '.join(fn_args[:count_args])}], {{{fn_kwargs}}}), "
                                "self._in_spec")
            annotated = [x for x in free_vars if ":" in x]
            if annotated:       # ``a: T, b: U = f()`` is no Python: annotations first
                fn_definition += "\n    " + "".join(x + "; " for x in annotated) + "\n"
            names = ", ".join(x.split(":")[0].split("#")[0] for x in free_vars)
            fn_definition += (f"\n    {names}, = "
                              f"fx_pytree.tree_flatten_spec({fn_signature})")
        return fn_definition

    def generate_output(self, output_args: Any, repr_fn: Callable[[Any], str] = repr) -> str:
        if self.pytree_info and self.pytree_info.out_spec:
            return f"return pytree.tree_unflatten({repr_fn(output_args)}, self._out_spec)"
        return super().generate_output(output_args, repr_fn)


class _InsertPoint:
    def __init__(self, graph: Graph, new_insert: Callable[[Node], None]) -> None:
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        self.graph._insert = self.orig_insert


class _node_list:
    def __init__(self, graph: Graph, direction: str = "_next") -> None:
        self.graph = graph
        self.direction = direction

    def __len__(self) -> int:
        return self.graph._len

    def __iter__(self) -> Iterator[Node]:
        root = self.graph._root
        cur = getattr(root, self.direction)
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = getattr(cur, self.direction)

    def __reversed__(self) -> Iterator[Node]:
        return iter(_node_list(self.graph, "_prev" if self.direction == "_next" else "_next"))


class Graph:
    """The intermediate representation of torch.fx: a list of :class:`Node`, each an input
    (``placeholder``), a module attribute (``get_attr``), a call (``call_function``,
    ``call_method``, ``call_module``) or the result (``output``)."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None) -> None:
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = _Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras
        self._codegen = CodeGen()
        self._co_fields: dict[str, Any] = {}

    @property
    def owning_module(self):
        """The :class:`~ember.fx.GraphModule` this graph belongs to, if any."""
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod) -> None:
        self._owning_module = mod

    @property
    def nodes(self) -> _node_list:
        """The nodes in order (a live view: nodes inserted while iterating are visited)."""
        return _node_list(self)

    def output_node(self) -> Node:
        """The graph's ``output`` node (its last node)."""
        output_node = next(iter(reversed(self.nodes)))
        if output_node.op != "output":
            raise AssertionError(f"Last node in graph must be an output node, "
                                 f"got {output_node.op}")
        return output_node

    def find_nodes(self, *, op: str, target: Any = None, sort: bool = True) -> list[Node]:
        """The nodes with opcode ``op`` (and ``target``, when given)."""
        return [n for n in self.nodes
                if n.op == op and (target is None or n.target == target)]

    def graph_copy(self, g: Graph, val_map: dict[Node, Node], return_output_node: bool = False):
        """Copy ``g``'s nodes into this graph, recording old -> new in ``val_map``; returns the
        copied output value."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return rv if not return_output_node else (rv, node)
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None) -> Graph:
        memo = memo if memo else {}
        g = Graph(tracer_cls=self._tracer_cls)
        output_vals = g.graph_copy(self, val_map=memo, return_output_node=True)
        g._codegen = self._codegen
        if output_vals is not None:
            output_val, old_output_node = output_vals
            new_output_node = g.output(output_val, type_expr=getattr(old_output_node, "type",
                                                                     None))
            new_output_node.meta = dict(old_output_node.meta)
        return g

    def create_node(self, op: str, target: Any, args: tuple | None = None,
                    kwargs: dict | None = None, name: str | None = None,
                    type_expr: Any = None) -> Node:
        """Create a node and insert it at the current insert point."""
        if not args:
            args = ()
        elif not isinstance(args, tuple):
            raise AssertionError(f"args must be a tuple, got {type(args)}")
        if not kwargs:
            kwargs = {}
        elif not isinstance(kwargs, dict):
            raise AssertionError(f"kwargs must be a dict, got {type(kwargs)}")
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    def process_inputs(self, *args: Any) -> Any:
        """The inputs as the graph's placeholders take them."""
        return self._codegen.process_inputs(*args)

    def process_outputs(self, out: Any) -> Any:
        """The graph's output as the caller receives it."""
        return self._codegen.process_outputs(out)

    def erase_node(self, to_erase: Node) -> None:
        """Remove a node that no other node uses."""
        if len(to_erase.users) > 0:
            raise RuntimeError(
                f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                f"users in the graph: {to_erase.users}!")
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            warnings.warn(f"erase_node({to_erase}) on an already erased node", stacklevel=2)
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs(map_arg(to_erase._args, lambda n: None),
                                     map_arg(to_erase._kwargs, lambda n: None))

    def inserting_before(self, n: Node | None = None) -> _InsertPoint:
        """Insert new nodes before ``n`` (the start of the graph for None); as a context
        manager, only inside the ``with`` block."""
        if n is None:
            return self.inserting_after(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert before is not in graph.")
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n: Node | None = None) -> _InsertPoint:
        """Insert new nodes after ``n`` (the end of the graph for None); as a context
        manager, only inside the ``with`` block."""
        if n is None:
            return self.inserting_before(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert after is not in graph.")
        return _InsertPoint(self, n.append)

    def placeholder(self, name: str, type_expr: Any = None, default_value: Any = ...) -> Node:
        """Add an input of the graph."""
        args = () if default_value is ... else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr: Any = None) -> Node:
        """Add a read of the owning module's attribute ``qualified_name``."""
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name: str, args: tuple | None = None,
                    kwargs: dict | None = None, type_expr: Any = None) -> Node:
        """Add a call of the owning module's submodule ``module_name``."""
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name: str, args: tuple | None = None,
                    kwargs: dict | None = None, type_expr: Any = None) -> Node:
        """Add a call of method ``method_name`` on ``args[0]``."""
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function: Callable[..., Any], args: tuple | None = None,
                      kwargs: dict | None = None, type_expr: Any = None,
                      name: str | None = None) -> Node:
        """Add a call of ``the_function``."""
        return self.create_node("call_function", the_function, args, kwargs, name=name,
                                type_expr=type_expr)

    def node_copy(self, node: Node, arg_transform: Callable[[Node], Any] = lambda x: x) -> Node:
        """Copy ``node`` (from another graph) into this one, mapping its input nodes through
        ``arg_transform``."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result_node = self.create_node(node.op, node.target, args, kwargs, node.name,
                                       node.type)
        result_node.meta = dict(node.meta)
        return result_node

    def output(self, result: Any, type_expr: Any = None) -> Node:
        """Add the graph's ``output`` node, returning ``result``."""
        return self.create_node(op="output", target="output", args=(result,),
                                type_expr=type_expr)

    def _target_to_str(self, target: Any) -> str:
        if callable(target):
            op = target.__name__
        else:
            op = target
            if _is_magic(op):
                op = op[2:-2]
        return _snake_case(op)

    def python_code(self, root_module: str, *, verbose: bool = False,
                    **kwargs: Any) -> PythonCode:
        """The source of the forward function this graph stands for; attributes are read
        from ``root_module`` (``"self"`` in a GraphModule). ``verbose`` adds the tensor
        shapes ShapeProp recorded and the stack-trace comments."""
        namespace = _Namespace()

        def node_repr(n: Node) -> str:
            return namespace.create_name(n.name, n)

        # nodes take their names in the order the code mentions them, after the globals
        # met before them
        saved = [(node, node._repr_fn) for node in self.nodes]
        for node, _ in saved:
            node._repr_fn = node_repr
        try:
            return self._codegen._gen_python_code(self.nodes, root_module, namespace,
                                                  verbose=verbose)
        finally:
            for node, fn in saved:
                node._repr_fn = fn

    def __str__(self) -> str:
        placeholder_names: list[str] = []
        maybe_return_typename = [""]
        node_strs = [node.format_node(placeholder_names) for node in self.nodes]
        s = f"graph({', '.join(placeholder_names)}){maybe_return_typename[0]}:"
        for node_str in node_strs:
            if node_str:
                s += "\n    " + node_str
        return s

    def print_tabular(self) -> None:
        """Print the nodes as a table (needs the ``tabulate`` package)."""
        try:
            from tabulate import tabulate
        except ImportError:
            print("`print_tabular` relies on the library `tabulate`, "
                  "which could not be found on this machine. Run `pip "
                  "install tabulate` to install the library.")
            raise
        node_specs = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(node_specs, headers=["opcode", "name", "target", "args", "kwargs"]))

    def lint(self) -> None:
        """Check that the nodes belong to this graph, come in topological order and have
        unique names, and that the targets exist in the owning module."""
        from ..nn import Module

        seen_names: set[str] = set()
        seen_values: set[Node] = set()

        def check_arg(arg: Node, n: Node | None = None) -> None:
            context_str = f" of Node '{n}' " if n else " "
            if arg.graph is not self:
                raise RuntimeError(
                    f"Argument '{arg}'{context_str}does not belong to this Graph, "
                    f"but was used as an argument! If you are copying nodes from another "
                    f"graph, make sure to use ``arg_transform`` on node_copy() to remap "
                    f"values\n{self}")
            if arg not in seen_values:
                raise RuntimeError(
                    f"Argument '{arg}'{context_str}was used before it has been defined! "
                    f"Please check that Nodes in the graph are topologically ordered\n{self}")

        for node in self.nodes:
            if node.op not in _legal_ops:
                raise RuntimeError(f"Node {node} had unknown opcode {node.op}!")
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                check_arg(arg, node)
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)
        if self.owning_module:
            for node in self.nodes:
                if node.op not in ("get_attr", "call_module"):
                    continue
                target_atoms = node.target.split(".")
                m_itr = self.owning_module
                for i, atom in enumerate(target_atoms):
                    new_m_itr = getattr(m_itr, atom, None)
                    seen_qualname = ".".join(target_atoms[:i])
                    if new_m_itr is None:
                        raise RuntimeError(
                            f"Node {node} target {node.target} references nonexistent "
                            f"attribute {atom} of {seen_qualname}")
                    if node.op == "call_module" and not isinstance(new_m_itr, Module):
                        raise RuntimeError(
                            f"Node {node} target {node.target} {atom} of {seen_qualname} does "
                            "not reference an nn.Module")
                    m_itr = new_m_itr

    def eliminate_dead_code(self, is_impure_node: Callable[[Node], bool] | None = None) -> bool:
        """Remove the nodes whose values nothing uses (keeping impure ones); returns whether
        the graph changed."""
        self.lint()
        changed = False
        for node in reversed(self.nodes):
            impure = is_impure_node(node) if is_impure_node is not None else node.is_impure()
            if not impure and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    def set_codegen(self, codegen: CodeGen) -> None:
        """Generate this graph's code with ``codegen``."""
        self._codegen = codegen

    @contextlib.contextmanager
    def on_generate_code(self, make_transformer):
        """Within the block, pass the generated body lines through
        ``make_transformer(previous_transformer)``."""
        on_gen_code_old = self._codegen._body_transformer
        self._codegen._body_transformer = make_transformer(on_gen_code_old)
        try:
            yield
        finally:
            self._codegen._body_transformer = on_gen_code_old
