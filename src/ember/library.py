"""``ember.library``: Python custom operators (``torch.library.custom_op``).

A custom op wraps a Python function as an operator ``namespace::name``, reachable also as
``torch.ops.<namespace>.<name>``. Its kernel runs below autograd: without a registered
formula (:meth:`CustomOpDef.register_autograd`) a result of inputs that require grad still
records a node, whose backward raises torch's error; with one, the node runs the user's
``setup_context`` and ``backward`` (a node named ``GeneratedBackwardFor_<ns>_<name>_default
Backward``, as torch names it). Fake (meta) kernels are accepted and kept: Ember has no fake
tensors to run them on.

>>> import ember
>>> @ember.library.custom_op("doc::twice", mutates_args=())
... def twice(x: ember.Tensor) -> ember.Tensor:
...     return x * 2
>>> ember.ops.doc.twice(ember.ones(2))
tensor([2., 2.])
"""

from __future__ import annotations

from ._tensor import Tensor as _Tensor

__all__ = ["CustomOpDef", "custom_op", "opcheck", "register_autograd", "register_fake",
           "register_kernel"]

_OPS: dict = {}       # "ns::name" -> CustomOpDef


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
        self.__doc__ = fn.__doc__

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


def opcheck(op, args, kwargs=None, *, test_utils=("test_schema", "test_autograd_registration",
                                                  "test_faketensor",
                                                  "test_aot_dispatch_dynamic"),
            raise_exception: bool = True, atol=None, rtol=None) -> dict:
    """Run ``op`` once on ``args`` and report each of torch's checks (the ones Ember can run
    are the call itself): ``{"test_schema": "SUCCESS", ...}``."""
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    try:
        _op(op)(*args, **(kwargs or {}))
    except Exception as e:
        if raise_exception:
            raise
        return {name: e for name in test_utils}
    return {name: "SUCCESS" for name in test_utils}


del annotations  # keep dir() to torch's names
