"""``torch.fx._symbolic_trace``: :class:`Tracer`, :func:`symbolic_trace` and :func:`wrap`.

torch records calls of its functions on proxies through ``__torch_function__``. Ember has no
such protocol (its eager calls stay free of the check), so while a trace runs, and only then,
the tracer patches the public functions of ``ember``, ``ember.nn.functional``,
``ember.special``, ``ember.linalg`` and ``ember.fft`` (and the same objects where the traced
code holds them: imported by name, in module-level dicts, as module attributes) with wrappers
that record a ``call_function`` node when an argument is a :class:`~ember.fx.Proxy`; the
patches are undone when the trace ends.
"""

from __future__ import annotations

import ast
import builtins
import collections
import functools
import importlib
import inspect
import math
import types
from collections.abc import Callable
from itertools import chain
from typing import Any

from . import _torch_names
from .graph import Graph
from .graph_module import GraphModule
from .node import map_aggregate
from .proxy import ParameterProxy, Proxy, Scope, ScopeContextManager, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH", "PHBase", "is_fx_tracing"]

HAS_VARSTUFF = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
_PACKAGE = __package__.rpartition(".")[0]      # ember
_PATCHED_NAMESPACES = tuple(_PACKAGE + sub for sub in ("", ".nn.functional", ".special",
                                                       ".linalg", ".fft"))

_PRIVATE_TRACED = ("_assert",)      # torch functions fx users call that are not public

_is_fx_tracing_flag = False


def is_fx_tracing() -> bool:
    """Whether a symbolic trace is running."""
    return _is_fx_tracing_flag


class PHBase:
    """Object representing an input placeholder to ``concrete_args``."""

    def __repr__(self) -> str:
        return "PH"


PH = PHBase()


def _transfer_attrs(fr: object, to: object) -> None:
    """Put a custom placeholder's data attributes on its node (those it does not have)."""
    for attr_name in dir(fr):
        attr_val = getattr(fr, attr_name)
        if (not callable(attr_val) and not attr_name.startswith("__")
                and not hasattr(to, attr_name)):
            setattr(to, attr_name, attr_val)


# ----------------------------------------------------------------------------- torch's names

def _traced_functions() -> tuple[tuple[dict, str, Any, Any, tuple | None, str | None], ...]:
    """(namespace dict, name, ember function, recorded target, torch call form, method
    recorded instead) for every public function of the patched namespaces (read again once
    ``__torch_function__`` dispatch is switched on, or ``ember.masked`` routes functions: both
    replace the namespaces' functions)."""
    from ..overrides import _S
    return _read_traced_functions(_S.active, _S.rebinds)


@functools.cache
def _read_traced_functions(dispatching: bool, rebinds: int) -> tuple:
    from .. import _torch_alias
    out = []
    names: dict[int, str] = {}
    aliases: dict[int, str] = {}
    for mod_name in _PATCHED_NAMESPACES:
        mod = importlib.import_module(mod_name)
        torch_ns = _torch_alias.torch_module(mod_name)
        lazy_modules = getattr(mod, "_LAZY_MODULES", ())
        for name in sorted(dir(mod)):    # dir(): the lazily defined functions too
            if (name.startswith("_") and name not in _PRIVATE_TRACED) or name in lazy_modules:
                continue
            fn = getattr(mod, name, None)
            if not isinstance(fn, (types.FunctionType, types.BuiltinFunctionType)):
                continue
            key = f"{torch_ns}.{name}"
            qualname = _torch_names.QUALNAMES.get(key, key)
            target = fn
            if names.setdefault(id(fn), qualname) != qualname:
                # one ember function torch spells two ways (torch.rms_norm and
                # torch.nn.functional.rms_norm): the second name gets its own target
                target = _alias(fn)
                aliases[id(target)] = qualname
            out.append((vars(mod), name, fn, target, _torch_names.CALL_FORMS.get(key),
                        _METHOD_CALLS.get(key)))
    names.update(aliases)
    _NAMES.update(names)
    return tuple(out)


_NAMES: dict[int, str] = {}


def _public_names() -> dict[int, str]:
    """id(ember function or target) -> the dotted name torch gives it."""
    _traced_functions()
    return _NAMES


def _alias(fn):
    @functools.wraps(fn)
    def alias(*args, **kwargs):
        return fn(*args, **kwargs)
    return alias


@functools.cache
def _form_signature(params: tuple) -> inspect.Signature:
    ps = []
    for name, kind, default in params:
        d = inspect.Parameter.empty
        if default is not None:
            try:
                d = ast.literal_eval(default)
            except (ValueError, SyntaxError):
                d = _Unknown
        ps.append(inspect.Parameter(name, inspect._ParameterKind(kind), default=d))
    return inspect.Signature(ps)


class _Unknown:
    """A torch default that is no literal: the call is recorded as written."""


def _recorded_call(form: tuple | None, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The (args, kwargs) torch's ``handle_torch_function`` call hands over for a call
    written as ``args``/``kwargs`` (as written where torch's function is a builtin)."""
    if form is None:
        return args, kwargs
    positional, keywords, params = form
    try:
        bound = _form_signature(params).bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    bound.apply_defaults()
    values = bound.arguments
    if any(v is _Unknown for v in values.values()):
        return args, kwargs
    names = [p.lstrip("*") for p in positional] + [p for _, p in keywords]
    if any(n not in values for n in names):    # the form names a local (einsum's operands)
        return args, kwargs
    pos: list = []
    for p in positional:
        if p.startswith("*"):
            pos.extend(values[p[1:]])
        else:
            pos.append(values[p])
    return tuple(pos), {k: values[p] for k, p in keywords}


def _find_proxy(*objects_to_search: Any) -> Proxy | None:
    """The last :class:`Proxy` inside the given (nested) values, or None."""
    proxy = None

    def find_proxy(x: Any) -> None:
        nonlocal proxy
        if isinstance(x, Proxy):
            proxy = x
    map_aggregate(objects_to_search, find_proxy)
    return proxy


# torch's Python functions without a torch_function check, which a trace runs through: what
# they record (``F.tanh(x)`` is ``x.tanh()``)
_METHOD_CALLS = {"torch.nn.functional.tanh": "tanh", "torch.nn.functional.sigmoid": "sigmoid"}


def _create_traced_func(orig_fn, target, form, method=None):
    """``orig_fn`` that records a call of ``target`` (or of tensor method ``method``) when
    an argument is a proxy."""
    @functools.wraps(orig_fn)
    def traced(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is not None:
            if method is not None:
                return proxy.tracer.create_proxy("call_method", method, args, kwargs)
            args, kwargs = _recorded_call(form, args, kwargs)
            return proxy.tracer.create_proxy("call_function", target, args, kwargs)
        return orig_fn(*args, **kwargs)
    return traced


def _create_wrapped_func(orig_fn):
    @functools.wraps(orig_fn)
    def wrapped(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is not None:
            return_proxy = proxy.tracer.create_proxy("call_function", orig_fn, args, kwargs)
            return_proxy.node.meta["is_wrapped"] = True
            return return_proxy
        return orig_fn(*args, **kwargs)
    return wrapped


# ----------------------------------------------------------------------------- patching

class _Patcher:
    """Patches names in dicts and attributes of classes; undoes them all on exit."""

    def __init__(self) -> None:
        self.patches_made: list[tuple[Any, str, Any, bool]] = []
        self.visited: set[int] = set()

    def patch(self, frame_dict: dict, name: str, new_fn: Any) -> None:
        """Set ``frame_dict[name] = new_fn`` until exit."""
        new_fn.__fx_already_patched = True
        if name not in frame_dict and hasattr(builtins, name):
            self.patches_made.append((frame_dict, name, None, False))
        elif getattr(frame_dict[name], "__fx_already_patched", False):
            return
        else:
            self.patches_made.append((frame_dict, name, frame_dict[name], True))
        frame_dict[name] = new_fn

    def patch_method(self, cls: type, name: str, new_fn: Any) -> None:
        """Set ``cls.name = new_fn`` until exit."""
        new_fn.__fx_already_patched = True
        orig_fn = getattr(cls, name)
        if getattr(orig_fn, "__fx_already_patched", False):
            return
        self.patches_made.append((cls, name, orig_fn, None))
        setattr(cls, name, new_fn)

    def visit_once(self, thing: Any) -> bool:
        """True the first time ``thing`` is seen."""
        idx = id(thing)
        if idx in self.visited:
            return False
        self.visited.add(idx)
        return True

    def __enter__(self) -> _Patcher:
        return self

    def __exit__(self, *args: object) -> None:
        while self.patches_made:
            owner, name, orig, existed = self.patches_made.pop()
            if existed is None:
                setattr(owner, name, orig)
            elif existed:
                owner[name] = orig
            else:
                del owner[name]
        self.visited.clear()


_wrapped_fns_to_patch: dict[tuple[int, str], dict] = {}


def _patch_wrapped_functions(patcher: _Patcher) -> None:
    for (_, name), frame_dict in _wrapped_fns_to_patch.copy().items():
        if name not in frame_dict and hasattr(builtins, name):
            orig_fn = getattr(builtins, name)
        else:
            orig_fn = frame_dict[name]
        patcher.patch(frame_dict, name, _create_wrapped_func(orig_fn))


def _autowrap_check(patcher: _Patcher, frame_dict: dict, function_ids: set[int],
                    traced: dict[int, Any]) -> None:
    """Patch ``frame_dict``'s autowrapped functions (``math.sqrt``) and the ember functions
    it imported by name."""
    if patcher.visit_once(frame_dict):
        own = frame_dict.get("__name__") in _PATCHED_NAMESPACES
        for name, value in list(frame_dict.items()):
            if isinstance(value, dict) and not own and not name.startswith("__"):
                _patch_held(patcher, value, traced)     # ACT2FN = {"gelu": F.gelu, ...}
            if name.startswith("_") or not callable(value):
                continue
            if id(value) in function_ids:
                patcher.patch(frame_dict, name, _create_wrapped_func(value))
            elif id(value) in traced and not own:
                patcher.patch(frame_dict, name, traced[id(value)])


def _patch_held(patcher: _Patcher, holder: dict, traced: dict[int, Any]) -> None:
    """Patch the ember functions held as values of ``holder`` (a dict of activations, a
    module's ``self.act = F.gelu``)."""
    if patcher.visit_once(holder):
        for key, value in list(holder.items()):
            if id(value) in traced:
                patcher.patch(holder, key, traced[id(value)])


# id(ember function or target) -> its recording wrapper, while a trace runs: the code of a
# GraphModule called inside a trace names the functions themselves (see graph._TorchNames)
_ACTIVE_WRAPPERS: dict[int, Any] = {}


def _traced_version(obj):
    """The recording wrapper of ``obj`` while a trace runs, else ``obj``."""
    return _ACTIVE_WRAPPERS.get(id(obj), obj) if _ACTIVE_WRAPPERS else obj


def _patch_ember_functions(patcher: _Patcher) -> dict[int, Any]:
    traced = {}
    for ns_dict, name, fn, target, form, method in _traced_functions():
        new = traced.get(id(fn)) if target is fn and method is None else None
        if new is None:
            new = _create_traced_func(fn, target, form, method)
            if target is fn and method is None:
                traced[id(fn)] = new
            _ACTIVE_WRAPPERS.setdefault(id(target), new)
        patcher.patch(ns_dict, name, new)
    return traced


def wrap(fn_or_name: str | Callable) -> str | Callable:
    """At a module's top level: record calls of the module-global function ``fn_or_name``
    (a name or the function) as ``call_function`` nodes instead of tracing through them."""
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or "
                           "string name")
    fn_name = fn_or_name if isinstance(fn_or_name, str) else fn_or_name.__name__
    f = inspect.currentframe().f_back
    if f.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch[(id(f.f_globals), fn_name)] = f.f_globals
    return fn_or_name


# ----------------------------------------------------------------------------- Tracer

class Tracer(TracerBase):
    """Turns a module or function into a :class:`~ember.fx.Graph` by running it on
    :class:`~ember.fx.Proxy` inputs. Subclass it to change what is a leaf
    (:meth:`is_leaf_module`), how module calls are recorded (:meth:`call_module`) or how
    values become graph arguments (:meth:`create_arg`)."""

    def __init__(self, autowrap_modules: tuple = (math,), autowrap_functions: tuple = (),
                 param_shapes_constant: bool = False) -> None:
        super().__init__()
        self._autowrap_function_ids: set[int] = {
            id(value) for name, value in chain.from_iterable(
                m.__dict__.items() for m in autowrap_modules)
            if not name.startswith("_") and callable(value)}
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search: list = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths: dict | None = None
        self.root_module_name = ""
        self.scope = Scope("", None)
        self.module_stack: collections.OrderedDict = collections.OrderedDict()
        self.num_calls: dict[str, int] = {}
        self.node_name_to_scope: dict[str, tuple[str, type]] = {}
        self._qualname_counter: dict[str, int] = collections.defaultdict(int)

    def get_fresh_qualname(self, prefix: str) -> str:
        """A name ``prefix<N>`` no attribute of the root has yet."""
        qualname = f"{prefix}0"
        if not hasattr(self.root, qualname):
            self._qualname_counter[prefix] = 0
            return qualname
        i = self._qualname_counter[prefix]
        while True:
            qualname = f"{prefix}{i}"
            i += 1
            if not hasattr(self.root, qualname):
                break
        self._qualname_counter[prefix] = i
        return qualname

    def create_arg(self, a: Any) -> Any:
        """As :meth:`TracerBase.create_arg`, and: parameters, buffers and submodules of the
        root become ``get_attr`` nodes, other tensors are stored on the root as
        ``_tensor_constant<N>`` and read with ``get_attr``."""
        from .. import Tensor
        from ..nn import Module, Parameter
        if isinstance(a, Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, Tensor):
            for n_, p_ in self.root.named_buffers():
                if a is p_:
                    return self.create_node("get_attr", n_, (), {})
        elif isinstance(a, Module):
            for n_, p_ in self.root.named_modules():
                if a is p_:
                    return self.create_node("get_attr", n_, (), {})
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            args = tuple(self.create_arg(elem) for elem in a)
            return self.create_node("call_function", a.__class__, args, {})
        if isinstance(a, Tensor):
            qualname = self.tensor_attrs.get(a)
            if not qualname:
                qualname = self.get_fresh_qualname("_tensor_constant")
                self.tensor_attrs[a] = qualname
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    def is_leaf_module(self, m, module_qualified_name: str) -> bool:
        """Whether a call of ``m`` is recorded as one ``call_module`` node (the default for
        the modules of ``torch.nn`` other than ``Sequential``) rather than traced into."""
        from ..nn import Sequential
        return (m.__module__.startswith((f"{_PACKAGE}.nn.", "torch.nn."))
                and not isinstance(m, Sequential))

    def path_of_module(self, mod) -> str:
        """The qualified name of ``mod`` in the root module."""
        if self.submodule_paths:
            path = self.submodule_paths.get(mod)
            if path is None:
                raise NameError("module is not installed as a submodule")
            return path
        for n, p in self.root.named_modules():
            if mod is p:
                return n
        raise NameError("module is not installed as a submodule")

    def call_module(self, m, forward: Callable, args: tuple, kwargs: dict) -> Any:
        """Record a ``call_module`` node for a leaf module, else trace through ``forward``."""
        module_qualified_name = self.path_of_module(m)
        with ScopeContextManager(self.scope, Scope(module_qualified_name, type(m))) as _scope:
            num_calls = self.num_calls.get(module_qualified_name, 0)
            module_key = (f"{_scope.module_path}@{num_calls}" if num_calls > 0
                          else _scope.module_path)
            self.module_stack[module_key] = (module_qualified_name, _scope.module_type)
            self.num_calls[module_qualified_name] = num_calls + 1
            if not self.is_leaf_module(m, module_qualified_name):
                ret_val = forward(*args, **kwargs)
            else:
                ret_val = self.create_proxy("call_module", module_qualified_name, args, kwargs)
            self.module_stack.popitem(last=True)
        return ret_val

    def getattr(self, attr: str, attr_val: Any, parameter_proxy_cache: dict) -> Any:
        """A module attribute read while tracing: parameters become (cached) ``get_attr``
        proxies, anything else is returned as it is."""
        from .. import Tensor
        from ..nn import Parameter

        def maybe_get_proxy_for_attr(attr_val, collection_to_search, cache):
            for n, p in collection_to_search:
                if attr_val is p:
                    if n not in cache:
                        kwargs = {}
                        if "proxy_factory_fn" in inspect.signature(
                                self.create_proxy).parameters:
                            kwargs["proxy_factory_fn"] = (
                                None if not self.param_shapes_constant
                                else functools.partial(_parameter_proxy, self, n, attr_val))
                        cache[n] = self.create_proxy("get_attr", n, (), {}, **kwargs)
                    return cache[n]
            return None

        if isinstance(attr_val, Parameter):
            proxy = maybe_get_proxy_for_attr(attr_val, self.root.named_parameters(),
                                             parameter_proxy_cache)
            if proxy is not None:
                return proxy
        if self.proxy_buffer_attributes and isinstance(attr_val, Tensor):
            proxy = maybe_get_proxy_for_attr(attr_val, self.root.named_buffers(),
                                             parameter_proxy_cache)
            if proxy is not None:
                return proxy
        return attr_val

    def create_args_for_root(self, root_fn: Callable, is_module: bool,
                             concrete_args: dict | tuple | None = None):
        """Placeholders for ``root_fn``'s parameters (``*args``/``**kwargs`` included)."""
        fn_for_analysis = inspect.unwrap(root_fn)
        co = fn_for_analysis.__code__
        total_args = co.co_argcount + co.co_kwonlyargcount
        orig_args = list(co.co_varnames)
        names_iter = iter(co.co_varnames)
        args: list[Any] = []
        skip_arg_idx = 0
        if is_module:
            if total_args == 0:
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            skip_arg_idx = 1
            next(names_iter)
            args.append(self.root)
        sig = inspect.signature(fn_for_analysis)
        if (isinstance(concrete_args, tuple) and len(concrete_args) > 0
                and co.co_flags & HAS_VARSTUFF and total_args == 1):
            # a forward(self, *args, **kwargs) with flat concrete_args: one input each
            for i, concrete_arg in enumerate(concrete_args):
                out = self.create_proxy("placeholder", f"input_{i}", (), {})
                if isinstance(concrete_arg, PHBase) and concrete_arg != PH:
                    _transfer_attrs(fr=concrete_arg, to=out.node)
                args.append(out)
            return root_fn, args
        arg_names = [next(names_iter) for _ in range(skip_arg_idx, total_args)]
        if isinstance(concrete_args, tuple):
            if len(arg_names) != len(concrete_args):
                raise RuntimeError(f"Tracing expected {len(arg_names)} arguments but got "
                                   f"{len(concrete_args)} concrete arguments")
            concrete_args = dict(zip(arg_names, concrete_args))
        args.extend(self._proxy_placeholder(name, concrete_args, sig, fn_for_analysis)
                    for name in arg_names)
        if co.co_kwonlyargcount > 0 or co.co_flags & HAS_VARSTUFF:
            if co.co_flags & inspect.CO_VARARGS:
                args.append(self._proxy_placeholder("*" + next(names_iter), None, sig,
                                                    fn_for_analysis))
            if co.co_flags & inspect.CO_VARKEYWORDS:
                args.append(self._proxy_placeholder("**" + next(names_iter), None, sig,
                                                    fn_for_analysis))
            root_fn = _patch_function(root_fn, len(args))
        return self._flatten_tree_args(root_fn, args, orig_args[:total_args])

    def _flatten_tree_args(self, root_fn: Callable, args: list, orig_args: list[str]):
        """With containers in ``concrete_args``, the root function behind a wrapper taking
        the flattened placeholders, and the code generator that flattens the real inputs."""
        from ..utils import _pytree as pytree
        from .graph import _PyTreeCodeGen, _PyTreeInfo
        flat_args, in_spec = pytree.tree_flatten(tuple(args))
        if all(child.is_leaf() for child in in_spec.children()):
            return root_fn, args
        self.graph._codegen = _PyTreeCodeGen(_PyTreeInfo(orig_args, in_spec, None))

        def flatten_fn(*args: Any):
            tree_out = root_fn(*pytree.tree_unflatten(list(args), in_spec))
            out_args, out_spec = pytree.tree_flatten(tree_out)
            self.graph._codegen.pytree_info = (
                self.graph._codegen.pytree_info._replace(out_spec=out_spec))
            return out_args
        return flatten_fn, flat_args

    def _proxy_placeholder(self, name: str, concrete_args, sig, fn_for_analysis) -> Any:
        if concrete_args is not None and name in concrete_args:
            from ..utils._pytree import tree_map
            cnt = 0

            def replace_ph(x: Any) -> Any:
                nonlocal cnt
                cnt += 1
                param = sig.parameters[name]
                default = () if param.default is inspect.Parameter.empty else (param.default,)
                out = self.create_proxy("placeholder", f"{name}_{cnt}", default, {})
                if isinstance(x, PHBase):
                    if x != PH:
                        _transfer_attrs(fr=x, to=out.node)
                    return out
                from .. import Tensor, _assert
                from .proxy import _base_types
                if type(x) is bool or (type(x) in _base_types() and type(x) is not Tensor):
                    self.create_proxy("call_function", _assert, (
                        out == x, f"{name} has been specialized to have value {x} but got "
                                  "another value"), {})
                elif x is None:
                    self.create_proxy("call_function", _assert_is_none, (
                        out, f"{name} has been specialized to have value None but got "
                             "another value"), {})
                else:
                    import warnings
                    warnings.warn(
                        f"Was not able to add assertion to guarantee correct input {name} to "
                        f"specialized function. It is up to the user to make sure that your "
                        f"inputs match the inputs you specialized the function with.",
                        stacklevel=2)
                return x
            return tree_map(replace_ph, concrete_args[name])
        if name[0] == "*":
            default = ()
        else:
            param = sig.parameters[name]
            default = () if param.default is inspect.Parameter.empty else (param.default,)
        return self.create_proxy("placeholder", name, default, {},
                                 type_expr=fn_for_analysis.__annotations__.get(name, None))

    def trace(self, root, concrete_args: dict | None = None) -> Graph:
        """Trace ``root`` (a module's ``forward`` or a function) into a new graph."""
        from .. import Tensor
        from ..nn import Module

        global _is_fx_tracing_flag
        old_flag, _is_fx_tracing_flag = _is_fx_tracing_flag, True
        try:
            if isinstance(root, Module):
                self.root = root
                fn = getattr(type(root), self.traced_func_name)
                self.root_module_name = root._get_name()
                self.submodule_paths = {mod: name for name, mod in root.named_modules()}
            else:
                self.root = Module()
                fn = root
            self.graph = Graph(tracer_cls=getattr(self, "__class__", None))
            if hasattr(fn, "__code__"):
                code = fn.__code__
                self.graph._co_fields = {"co_name": code.co_name,
                                         "co_filename": code.co_filename,
                                         "co_firstlineno": code.co_firstlineno}
            self.tensor_attrs: dict = {}

            def collect_tensor_attrs(m, prefix_atoms: list[str]) -> None:
                for k, v in m.__dict__.items():
                    if isinstance(v, Tensor):
                        self.tensor_attrs[v] = ".".join(prefix_atoms + [k])
                for k, v in m.named_children():
                    collect_tensor_attrs(v, prefix_atoms + [k])
            collect_tensor_attrs(self.root, [])

            fn_globals = fn.__globals__
            fn, args = self.create_args_for_root(fn, isinstance(root, Module), concrete_args)
            parameter_proxy_cache: dict = {}
            orig_getattr = Module.__getattr__
            orig_call = Module.__call__

            @functools.wraps(orig_getattr)
            def module_getattr_wrapper(mod, attr: str) -> Any:
                attr_val = orig_getattr(mod, attr)
                return self.getattr(attr, attr_val, parameter_proxy_cache)

            @functools.wraps(orig_call)
            def module_call_wrapper(mod, *args: Any, **kwargs: Any) -> Any:
                def forward(*args: Any, **kwargs: Any) -> Any:
                    return orig_call(mod, *args, **kwargs)
                _autowrap_check(patcher,
                                getattr(getattr(mod, "forward", mod), "__globals__", {}),
                                self._autowrap_function_ids, traced)
                return self.call_module(mod, forward, args, kwargs)

            with _Patcher() as patcher:
                patcher.patch_method(Module, "__getattr__", module_getattr_wrapper)
                patcher.patch_method(Module, "__call__", module_call_wrapper)
                traced = _patch_ember_functions(patcher)
                _patch_wrapped_functions(patcher)
                _autowrap_check(patcher, fn_globals, self._autowrap_function_ids, traced)
                if isinstance(root, Module):
                    for m in root.modules():
                        _patch_held(patcher, vars(m), traced)
                for module in self._autowrap_search:
                    _autowrap_check(patcher, module.__dict__, self._autowrap_function_ids,
                                    traced)
                ann = inspect.get_annotations(inspect.unwrap(fn))
                self.create_node("output", "output", (self.create_arg(fn(*args)),), {},
                                 type_expr=ann.get("return", None))
            self.submodule_paths = None
        finally:
            _is_fx_tracing_flag = old_flag
            if not old_flag:
                _ACTIVE_WRAPPERS.clear()
        return self.graph


def _parameter_proxy(tracer, name, param, node):
    return ParameterProxy(tracer, node, name, param)


def _patch_function(fn: types.FunctionType, nargs: int) -> types.FunctionType:
    """``fn`` with ``*args``/``**kwargs`` turned into plain parameters, so that the tracer
    can pass one proxy for each."""
    co = fn.__code__
    co_flags = co.co_flags & ~HAS_VARSTUFF
    new_code = co.replace(co_argcount=nargs, co_kwonlyargcount=0, co_flags=co_flags)
    return types.FunctionType(new_code, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)


def symbolic_trace(root, concrete_args: dict | None = None) -> GraphModule:
    """Trace a module or function into a :class:`~ember.fx.GraphModule` (named after the
    module's class or the function)."""
    from ..nn import Module
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)


def _assert_is_none(value: Any, msg: str) -> None:
    if value is not None:
        raise AssertionError(msg)
