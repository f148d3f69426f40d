"""``torch.fx.proxy``: :class:`Proxy`, the stand-in value a trace runs the program on, and
the tracers that append what proxies meet to a graph."""

from __future__ import annotations

import collections
import copy
import dis
import inspect
import operator
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from .graph import Graph, magic_methods, reflectable_magic_methods
from .node import _PACKAGE_DIR, Node, map_arg

__all__ = ["TracerBase", "GraphAppendingTracer", "TraceError", "Proxy", "Attribute",
           "ParameterProxy", "Scope", "ScopeContextManager"]


class Scope:
    """The module path and type of the module whose ``forward`` a trace is in."""

    def __init__(self, module_path: str, module_type: Any) -> None:
        self.module_path = module_path
        self.module_type = module_type


class ScopeContextManager:
    """Set a tracer's current :class:`Scope` for the duration of a ``with`` block."""

    def __init__(self, scope: Scope, current_scope: Scope) -> None:
        self._prev_scope = Scope(scope.module_path, scope.module_type)
        scope.module_path = current_scope.module_path
        scope.module_type = current_scope.module_type
        self._scope = scope

    def __enter__(self) -> Scope:
        return self._scope

    def __exit__(self, *args: object) -> None:
        self._scope.module_path = self._prev_scope.module_path
        self._scope.module_type = self._prev_scope.module_type


class TraceError(ValueError):
    """A traced program did something a symbolic trace cannot record."""


def _base_types() -> tuple:
    from .. import Tensor, device, dtype, layout, memory_format
    return (str, int, float, bool, complex, dtype, Tensor, device, memory_format, layout)


class TracerBase:
    """What every tracer does: create nodes in ``self.graph`` and lower argument values into
    graph arguments."""

    graph: Graph
    record_stack_traces = False
    # with record_stack_traces, keep only the frames of ``forward`` functions
    _record_forward_stack_traces_only = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = "forward"

    def create_node(self, kind: str, target: Any, args: tuple, kwargs: dict,
                    name: str | None = None, type_expr: Any = None) -> Node:
        """Insert a node into the graph (override to add metadata to every node); a node
        made inside a module call records the stack of modules in ``meta['nn_module_stack']``."""
        node = self.graph.create_node(kind, target, args, kwargs, name, type_expr)
        scope = getattr(self, "scope", None)
        if scope is not None:
            self.node_name_to_scope[node.name] = (scope.module_path, scope.module_type)
        if getattr(self, "module_stack", None):
            node.meta["nn_module_stack"] = copy.copy(self.module_stack)
        if self.record_stack_traces and not node.stack_trace:
            user_stack_summary = self._filter_traceback_frames(traceback.StackSummary.from_list(
                [(f.filename, f.lineno, f.name, f.line) for f in traceback.extract_stack()]))
            if user_stack_summary:
                node.stack_trace = "".join(user_stack_summary.format()).strip()
        return node

    def _filter_traceback_frames(
            self, user_stack_summary: traceback.StackSummary) -> traceback.StackSummary:
        """The frames a node's ``stack_trace`` keeps: from the first ``forward`` on (none
        without one), or only the ``forward`` frames with ``_record_forward_stack_traces_only``;
        never the library's own."""
        if self._record_forward_stack_traces_only:
            user_frames = [f for f in user_stack_summary if f.name == "forward"]
        else:
            first_forward = next((i for i, f in enumerate(user_stack_summary)
                                  if f.name == "forward"), None)
            user_frames = [] if first_forward is None else user_stack_summary[first_forward:]
        return traceback.StackSummary.from_list(
            [f for f in user_frames if not f.filename.startswith(_PACKAGE_DIR)])

    def proxy(self, node: Node) -> Proxy:
        """Wrap ``node`` in a :class:`Proxy` of this tracer."""
        return Proxy(node, self)

    def create_proxy(self, kind: str, target: Any, args: tuple, kwargs: dict,
                     name: str | None = None, type_expr: Any = None,
                     proxy_factory_fn: Callable[[Node], Proxy] | None = None) -> Proxy:
        """Create a node from values (proxies among them) and return its :class:`Proxy`."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        if not isinstance(args_, tuple):
            raise AssertionError(f"Expected args_ to be tuple, got {type(args_)}")
        if not isinstance(kwargs_, dict):
            raise AssertionError(f"Expected kwargs_ to be dict, got {type(kwargs_)}")
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if not proxy_factory_fn else proxy_factory_fn(node)

    def create_arg(self, a: Any) -> Any:
        """Lower a value seen as an argument into one a node can hold: proxies become their
        nodes, containers are lowered item by item, plain constants stay."""
        if isinstance(a, Proxy):
            return a.node
        if hasattr(a, "__fx_create_arg__"):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple):
            if hasattr(a, "_fields"):
                return type(a)(*[self.create_arg(elem) for elem in a])
            return type(a)([self.create_arg(elem) for elem in a])
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            r = {}
            for k, v in a.items():
                if not isinstance(k, str):
                    k = self.create_arg(k)
                    map_arg(k, _no_nodes_error)
                r[k] = self.create_arg(v)
            return r
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if isinstance(a, _base_types()) or a is None or a is ...:
            return a
        import enum
        if isinstance(a, enum.Enum):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj: Proxy) -> bool:
        """Called when a proxy is converted to bool (control flow): an error by default."""
        raise TraceError("symbolically traced variables cannot be used as inputs to "
                         "control flow")

    def iter(self, obj: Proxy) -> Iterator:
        """Called when a proxy is iterated: an error by default."""
        raise TraceError(
            "Proxy object cannot be iterated. This can be "
            "attempted when the Proxy is used in a loop or"
            " as a *args or **kwargs function argument. "
            "See the torch.fx docs on pytorch.org for a "
            "more detailed explanation of what types of "
            "control flow can be traced, and check out the"
            " Proxy docstring for help troubleshooting "
            "Proxy iteration errors")

    def keys(self, obj: Proxy) -> Proxy:
        """Called for ``proxy.keys()`` (``**proxy``): records the call."""
        return Attribute(obj, "keys")()


class GraphAppendingTracer(TracerBase):
    """A tracer that appends to an existing graph (what a bare ``Proxy(node)`` uses)."""

    def __init__(self, graph: Graph) -> None:
        super().__init__()
        self.graph = graph
        self.scope = Scope("", None)
        self.module_stack: collections.OrderedDict = collections.OrderedDict()
        self.node_name_to_scope: dict[str, tuple[str, type]] = {}


def _no_nodes_error(arg: Any):
    raise RuntimeError("Keys for dictionaries used as an argument cannot contain a "
                       f"Node. Got key: {arg}")


class Proxy:
    """A :class:`~ember.fx.Node` wrapped so that the operations a program applies to it
    (operators, methods, attribute reads, torch functions) are recorded into its graph.
    A proxy cannot be iterated, used in control flow or measured with ``len``."""

    def __init__(self, node: Node, tracer: TracerBase | None = None) -> None:
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> Attribute:
        return Attribute(self, k)

    def __getstate__(self) -> dict:
        return self.__dict__

    def __setstate__(self, d: dict) -> None:
        self.__dict__ = d

    def __deepcopy__(self, memo: dict) -> Proxy:
        new = Proxy(copy.deepcopy(self.node, memo), copy.deepcopy(self.tracer, memo))
        return new

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self) -> Iterator[Proxy]:
        frame = inspect.currentframe()
        calling_frame = frame.f_back
        from bisect import bisect_left
        insts = list(dis.get_instructions(calling_frame.f_code))
        inst = insts[bisect_left(insts, calling_frame.f_lasti, key=lambda x: x.offset)]
        if inst.opname == "UNPACK_SEQUENCE":
            return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __abs__(self) -> Proxy:
        return self.tracer.create_proxy("call_function", operator.abs, (self,), {})

    def __bool__(self) -> bool:
        return self.tracer.to_bool(self)

    def keys(self) -> Proxy:
        """``proxy.keys()``, as the tracer records it."""
        return self.tracer.keys(self)

    def __len__(self) -> int:
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you "
                           "want this call to be recorded, please call torch.fx.wrap('len') "
                           "at module scope")


class Attribute(Proxy):
    """``proxy.attr``: recorded as a method call when called, else as ``getattr``."""

    def __init__(self, root: Proxy, attr: str) -> None:
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:
        """The ``getattr`` node, created at first use (method calls never need it)."""
        if self._node is None:
            self._node = self.tracer.create_proxy(
                "call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


class ParameterProxy(Proxy):
    """A proxy for a module parameter whose shape queries answer from the parameter."""

    def __init__(self, tracer: TracerBase, node: Node, name: str, param) -> None:
        super().__init__(node, tracer)
        self.param = param
        self.name = name

    def __repr__(self) -> str:
        return f"ParameterProxy({self.name})"

    @property
    def shape(self):
        """The parameter's shape."""
        return self.param.shape

    def size(self):
        """The parameter's size."""
        return self.param.size()

    def dim(self) -> int:
        """The parameter's number of dimensions."""
        return self.param.dim()

    @property
    def ndim(self) -> int:
        """The parameter's number of dimensions."""
        return self.param.ndim

    def numel(self) -> int:
        """The parameter's number of elements."""
        return self.param.numel()

    def nelement(self) -> int:
        """The parameter's number of elements."""
        return self.param.nelement()


def _define_magic(method: str) -> None:
    def impl(*args: Any, **kwargs: Any) -> Proxy:
        tracer = args[0].tracer
        return tracer.create_proxy("call_function", getattr(operator, method), args, kwargs)
    impl.__name__ = method
    setattr(Proxy, f"__{method.strip('_')}__", impl)


# ``tensor <op> proxy``: torch's Tensor operator hands torch_function the Tensor method it
# stands for, recorded as a method call on the tensor
_TENSOR_METHODS = {"add": "add", "sub": "sub", "mul": "mul", "floordiv": "__floordiv__",
                   "truediv": "div", "div": "div", "mod": "remainder", "pow": "pow",
                   "lshift": "__lshift__", "rshift": "__rshift__", "and_": "__and__",
                   "or_": "__or__", "xor": "__xor__", "matmul": "matmul"}


def _define_reflectable(orig_method_name: str) -> None:
    method_name = f"__r{orig_method_name.strip('_')}__"

    def impl(self: Proxy, rhs: Any) -> Proxy:
        from .. import Tensor
        if isinstance(rhs, Tensor):
            return self.tracer.create_proxy("call_method", _TENSOR_METHODS[orig_method_name],
                                            (rhs, self), {})
        target = getattr(operator, orig_method_name)
        return self.tracer.create_proxy("call_function", target, (rhs, self), {})
    impl.__name__ = impl.__qualname__ = method_name
    setattr(Proxy, method_name, impl)


for _method in magic_methods:
    _define_magic(_method)
for _method in reflectable_magic_methods:
    _define_reflectable(_method)


del annotations  # keep dir() to torch's names
