"""``torch.fx.graph_module``: :class:`GraphModule`, a module whose ``forward`` is generated
from a :class:`~ember.fx.Graph`."""

from __future__ import annotations

import linecache
import sys
import traceback
from typing import Any

from ..nn import Module as _Module
from .graph import Graph, PythonCode, _PyTreeCodeGen
from .node import _PACKAGE_DIR
from .node import map_aggregate as _map_aggregate
from .node import map_arg as _map_arg

__all__ = ["GraphModule"]


def _copy_attr(from_module: _Module, to_module: _Module, target: str) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return        # a parent already installed brings its children along
        if t is None:
            t = _Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    _set(to_module, field, orig)


def _assign_attr(from_obj: Any, to_module: _Module, target: str) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = _Module()
            setattr(to_module, item, t)
        to_module = t
    _set(to_module, field, from_obj)


def _set(module: _Module, field: str, value: Any) -> None:
    from .. import Tensor
    from ..nn import Parameter
    # a tensor that is no parameter becomes a buffer
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        module.register_buffer(field, value)
    else:
        setattr(module, field, value)


class _EvalCacheLoader:
    """Keeps the generated sources under their made-up file names, so that tracebacks and
    ``linecache`` show the generated lines."""

    def __init__(self) -> None:
        self.eval_cache: dict[str, str] = {}
        self.next_id = 0

    def cache(self, src: str, globals_: dict, co_fields: dict | None = None) -> str:
        """Store ``src`` and return its file name (``<eval_with_key>.N from file:line in
        name`` for code traced from a function)."""
        key = f"<eval_with_key>.{self.next_id}"
        self.next_id += 1
        if co_fields and "co_filename" in co_fields:
            if "co_firstlineno" not in co_fields or "co_name" not in co_fields:
                key = co_fields["co_filename"]
            else:
                key += (f" from {co_fields['co_filename']}:{co_fields['co_firstlineno']} "
                        f"in {co_fields['co_name']}")
        self.eval_cache[key] = src
        globals_copy = {**globals_, "__file__": key, "__name__": key, "__loader__": self}
        linecache.lazycache(key, globals_copy)
        return key

    def get_source(self, module_name: str) -> str | None:
        """The source stored under ``module_name`` (the loader protocol of PEP 302)."""
        return self.eval_cache.get(module_name)


_loader = _EvalCacheLoader()
def _forward_from_src(src: str, globals_: dict, co_fields: dict | None = None):
    globals_copy = dict(globals_)
    key = _loader.cache(src, globals_, co_fields)
    # dont_inherit: this module's ``from __future__ import annotations`` stays out
    exec(compile(src, key, "exec", dont_inherit=True), globals_copy)  # noqa: S102
    return globals_copy["forward"]


class _WrappedCall:
    """A GraphModule's ``__call__``: an error raised in the generated code also prints, to
    stderr, its traceback and the generated lines around the failing one."""

    def __init__(self, cls: type, cls_call) -> None:
        self.cls = cls
        self.cls_call = cls_call

    @staticmethod
    def _generate_error_message(frame_summary: traceback.FrameSummary) -> str:
        err_lineno = frame_summary.lineno
        all_src_lines = linecache.getlines(frame_summary.filename)
        custom_msg = ("Call using an FX-traced Module, "
                      f"line {err_lineno} of the traced Module's generated forward function:")
        before_err = "".join(all_src_lines[err_lineno - 2:err_lineno])
        marker = "~" * len(frame_summary.line) + "~~~ <--- HERE"
        err_and_after_err = "\n".join(all_src_lines[err_lineno:err_lineno + 2])
        return "\n".join([traceback.format_exc(), custom_msg, before_err, marker,
                          err_and_after_err])

    def __call__(self, obj: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            if self.cls_call is not None:
                return self.cls_call(obj, *args, **kwargs)
            # looked up at each call: a trace patches Module.__call__
            return super(self.cls, obj).__call__(*args, **kwargs)
        except Exception as e:
            # the innermost frame outside the library's own (torch's operators are C code)
            frames = traceback.StackSummary.extract(traceback.walk_tb(e.__traceback__))
            topmost = next((f for f in reversed(frames)
                            if not f.filename.startswith(_PACKAGE_DIR)
                            or f.name in _PYTHON_LEVEL_FRAMES), frames[-1])
            if "eval_with_key" in topmost.filename:
                print(_WrappedCall._generate_error_message(topmost), file=sys.stderr)
                raise e.with_traceback(None)  # noqa: B904
            raise


# the library's functions that torch writes in Python (torch.export's input guards): their
# frame is the innermost one, so a failure there prints no excerpt of the generated code
_PYTHON_LEVEL_FRAMES = frozenset({"_check_guards"})


def _call_wrapped(self, *args: Any, **kwargs: Any) -> Any:
    return self._wrapped_call(self, *args, **kwargs)


def _print_readable(module, module_name: str, print_output: bool) -> str:
    from ..nn.modules.module import _addindent
    module_code = module.graph.python_code(root_module="self", verbose=True).src
    module_code = f"class {module_name}(torch.nn.Module):\n" + module_code.lstrip("\n")
    module_code = _addindent(module_code, 4)
    submodule_code_list = [""]
    for submodule_name, submodule in module.named_children():
        if isinstance(submodule, GraphModule):
            submodule_code_list.append(_print_readable(submodule, submodule_name, False))
    submodule_code = _addindent("\n".join(submodule_code_list), 4)
    output = module_code + submodule_code
    if print_output:
        print(output)
    return output


class _NodeRef:
    """A node named in a pickled graph's arguments."""

    def __init__(self, name: str) -> None:
        self.name = name


def _graph_records(graph: Graph) -> list[tuple]:
    """The graph as a flat list of node records (a linked list of nodes pickles recursively)."""
    def ref(n):
        return _NodeRef(n.name)
    return [(n.op, n.name, n.target, _map_arg(n.args, ref), _map_arg(n.kwargs, ref), n.type)
            for n in graph.nodes]


def _rebuild_graph_module(body: dict, records: list[tuple], codegen=None) -> GraphModule:
    """Unpickle a GraphModule: its attributes and the graph rebuilt from its records."""
    root = _Module()
    root.__dict__.update(body)
    graph = Graph()
    if codegen is not None:
        graph._codegen = codegen
    env: dict = {}

    def resolve(a):
        return _map_aggregate(a, lambda v: env[v.name] if isinstance(v, _NodeRef) else v)
    for op, name, target, args, kwargs, type_expr in records:
        env[name] = graph.create_node(op, target, resolve(args), resolve(kwargs), name,
                                      type_expr)
    return GraphModule(root, graph)


class GraphModule(_Module):
    """A module built from a graph: the submodules and attributes the graph names are taken
    from ``root`` (a module or a dict), and ``forward`` is the graph's generated code
    (``gm.code``). After editing ``gm.graph`` in place, call :meth:`recompile`."""

    def __new__(cls, *args: Any, **kwargs: Any):
        # each instance has its own class, to hold its own forward
        for t in cls.__mro__:
            c = t.__qualname__.split(".")[-1]
            if c != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass
        GraphModuleImpl.__module__ = GraphModule.__module__
        return super().__new__(GraphModuleImpl)

    def __init__(self, root: _Module | dict, graph: Graph, class_name: str = "GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, _Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            targets_to_copy = []
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError("Node " + str(node) + " referenced target "
                                           + node.target
                                           + " but that target was not provided in ``root``!")
                    targets_to_copy.append(node.target)
            targets_to_copy.sort(key=lambda t: t.count("."))
            for target_to_copy in targets_to_copy:
                _assign_attr(root[target_to_copy], self, target_to_copy)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph
        self._tracer_cls = None
        if graph._tracer_cls and "<locals>" not in graph._tracer_cls.__qualname__:
            self._tracer_cls = graph._tracer_cls
        self._tracer_extras = graph._tracer_extras or {}
        self.meta: dict[str, Any] = {}

    @property
    def graph(self) -> Graph:
        """The graph; assigning one recompiles ``forward``."""
        return self._graph

    @graph.setter
    def graph(self, g: Graph) -> None:
        if not isinstance(g, Graph):
            raise AssertionError(f"Expected a Graph instance, but got {type(g)}")
        self._graph = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self) -> str:
        """The Python source of ``forward``."""
        if not hasattr(self, "_code"):
            raise RuntimeError("Code has not been generated! Please report a bug to PyTorch")
        return self._code

    def recompile(self) -> PythonCode:
        """Regenerate ``forward`` (and ``code``) from ``graph``."""
        if isinstance(self._graph._codegen, _PyTreeCodeGen):
            self._in_spec = self._graph._codegen.pytree_info.in_spec
            self._out_spec = self._graph._codegen.pytree_info.out_spec
        python_code = self._graph.python_code(root_module="self")
        self._code = python_code.src
        cls = type(self)
        cls.forward = _forward_from_src(self._code, python_code.globals,
                                        self._graph._co_fields)
        if "_wrapped_call" not in vars(cls):
            cls._wrapped_call = _WrappedCall(cls, cls.__call__ if "__call__" in vars(cls)
                                             else None)
        cls.__call__ = _call_wrapped
        return python_code

    def add_submodule(self, target: str, m: _Module) -> bool:
        """Install ``m`` at the dotted path ``target`` (creating empty modules on the way);
        False if the path runs through something that is no module."""
        *prefix, field = target.split(".")
        mod: _Module = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = _Module()
                setattr(mod, item, submod)
            if not isinstance(submod, _Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target: str) -> bool:
        """Remove the submodule at ``target``; False if there is no module there."""
        atoms = target.split(".")
        path, target_submod = atoms[:-1], atoms[-1]
        mod: _Module = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, _Module):
                return False
        if not hasattr(mod, target_submod):
            return False
        if not isinstance(getattr(mod, target_submod), _Module):
            return False
        delattr(mod, target_submod)
        return True

    def delete_all_unused_submodules(self) -> None:
        """Remove the submodules no ``call_module`` or ``get_attr`` node reaches."""
        import itertools
        used: list[str] = []
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr") and isinstance(node.target, str):
                used.extend(itertools.accumulate(
                    node.target.split("."), lambda x, y: ".".join([x, y] if y else [x])))
                if node.op == "call_module":
                    try:
                        submod = self.get_submodule(node.target)
                    except AttributeError:
                        continue
                    used.extend(f"{node.target}.{name}" for name, _ in submod.named_modules()
                                if name != "")
        for name in [name for name, _ in self.named_modules() if name not in used]:
            self.delete_submodule(name)

    def print_readable(self, print_output: bool = True, **kwargs: Any) -> str:
        """This module's code (with the shapes ShapeProp recorded) as a class definition,
        followed by its GraphModule children's; printed unless ``print_output`` is False."""
        return _print_readable(self, self._get_name(), print_output)

    def __str__(self) -> str:
        orig_str = super().__str__()
        print_readable_reminder = ("# To see more debug info, please use "
                                   "`graph_module.print_readable()`")
        return "\n".join([orig_str, self._code, print_readable_reminder])

    def __reduce__(self):
        # the per-instance class cannot be pickled by name: rebuild the module from its
        # attributes and its graph (as torch does, under the class name GraphModule)
        body = self.__dict__.copy()
        del body["_graph"]
        codegen = self._graph._codegen
        return _rebuild_graph_module, (body, _graph_records(self._graph),
                                       codegen if isinstance(codegen, _PyTreeCodeGen) else None)

    def __deepcopy__(self, memo: dict) -> GraphModule:
        import copy
        res = type(self).__new__(type(self))
        memo[id(self)] = res
        fake_mod = _Module()
        fake_mod.__dict__ = copy.deepcopy(self.__dict__, memo)
        GraphModule.__init__(res, fake_mod, fake_mod.__dict__["_graph"])
        return res

    def __copy__(self) -> GraphModule:
        res = GraphModule(self, self.graph, self.__class__.__name__)
        res.meta = getattr(self, "meta", {})
        return res
