"""``ember.library``: Python custom operators (``torch.library.custom_op``, and the older
``Library``/``define``/``impl`` registration by schema).

A custom op wraps a Python function as an operator ``namespace::name``, reachable also as
``torch.ops.<namespace>.<name>``. Its kernel runs below autograd: without a registered
formula (:meth:`CustomOpDef.register_autograd`) a result of inputs that require grad still
records a node, whose backward raises torch's error; with one, the node runs the user's
``setup_context`` and ``backward`` (a node named ``GeneratedBackwardFor_<ns>_<name>_default
Backward``, as torch names it). Fake (meta) kernels are accepted and kept: Ember has no fake
tensors to run them on.

An op defined by schema (``Library("ns", "DEF").define("f(Tensor x) -> Tensor")`` or
``define("ns::f", "(Tensor x) -> Tensor")``) binds its arguments by the schema and runs the
kernel registered for its first key among ``CompositeImplicitAutograd`` (differentiated
through), ``Autograd``/``AutogradCPU``, ``CPU`` and ``CompositeExplicitAutograd``; a kernel
below autograd with no autograd kernel leaves torch's ``WarnNotImplemented`` node (its
backward warns and passes no gradient on).

>>> import ember
>>> @ember.library.custom_op("doc::twice", mutates_args=())
... def twice(x: ember.Tensor) -> ember.Tensor:
...     return x * 2
>>> ember.ops.doc.twice(ember.ones(2))
tensor([2., 2.])
"""

from __future__ import annotations

import re as _re
import sys as _sys
import warnings as _warnings

from ._tensor import Tensor as _Tensor
from .autograd import grad_mode as _grad_mode
from .autograd.graph import _EdgesNode

__all__ = ["CustomOpDef", "Library", "custom_op", "define", "get_ctx", "impl", "impl_abstract",
           "opcheck", "register_autograd", "register_fake", "register_kernel"]

_OPS: dict = {}       # "ns::name" (and "ns::name.overload") -> CustomOpDef or _SchemaOp


def _split(qualname: str) -> tuple[str, str]:
    parts = qualname.split("::", 1)
    if len(parts) != 2:      # (torch unpacks the split: Python's own message)
        raise ValueError(f"not enough values to unpack (expected 2, got {len(parts)})")
    return parts[0], parts[1]


class CustomOpDef:
    """A custom operator made by :func:`custom_op`: call it like its function."""

    def __init__(self, qualname: str, fn, mutates_args, device_types) -> None:
        self._namespace, self._name = _split(qualname)
        self._init_fn = fn
        self._mutates_args = mutates_args
        self._device_types = device_types
        self._kernels: dict = {}
        self._fake_fn = None
        self._backward_fn = None
        self._setup_context_fn = None
        self._function = None
        self.__name__ = self._name
        self.__doc__ = getattr(fn, "__doc__", None)

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._namespace}::{self._name})>"

    def _kernel(self):
        return self._kernels.get("cpu", self._init_fn)

    def register_kernel(self, device_types, fn=None):
        """A kernel for ``device_types`` (``"cpu"`` is the one Ember runs)."""
        def register(func):
            kinds = [device_types] if isinstance(device_types, str) or device_types is None \
                else list(device_types)
            for kind in kinds:
                self._kernels["cpu" if kind is None else kind] = func
            return func
        return register if fn is None else register(fn)

    def register_fake(self, fn):
        """Keep ``fn`` as the op's fake (meta) kernel; returns it (a decorator)."""
        self._fake_fn = fn
        return fn

    def register_autograd(self, backward, /, *, setup_context=None) -> None:
        """Make the op differentiable: ``setup_context(ctx, inputs, output)`` saves what
        ``backward(ctx, *grads)`` needs; ``backward`` returns one gradient per input."""
        if self._mutates_args:
            raise RuntimeError(f"Attempted to register an autograd formula for {self} but "
                               "the op mutates its inputs; this is not supported.")
        self._backward_fn, self._setup_context_fn = backward, setup_context
        self._function = None

    def _autograd_function(self):
        if self._function is not None:
            return self._function
        from .autograd.function import Function
        op = self

        def forward(*args):
            return op._kernel()(*args)

        def setup_context(ctx, inputs, output):
            if op._setup_context_fn is not None:
                op._setup_context_fn(ctx, inputs, output)

        def backward(ctx, *grads):
            if op._backward_fn is None:
                raise RuntimeError(f"Trying to backward through {op._namespace}."
                                   f"{op._name}.default but no autograd formula was "
                                   "registered. Please use register_autograd to add one.")
            out = op._backward_fn(ctx, *grads)
            return out if isinstance(out, tuple) else (out,)

        name = f"GeneratedBackwardFor_{self._namespace}_{self._name}_default"
        self._function = type(name, (Function,), {
            "forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward)})
        return self._function

    def __call__(self, *args, **kwargs):
        if kwargs:
            import inspect
            bound = inspect.signature(self._init_fn).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        if self._mutates_args:
            return self._kernel()(*args)
        from .autograd import grad_mode
        needs = grad_mode.is_grad_enabled() and any(
            isinstance(a, _Tensor) and a.requires_grad for a in args)
        if not needs:
            with grad_mode.no_grad():
                return self._kernel()(*args)
        return self._autograd_function().apply(*args)


def _op(op) -> CustomOpDef:
    op = getattr(op, "_fn", op)         # torch.ops.<ns>.<name>[.<overload>]
    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, str) and op in _OPS:
        return _OPS[op]
    raise ValueError(f"register: expected a custom op or its name, got {op!r}")


def custom_op(name: str, fn=None, /, *, mutates_args, device_types=None, schema=None):
    """Wrap ``fn`` as the custom operator ``name`` (``"ns::op"``); a decorator without
    ``fn``. ``mutates_args`` names the arguments written in place (``()``: none)."""
    if mutates_args == "unknown":
        mutates_args = ("unknown",)
    if isinstance(mutates_args, str):
        raise ValueError("mutates_args must either be a sequence of the names of the arguments "
                         "that are mutated or the string 'unknown'. ")

    def wrap(func):
        op = CustomOpDef(name, func, tuple(mutates_args), device_types)
        _OPS[f"{op._namespace}::{op._name}"] = op
        return op
    return wrap if fn is None else wrap(fn)


def register_fake(op, fn=None, /):
    """:meth:`CustomOpDef.register_fake` for ``op`` (an op or its qualified name)."""
    target = _op(op)
    return target.register_fake if fn is None else target.register_fake(fn)


def register_kernel(op, device_types, fn=None, /):
    """:meth:`CustomOpDef.register_kernel` for ``op``."""
    return _op(op).register_kernel(device_types, fn)


def register_autograd(op, backward, /, *, setup_context=None) -> None:
    """:meth:`CustomOpDef.register_autograd` for ``op``."""
    _op(op).register_autograd(backward, setup_context=setup_context)


_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor",
               "test_aot_dispatch_static", "test_aot_dispatch_dynamic")
_AUTOGRAD_KEYS = ("AutogradCPU", "Autograd", "CompositeImplicitAutograd")


class _OpCheckError(Exception):
    """A check of :func:`opcheck` failed (its cause is the check's own error)."""


class _UnsupportedOperatorException(RuntimeError):
    """An operator has no fake (meta) kernel to check."""


class _MetadataMismatchError(RuntimeError):
    """An operator's fake kernel describes its output differently from its real kernel."""


# torch's names and homes for them (they are not in torch.library's namespace)
for _cls, _home in ((_OpCheckError, "torch.testing._internal.optests.generate_tests"),
                    (_UnsupportedOperatorException, "torch._subclasses.fake_tensor"),
                    (_MetadataMismatchError, "torch._subclasses.fake_tensor")):
    _cls.__name__ = _cls.__qualname__ = _cls.__name__[1:]
    _cls.__module__ = _home
del _cls, _home


def opcheck(op, args, kwargs=None, *, test_utils=("test_schema", "test_autograd_registration",
                                                  "test_faketensor",
                                                  "test_aot_dispatch_dynamic"),
            raise_exception: bool = True, rtol=None, atol=None) -> dict:
    """Check a custom operator's registrations the way torch does on the CPU, each check on
    copies of ``args``: ``test_schema`` (no argument changes that the schema does not declare
    mutable), ``test_autograd_registration`` (an operator whose outputs need gradients has its
    autograd at an autograd key), ``test_faketensor`` (a fake kernel is registered and
    describes the real output: shape, dtype, strides) and ``test_aot_dispatch_static`` /
    ``_dynamic`` (the fake kernel is there, and the op runs and differentiates where its
    outputs need gradients). Returns ``{check: "SUCCESS" or its exception}``; with
    ``raise_exception`` the first failure raises torch's ``OpCheckError``."""
    if (rtol is None) ^ (atol is None):
        raise ValueError("opcheck(op, ...): if you specify one of rtol/atol, you must specify "
                         "both")
    target, label, builtin = _checked_op(op)
    kwargs = {} if kwargs is None else kwargs
    if test_utils == "ALL":
        test_utils = _TEST_UTILS
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    if not isinstance(test_utils, (tuple, list)) or not set(test_utils) <= set(_TEST_UTILS):
        raise ValueError(f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to "
                         f"be subset of {_TEST_UTILS} but it was not")
    checks = {"test_schema": _check_schema, "test_autograd_registration": _check_autograd,
              "test_faketensor": _check_fake, "test_aot_dispatch_static": _check_aot,
              "test_aot_dispatch_dynamic": _check_aot}
    results = {}
    for name in test_utils:
        try:
            checks[name](target, label, builtin, *_copied((args, kwargs)))
            results[name] = "SUCCESS"
        except Exception as e:
            if raise_exception:
                raise _OpCheckError(f"opcheck(op, ...): {name} failed with {e} (scroll up for "
                                   "stack trace)") from e
            results[name] = e
    return results


def _checked_op(op) -> tuple:
    """(callable, the name torch prints for the overload, whether it is an aten op)."""
    from ._aten import OpOverload, OpOverloadPacket
    if isinstance(op, OpOverloadPacket):
        names = op.overloads()
        if len(names) != 1:
            raise RuntimeError("opcheck can only test operators without overloads. Got the "
                               f"following overloads for {op._ns}::{op._name}: "
                               f"{['' if n == 'default' else n for n in names]}")
        op = getattr(op, names[0])
    if isinstance(op, OpOverload):
        return op._fn, str(op), op.overloadpacket._ns == "aten"
    if isinstance(op, CustomOpDef):
        return op, f"{op._namespace}.{op._name}.default", False
    raise ValueError("opcheck(op, ...): op must be instance of torch._ops.OpOverload, e.g. "
                     f"torch.ops.aten.sin.default, got {type(op)}")


def _copied(value):
    """``value`` with every tensor replaced by a detached copy that keeps ``requires_grad``."""
    if isinstance(value, _Tensor):
        return value.detach().clone().requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_copied(v) for v in value)
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


def _leaves(value) -> list:
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _leaves(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    return [value]


def _argument_names(op, args: tuple, kwargs: dict) -> list:
    """(name, tensors, declared mutable) for each argument of a call of ``op``."""
    if isinstance(op, _SchemaOp):
        params = [(name, "!" in typ) for name, typ, *_ in op._schema.args]
    elif isinstance(op, CustomOpDef):
        import inspect
        mutable = set(op._mutates_args)
        params = [(p, "unknown" in mutable or p in mutable)
                  for p in inspect.signature(op._init_fn).parameters]
    else:
        return []
    given = dict(zip((p for p, _ in params), args))
    given.update(kwargs)
    return [(p, [t for t in _leaves(given[p]) if isinstance(t, _Tensor)], m)
            for p, m in params if p in given]


def _check_schema(op, label, builtin, args, kwargs) -> None:
    import numpy as np
    watched = [(p, [(t, np.array(t.detach().numpy(), copy=True)) for t in ts])
               for p, ts, mutable in _argument_names(op, args, kwargs) if not mutable]
    op(*args, **kwargs)
    for p, pairs in watched:
        for t, before in pairs:
            if not np.array_equal(before, t.detach().numpy(), equal_nan=True):
                raise RuntimeError(f"Argument {p} is not defined as mutable but was mutated")


def _check_autograd(op, label, builtin, args, kwargs) -> None:
    inputs = [t for t in _leaves((args, kwargs)) if isinstance(t, _Tensor)]
    if not any(t.requires_grad for t in inputs) or builtin or not isinstance(op, _SchemaOp):
        return      # (custom_op registers its autograd kernel at the Autograd key)
    if any(k in op._keyed for k in _AUTOGRAD_KEYS):
        return
    ids = {id(t) for t in inputs}
    outs = _leaves(op(*args, **kwargs))
    if any(isinstance(t, _Tensor) and t.requires_grad and id(t) not in ids for t in outs):
        raise AssertionError(
            f"{op._schema.qualname}: at least one output of this operator has "
            "requires_grad=True but the operator does not have an autograd kernel defined at "
            "an autograd key (e.g. DispatchKey::Autograd). This could mean that you have "
            "incorrectly registered an autograd kernel to a non-Autograd DispatchKey, which "
            "may lead to silently incorrect results. If your operator consists of regular "
            "PyTorch operations, consider not using an operator at all or registering your "
            "operator as CompositeImplicitAutograd. If you have an autograd.Function "
            "registered to a backend (CPU/CUDA/XPU) key, the correct location for it is the "
            "Autograd key.")


def _fake_kernel(op, label, builtin):
    """The op's fake kernel (None for aten ops: their meta kernels are torch's own)."""
    if builtin:
        return None
    if isinstance(op, _SchemaOp):
        fake = op._fake_fn or op._keyed.get("Meta")
        if fake is None:
            raise _UnsupportedOperatorException(label)
        return fake
    if op._fake_fn is None:
        raise RuntimeError(f"There was no fake impl registered for {op}. This is necessary "
                           "for torch.compile/export/fx tracing to work. Please use "
                           f"`{op._name}.register_fake` to add an fake impl.")
    return op._fake_fn


def _check_fake(op, label, builtin, args, kwargs) -> None:
    fake = _fake_kernel(op, label, builtin)
    if fake is None:
        op(*args, **kwargs)
        return
    with _grad_mode.no_grad():
        want = _leaves(fake(*_copied(args), **_copied(kwargs)))
        real = _leaves(op(*args, **kwargs))
    context = f"When comparing the output of {label} on FakeTensor and concrete Tensors, found"
    if len(want) != len(real):
        raise AssertionError(f"{context} mismatch in number of returns {len(want)} != "
                             f"{len(real)}")
    for k, (r, f) in enumerate(zip(real, want)):
        if isinstance(r, _Tensor) != isinstance(f, _Tensor):
            raise AssertionError(f"{context} mismatched number of tensor outputs")
        if not isinstance(r, _Tensor):
            continue
        problem = _meta_mismatch(r, f)
        if problem:
            where = "" if len(real) == 1 else f" for output[{k}]"
            raise _MetadataMismatchError(f"{context} mismatched tensor metadata{where}: "
                                        f"{problem}")


def _meta_mismatch(a, b) -> str | None:
    """torch's ``compare_tensor_meta`` (real ``a``, fake ``b``): what differs, or None."""
    if a.shape != b.shape:
        return f"Shapes {a.shape} and {b.shape} are not equal!"
    if a.dtype != b.dtype:
        return f"Dtypes {a.dtype} and {b.dtype} are not equal!"
    for idx, (n, sa, sb) in enumerate(zip(a.shape, a.stride(), b.stride())):
        if n > 1 and sa != sb:
            return (f"Stride mismatch! Strides are {a.stride()} and {b.stride()} (mismatched "
                    f"at {idx})!")
    return None


def _check_aot(op, label, builtin, args, kwargs) -> None:
    # torch runs the op eagerly first (forward and, where outputs need it, backward), then
    # traces it with its fake kernel
    outs = [t for t in _leaves(op(*args, **kwargs)) if isinstance(t, _Tensor)]
    inputs = [t for t in _leaves((args, kwargs)) if isinstance(t, _Tensor) and t.requires_grad]
    if inputs and any(t.requires_grad for t in outs):
        from .autograd import grad
        grad(sum(t.sum().abs() for t in outs), inputs, allow_unused=True)
    _fake_kernel(op, label, builtin)


# ============================================================================ ops by schema

_NAMELESS_SCHEMA = _re.compile(r"\(.*\) -> .*")
_KEYS = {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta", "mps": "MPS", "xpu": "XPU",
         "default": "CompositeExplicitAutograd"}
_RESERVED = {"prim"}
# where each namespace was defined (torch's own: its generated registration)
_DEFINED_AT = {"aten": "/__w/pytorch/pytorch/build/aten/src/ATen/RegisterSchema.cpp:6"}
_NOT_IMPLEMENTED_WARNING = (
    "{}: an autograd kernel was not registered to the Autograd key(s) but we are trying to "
    "backprop through it. This may lead to silently incorrect behavior. This behavior is "
    "deprecated and will be removed in a future version of PyTorch. If your operator is "
    "differentiable, please ensure you have registered an autograd kernel to the correct "
    "Autograd key (e.g. DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your "
    "operator is not differentiable, or to squash this warning and use the previous behavior, "
    "please register torch::CppFunction::makeFallthrough() to DispatchKey::Autograd. (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/autograd/autograd_not_implemented_fallback"
    ".cpp:76.)")


def _split_top(text: str) -> list:
    """``text`` split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return parts + [last] if last else parts


def _schema_error(reason: str, schema: str, at: int) -> RuntimeError:
    return RuntimeError(f"\n{reason}:\n{schema}\n{' ' * at}~ <--- HERE\n")


def _parse_default(typ: str, text: str, schema: str, at: int):
    """A default's value and its text as torch prints it."""
    if text == "None":
        return None, text
    if text in ("True", "False"):
        return text == "True", text
    if text.startswith(("'", '"')):
        return text[1:-1], text
    if text.startswith("["):
        items = [_parse_default(typ.split("[")[0], t, schema, at) for t in _split_top(text[1:-1])]
        values = [v for v, _ in items]
        size = _re.search(r"\[(\d+)\]", typ)
        if size and values and len(set(map(repr, values))) == 1:
            return values, items[0][1]        # torch prints int[2] k=[3, 3] as k=3
        return values, "[" + ", ".join(t for _, t in items) + "]"
    base = typ.rstrip("?").split("[")[0]
    try:
        value = int(text) if base in ("int", "SymInt") or _re.fullmatch(r"-?\d+", text) \
            else float(text)
    except ValueError:
        raise _schema_error("invalid numeric default value", schema, at) from None
    if isinstance(value, float):
        shown = f"{value:.17g}"
        if not any(c in shown for c in ".en"):
            shown += "."
        return value, shown
    return value, str(value)


class _Schema:
    """A parsed function schema: ``name.overload(Type arg=default, *, ...) -> returns``."""

    def __init__(self, ns: str, text: str) -> None:
        head, sep, rest = text.partition("(")
        args_text, _, returns = rest.rpartition(") -> ")
        if not sep or not _:
            raise RuntimeError(f"Unknown schema: {text}")
        self.name, _, self.overload_name = head.strip().partition(".")
        self.ns, self.returns = ns, returns.strip()
        self.args, kw_only, shown = [], False, []
        for part in _split_top(args_text):
            if part == "*":
                kw_only = True
                shown.append("*")
                continue
            decl, eq, default = part.partition("=")
            typ, _, name = decl.strip().rpartition(" ")
            value, dtext = (_parse_default(typ, default.strip(), text,
                                           text.index(part) + len(part))
                            if eq else (None, None))
            self.args.append((name, typ, eq == "=", value, kw_only))
            shown.append(f"{typ} {name}" + (f"={dtext}" if eq else ""))
        self._args_text = ", ".join(shown)
        self.mutates = any("!" in typ for _, typ, *_ in self.args)

    @property
    def qualname(self) -> str:
        return f"{self.ns}::{self.name}"

    def __str__(self) -> str:
        over = f".{self.overload_name}" if self.overload_name else ""
        return f"{self.qualname}{over}({self._args_text}) -> {self.returns}"

    def bind(self, args: tuple, kwargs: dict) -> tuple:
        """(positional, keyword-only) arguments as torch hands them to a Python kernel:
        keywords naming positional arguments moved into place, and arguments equal to their
        defaults left out (trailing positional ones, keyword-only ones)."""
        positional = [a for a in self.args if not a[4]]
        if len(args) > len(positional):
            raise RuntimeError(f"{self.qualname}() expected at most {len(positional)} "
                               f"argument(s) but received {len(args)} argument(s). "
                               f"Declaration: {self}")
        for key in kwargs:
            if all(key != a[0] for a in self.args):
                raise RuntimeError(f"Unknown keyword argument '{key}' for operator "
                                   f"'{self.qualname}'. Schema: {self}")
        pos, kw = list(args), {}
        for i, (name, _, has_default, default, kw_only) in enumerate(self.args):
            if not kw_only and i < len(args):
                continue
            if name in kwargs:
                value = kwargs[name]
            elif has_default:
                value = default
            else:
                raise RuntimeError(f"{self.qualname}() is missing value for argument "
                                   f"'{name}'. Declaration: {self}")
            if not kw_only:
                pos.append(value)
            elif not (has_default and _same(value, default)):
                kw[name] = value
        while pos and positional[len(pos) - 1][2] and _same(pos[-1], positional[len(pos) - 1][3]):
            pos.pop()
        return tuple(pos), kw


def _same(value, default) -> bool:
    if isinstance(value, _Tensor) or isinstance(default, _Tensor):
        return value is default
    return type(value) is type(default) and value == default


def _tensors(values) -> list:
    found = []
    for v in values:
        if isinstance(v, _Tensor):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found.extend(t for t in v if isinstance(t, _Tensor))
    return found


class _WarnNotImplemented(_EdgesNode):
    """torch's node behind the outputs of a kernel that has no autograd formula: its backward
    warns and passes no gradient on."""

    _name = "torch::autograd::WarnNotImplemented"

    def __init__(self, op_name: str, edges: tuple) -> None:
        super().__init__(edges)
        self._op_name = op_name

    def apply(self, grads):
        _warnings.warn(_NOT_IMPLEMENTED_WARNING.format(self._op_name), UserWarning, stacklevel=2)
        return [None] * len(self.next_functions)


_WarnNotImplemented.__name__ = _WarnNotImplemented.__qualname__ = "CppFunction"   # as torch's


class _SchemaOp(CustomOpDef):
    """An operator defined by schema through :class:`Library` or :func:`define`."""

    def __init__(self, schema: _Schema) -> None:
        super().__init__(schema.qualname, None, ("unknown",) if schema.mutates else (), None)
        self._schema = schema
        self._keyed: dict = {}        # dispatch key -> kernel

    def __repr__(self) -> str:
        return f"{self._namespace}.{self._name}"

    def register_kernel(self, device_types, fn=None):
        """A kernel for ``device_types`` (a device type such as ``"cpu"``, or a key)."""
        def register(func):
            kinds = [device_types] if isinstance(device_types, str) or device_types is None \
                else list(device_types)
            for kind in kinds:
                self._keyed[_KEYS.get(kind, kind) if kind else "CompositeExplicitAutograd"] = func
            return func
        return register if fn is None else register(fn)

    def _kernel(self):
        return self._keyed.get("CPU") or self._keyed.get("CompositeExplicitAutograd")

    def __call__(self, *args, **kwargs):
        args, kwargs = self._schema.bind(args, kwargs)
        keyed = self._keyed
        composite = keyed.get("CompositeImplicitAutograd")
        if composite is not None:
            return composite(*args, **kwargs)
        tensors = _tensors((*args, *kwargs.values()))
        needs = _grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors)
        if needs:
            autograd = keyed.get("AutogradCPU") or keyed.get("Autograd")
            if autograd is not None:
                return autograd(*args, **kwargs)
            if self._backward_fn is not None and not kwargs:
                return self._autograd_function().apply(*args)
        kernel = self._kernel()
        if kernel is None:
            from ._errors import no_backend_kernel
            raise no_backend_kernel(self._schema.qualname, "CPU")
        out = kernel(*args, **kwargs)
        if needs:
            self._mark_not_implemented(out, tensors)
        return out

    def _mark_not_implemented(self, out, inputs: list) -> None:
        """torch's fallback for a kernel below autograd: outputs already in a graph warn when
        backward reaches them; the others hang from a ``WarnNotImplemented`` node."""
        name = self._schema.qualname
        node = None
        for nr, t in enumerate(_tensors(out if isinstance(out, (list, tuple)) else (out,))):
            if not (t.dtype.is_floating_point or t.dtype.is_complex):
                continue
            if t.requires_grad:
                t.register_hook(lambda grad: _warnings.warn(
                    _NOT_IMPLEMENTED_WARNING.format(name), UserWarning, stacklevel=2))
            else:
                if node is None:
                    node = _WarnNotImplemented(name, tuple(i._edge() for i in inputs))
                t.grad_fn, t._output_nr = node, nr


class Library:
    """A namespace of operators to define (``"DEF"``, ``"FRAGMENT"``) or to give kernels
    (``"IMPL"``); ``dispatch_key`` is the default key of :meth:`impl`."""

    def __init__(self, ns: str, kind: str, dispatch_key: str = "") -> None:
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        if ns in _RESERVED and kind in ("DEF", "FRAGMENT"):
            raise ValueError(f"{ns} is a reserved namespace. Please try creating a library "
                             "with another name.")
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key
        frame = _sys._getframe(1)
        self._where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
        if kind == "DEF":
            if ns in _DEFINED_AT:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; "
                    "please put all of your definitions in a single TORCH_LIBRARY block.  If you "
                    "were trying to specify implementations, consider using TORCH_LIBRARY_IMPL "
                    "(which can be duplicated).  If you really intended to define operators for a "
                    "single namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to "
                    "explicitly indicate this.  Previous registration of TORCH_LIBRARY was "
                    f"registered at {_DEFINED_AT[ns]}; latest registration was registered at "
                    f"{self._where}")
            _DEFINED_AT[ns] = self._where
        self._op_defs: set = set()
        self._op_impls: set = set()

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        """Define the operator ``schema`` (``"name(Tensor x) -> Tensor"``) in this namespace;
        returns its name."""
        if alias_analysis not in ("", "FROM_SCHEMA", "CONSERVATIVE"):
            raise RuntimeError(f"Invalid alias_analysis type {alias_analysis}")
        parsed = _Schema(self.ns, schema)
        over = f".{parsed.overload_name}" if parsed.overload_name else ""
        key = f"{parsed.qualname}{over}"
        if isinstance(_OPS.get(key), _SchemaOp):
            raise RuntimeError(f"Tried to register an operator ({self.ns}::{schema}) with the "
                               "same name and overload name multiple times. Each overload's "
                               "schema should only be registered with a single call to def(). "
                               f"Duplicate registration: registered at {self._where}. Original "
                               f"registration: registered at {_OPS[key]._where}")
        op = _SchemaOp(parsed)
        op._where = self._where
        _OPS[key] = op
        if not over:
            _forget_packet(self.ns, parsed.name)
        self._op_defs.add(key)
        return schema.split("(")[0]

    def impl(self, op_name, fn, dispatch_key: str = "", *, with_keyset: bool = False,
             allow_override: bool = True) -> None:
        """Register ``fn`` as the kernel of ``op_name`` for ``dispatch_key`` (``"CPU"``,
        ``"CompositeImplicitAutograd"``, ``"Autograd"`` …; by default the library's, else
        ``CompositeImplicitAutograd``)."""
        if not callable(fn):
            raise TypeError(f"Input function is required to be a callable but found type "
                            f"{type(fn)}")
        dispatch_key = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
        name = op_name if isinstance(op_name, str) else op_name.name().split("::")[-1]
        name = name.split("::")[-1]
        key = f"{self.ns}/{name}/{dispatch_key}"
        if not allow_override and key in self._op_impls:
            raise RuntimeError("This is not allowed since there's already a kernel registered "
                               f"from python overriding {name}'s behavior for {dispatch_key} "
                               f"dispatch key and {self.ns} namespace.")
        if self.ns == "aten":
            raise NotImplementedError(
                "Library('aten', 'IMPL'): replacing the kernels of torch's own operators is not "
                "supported (docs/differences.md)")
        op = _OPS.get(f"{self.ns}::{name}")
        if not isinstance(op, _SchemaOp):
            raise RuntimeError(f"impl: the operator {self.ns}::{name} was not defined (define "
                               "it first)")
        if with_keyset:
            fn = _without_keyset(fn)
        if dispatch_key == "Meta":
            op.register_fake(fn)
        else:
            op.register_kernel(dispatch_key, fn)
        self._op_impls.add(key)

    def _destroy(self) -> None:
        if self.kind == "DEF" and _DEFINED_AT.get(self.ns) == self._where:
            del _DEFINED_AT[self.ns]
        for key in self._op_defs:
            _OPS.pop(key, None)
            _forget_packet(*key.split(".")[0].split("::"))
        self._op_defs.clear()


def _without_keyset(fn):
    def kernel(*args, **kwargs):
        return fn(None, *args, **kwargs)
    return kernel


def _forget_packet(ns: str, name: str) -> None:
    """Drop ``torch.ops.<ns>.<name>``'s cached packet (the op behind it changed)."""
    from ._aten import ops
    space = ops.__dict__.get(ns)
    if space is not None:
        space.__dict__.pop(name, None)


def _parse_namespace(qualname: str) -> tuple:
    splits = qualname.split("::")
    if len(splits) != 2:
        raise ValueError(f"Expected `qualname` to be of the form \"namespace::name\", but got "
                         f"{qualname}. The qualname passed to the torch.library APIs must look "
                         "like \"namespace::name\", e.g. \"aten::sin\"")
    return splits[0], splits[1]


_keep_alive: list = []


def define(qualname, schema, *, lib=None, tags=()):
    """Define the operator ``qualname`` (``"ns::name"``) with ``schema``
    (``"(Tensor x) -> Tensor"``); ``define(lib, schema)`` is the older decorator form."""
    if isinstance(qualname, Library):
        lib, full = qualname, schema

        def wrap(f):
            name = lib.define(full)
            lib.impl(name, f)
            return f
        return wrap
    if not isinstance(qualname, str):
        raise ValueError(f"define(qualname, schema): expected qualname to be instance of str, "
                         f"got {type(qualname)}")
    namespace, name = _parse_namespace(qualname)
    if lib is None:
        lib = Library(namespace, "FRAGMENT")
        _keep_alive.append(lib)
    if not _NAMELESS_SCHEMA.fullmatch(schema):
        raise ValueError(f"define(qualname, schema, ...): expected schema to look like e.g. "
                         f"\"(Tensor x) -> Tensor\" but got \"{schema}\"")
    lib.define(name + schema, alias_analysis="", tags=tags)


def impl(qualname, types, func=None, *, lib=None):
    """Register ``func`` for the device types (or dispatch keys) ``types`` of ``qualname``; a
    decorator without ``func``. ``impl(lib, name, dispatch_key)`` is the older form."""
    if isinstance(qualname, Library):
        lib, name, key = qualname, types, func or ""

        def wrap_legacy(f):
            lib.impl(name, f, key)
            return f
        return wrap_legacy
    kinds = (types,) if isinstance(types, str) else tuple(types)
    keys = {_KEYS.get(t, t) for t in kinds}

    def register(f):
        namespace, _ = _parse_namespace(qualname)
        use = lib
        if use is None:
            use = Library(namespace, "FRAGMENT")
            _keep_alive.append(use)
        for key in keys:
            use.impl(qualname, f, key)
        return f
    if func is None:
        return register
    register(func)
    return None


def impl_abstract(qualname, func=None, *, lib=None, _stacklevel=1):
    """The older name of :func:`register_fake` (warns as torch does)."""
    _warnings.warn("`torch.library.impl_abstract` was renamed to `torch.library.register_fake`. "
                   "Please use that instead; we will remove `torch.library.impl_abstract` in a "
                   "future version of PyTorch.", FutureWarning, stacklevel=2)
    return register_fake(qualname, func)


def get_ctx():
    """The context of the fake kernel being run: None here (Ember runs no fake kernels)."""
    return None


del annotations  # keep dir() to torch's names
