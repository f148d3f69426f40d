"""``torch.fx.node``: the :class:`Node` of a :class:`~ember.fx.Graph` and the argument maps."""

from __future__ import annotations

import builtins
import functools as _functools
import os as _os
import re as _re
import types
import typing
from collections.abc import Callable
from typing import Any

from .. import _torch_alias

__all__ = ["Node", "map_arg", "map_aggregate", "Argument", "Target"]

Target = Callable[..., Any] | str
Argument = Any

_PACKAGE = __package__.rpartition(".")[0]      # ember
# the library's own files (left out of user stack traces)
_PACKAGE_DIR = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))) + _os.sep
_legal_ops = dict.fromkeys(
    ["call_function", "call_method", "get_attr", "call_module", "placeholder", "output"])


def _torch_name(func) -> str | None:
    """torch's dotted name for an ember function reachable from a public namespace."""
    from ._symbolic_trace import _public_names
    return _public_names().get(id(func))


def _get_qualified_name(func: Callable[..., Any]) -> str:
    """The dotted name a graph prints for ``func`` (``torch.relu``, ``operator.add``,
    ``torch.ops.aten.add.Tensor``)."""
    if hasattr(func, "overloadpacket") and hasattr(func, "_overloadname"):
        return f"torch.ops.{func}"
    if getattr(builtins, func.__name__, None) is func:
        return func.__name__
    name = _torch_name(func)
    if name is not None:
        return name
    from .._tensor import Tensor
    if getattr(Tensor, func.__name__, None) is func:
        return f"torch.Tensor.{func.__name__}"
    name = func.__name__
    if name == "<lambda>":
        import inspect
        try:
            name = inspect.getsource(func).split("=")[0].strip()
        except Exception as e:   # noqa: BLE001
            raise RuntimeError("Unable to represent lambda") from e
    module = getattr(func, "__module__", None)
    if module is None:
        raise RuntimeError(f"cannot find module for {func}")
    module = _torch_alias.torch_module(module) or module
    return f"{module}.{name}"


def _type_repr(obj: object) -> str:
    """A type's short name (``int``, ``module.Class``); ``repr`` for anything else."""
    if isinstance(obj, type) and not isinstance(obj, types.GenericAlias):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        module = _torch_alias.torch_module(obj.__module__) or obj.__module__
        return f"{module}.{obj.__qualname__}"
    if obj is ...:
        return "..."
    if isinstance(obj, types.FunctionType):
        return obj.__name__
    if isinstance(obj, (types.GenericAlias, types.UnionType, typing._GenericAlias)):
        # typing's repr names classes by module: ember's as torch's, as under the alias
        package = _torch_alias.torch_module(_PACKAGE)
        return _re.sub(rf"\b{_PACKAGE}(?=[.\]\[,| ])", package, repr(obj))
    return repr(obj)


def _format_arg(arg: object) -> str:
    if isinstance(arg, list):
        return "[" + ", ".join(_format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        comma = "," if len(arg) == 1 else ""
        return "(" + ", ".join(_format_arg(a) for a in arg) + comma + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


class Node:
    """One operation of a :class:`~ember.fx.Graph`: ``op`` is one of ``placeholder``,
    ``get_attr``, ``call_function``, ``call_method``, ``call_module`` or ``output``; ``target``
    what it calls or reads; ``args``/``kwargs`` its inputs, where other nodes stand for the
    values they compute. ``users`` are the nodes that read this one."""

    def __init__(self, graph, name: str, op: str, target: Target, args: tuple, kwargs: dict,
                 return_type: Any = None) -> None:
        if op == "call_function":
            if not callable(target):
                raise ValueError(
                    f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                    f"{_typename(target)} but a Callable is expected")
        else:
            if op not in _legal_ops and op != "root":   # "root": the list sentinel
                raise AssertionError(f"op '{op}' is not in _legal_ops")
            if not isinstance(target, str):
                raise ValueError(
                    f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                    f"{_typename(target)} but a str is expected")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.type = return_type
        self._input_nodes: dict[Node, None] = {}
        self.users: dict[Node, None] = {}
        self._args: tuple = ()
        self._kwargs: dict = {}
        self._prev = self
        self._next = self
        self._erased = False
        self._repr_fn = None
        self.meta: dict[str, Any] = {}
        self._update_args_kwargs(args, kwargs)

    # ------------------------------------------------------------------ linked list
    @property
    def next(self) -> Node:
        """The node after this one in the graph (the root sentinel after the last)."""
        return self._next

    @property
    def prev(self) -> Node:
        """The node before this one in the graph."""
        return self._prev

    def _remove_from_list(self) -> None:
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    def prepend(self, x: Node) -> None:
        """Insert ``x`` before this node (moving it if it is already in the graph)."""
        if self is x:
            raise AssertionError("Cannot prepend a node to itself")
        if self.graph is not x.graph:
            raise AssertionError("Attempting to move a Node into a different Graph")
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x: Node) -> None:
        """Insert ``x`` after this node (moving it if it is already in the graph)."""
        self._next.prepend(x)

    # ------------------------------------------------------------------ arguments
    @property
    def args(self) -> tuple:
        """The positional arguments; assigning them updates the users of the nodes involved."""
        return self._args

    @args.setter
    def args(self, a: tuple) -> None:
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self) -> dict:
        """The keyword arguments; assigning them updates the users of the nodes involved."""
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k: dict) -> None:
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self) -> list[Node]:
        """The nodes this one reads, in the order they appear in ``args`` and ``kwargs``."""
        return list(self._input_nodes)

    def update_arg(self, idx: int, arg: Argument) -> None:
        """Set positional argument ``idx`` to ``arg``."""
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key: str, arg: Argument) -> None:
        """Set keyword argument ``key`` to ``arg``."""
        self.kwargs = {**self.kwargs, key: arg}

    def _update_args_kwargs(self, new_args: tuple, new_kwargs: dict) -> None:
        self._args = map_aggregate(new_args, _identity)
        self._kwargs = map_aggregate(new_kwargs, _identity)
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        map_arg(self._args, self._input_nodes.setdefault)
        map_arg(self._kwargs, self._input_nodes.setdefault)
        for new in self._input_nodes:
            new.users.setdefault(self)

    @property
    def stack_trace(self) -> str | None:
        """The ``stack_trace`` recorded in ``meta``, if any."""
        return self.meta.get("stack_trace", None)

    @stack_trace.setter
    def stack_trace(self, trace: str | None) -> None:
        self.meta["stack_trace"] = trace

    def __repr__(self) -> str:
        if self._repr_fn:
            return self._repr_fn(self)
        return self.name

    @staticmethod
    def _pretty_print_target(target: object) -> str:
        if isinstance(target, str):
            return target
        if hasattr(target, "__module__"):
            name = getattr(target, "__name__", None)
            if name is None:
                return _get_qualified_name(target)
            if target.__module__ == "builtins":
                return f"builtins.{name}"
            if target.__module__ == "_operator":
                return f"operator.{name}"
        return _get_qualified_name(target)

    def format_node(self, placeholder_names: list[str] | None = None,
                    maybe_return_typename: list[str] | None = None) -> str | None:
        """A descriptive one-line form of this node, as ``print(graph)`` shows it."""
        if self.op == "placeholder":
            arg_str = self.target
            arg_str += arg_str + f": {_type_repr(self.type)}" if self.type else ""
            if placeholder_names:
                placeholder_names.append(arg_str)
                return None
            maybe_typename = f"{_type_repr(self.type)} " if self.type else ""
            default_val = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return (f"%{self.name} : {maybe_typename}[num_users={len(self.users)}] = "
                    f"{self.op}[target={self.target}]{default_val}")
        if self.op == "get_attr":
            maybe_typename = f"{_type_repr(self.type)} " if self.type is not None else ""
            return (f"%{self.name} : {maybe_typename}[num_users={len(self.users)}] = "
                    f"{self.op}[target={self._pretty_print_target(self.target)}]")
        if self.op == "output":
            if self.type and maybe_return_typename:
                maybe_return_typename[0] = f" -> {_type_repr(self.type)}"
            return f"return {self.args[0]}"
        maybe_typename = f"{_type_repr(self.type)} " if self.type is not None else ""
        return (f"%{self.name} : {maybe_typename}[num_users={len(self.users)}] = "
                f"{self.op}[target={self._pretty_print_target(self.target)}]("
                f"args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})")

    # ------------------------------------------------------------------ rewriting
    def replace_all_uses_with(self, replace_with: Node,
                              delete_user_cb: Callable[[Node], bool] | None = None, *,
                              propagate_meta: bool = False) -> list[Node]:
        """Make every user of this node read ``replace_with`` instead; returns those users
        (only the ones ``delete_user_cb`` accepts, when given)."""
        if propagate_meta:
            if len(replace_with.meta) != 0:
                raise AssertionError(
                    "Called node.replace_all_uses_with(replace_with, propagate_meta=True), "
                    "but replace_with already has .meta keys")
            replace_with.meta.update(self.meta)
        result = []
        for use_node in list(self.users):
            if delete_user_cb is not None and not delete_user_cb(use_node):
                continue
            result.append(use_node)
            use_node._replace_input_with(self, replace_with)
        return result

    def replace_input_with(self, old_input: Node, new_input: Node) -> None:
        """Read ``new_input`` wherever this node read ``old_input``."""
        self._replace_input_with(old_input, new_input)

    def _replace_input_with(self, old_input: Node, new_input: Node) -> None:
        def swap(n: Node) -> Node:
            return new_input if n is old_input else n
        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def is_impure(self, impure_random: bool = True) -> bool:
        """Whether dead-code elimination must keep this node: placeholders, the output,
        calls with side effects (``operator.setitem``, ``torch._assert``) and the random
        functions that advance the generator (kept whatever ``impure_random`` says, as torch
        keeps its Python-visible random functions)."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_module":
            target_mod = self.graph.owning_module.get_submodule(self.target)
            return getattr(target_mod, "_is_impure", False)
        if self.op == "call_function":
            return any(self.target is f for f in _impure_targets())
        return False


def _typename(obj) -> str:
    t = type(obj)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _identity(x):
    return x


def map_arg(a: Argument, fn: Callable[[Node], Argument]) -> Argument:
    """Apply ``fn`` to every :class:`Node` inside ``a`` (nested in tuples, lists, dicts and
    slices), rebuilding the containers."""
    if not callable(fn):
        raise AssertionError("torch.fx.map_arg(a, fn): fn must be a callable")
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def map_aggregate(a: Argument, fn: Callable[[Argument], Argument]) -> Argument:
    """Apply ``fn`` to every leaf value inside ``a`` (nested in tuples, lists, dicts and
    slices), rebuilding the containers."""
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        return t if not hasattr(a, "_fields") else type(a)(*t)
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn),
                     map_aggregate(a.step, fn))
    return fn(a)


@_functools.cache
def _impure_targets() -> tuple:
    """torch.fx's side-effectful functions and torch's random functions, as Ember's."""
    import importlib
    import operator
    package = importlib.import_module("..", __package__)
    return (operator.setitem, package._assert) + tuple(getattr(package, name) for name in (
        "bernoulli", "multinomial", "normal", "poisson", "rand", "rand_like", "randint",
        "randint_like", "randn", "randn_like", "randperm"))


del annotations  # keep dir() to torch's names
