"""``ember.compile``: torch's ``backend="eager"`` behaviour, whatever backend is asked for.

torch.compile traces Python into graphs and hands them to a backend; with the ``eager``
backend the graphs run as the original code does, so the results are the eager ones. Ember
has no graph compiler: ``compile`` checks its arguments as torch does and returns what torch
returns (an ``OptimizedModule`` around a module, a wrapper around a function), which runs
eagerly.
"""

from __future__ import annotations

import functools

__all__ = ["compile", "list_backends"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
_BACKENDS = ("cudagraphs", "eager", "inductor", "aot_eager", "tvm", "openxla", "onnxrt")


def list_backends(exclude_tags=("debug", "experimental")) -> list[str]:
    """The backend names ``compile`` accepts (each runs eagerly here)."""
    return sorted(b for b in _BACKENDS if b not in ("eager", "aot_eager"))


def _check(mode, options, backend) -> None:
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if isinstance(backend, str) and backend not in _BACKENDS:
        from ._dynamo import InvalidBackend
        raise InvalidBackend(f"Invalid backend: {backend!r}, see "
                             "`torch._dynamo.list_backends()` for available backends.")


@functools.cache
def _patch_once() -> None:
    """What torch's first compile does to the process: distributions stop validating their
    arguments by default (dynamo's ``TorchPatcher.patch``)."""
    from .distributions import Distribution
    Distribution.set_default_validate_args(False)


def compile(model=None, *, fullgraph: bool = False, dynamic=None, backend="inductor",
            mode=None, options=None, name=None, disable: bool = False, recompile_limit=None,
            isolate_recompiles: bool = False, shapes_spec=None):
    """Compile ``model`` (a module or function) or, without it, return a decorator that does.

    The result runs eagerly, as torch's ``backend="eager"`` does, and gives the same values.
    """
    _check(mode, options, backend)
    if model is None:
        def deco(fn):
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)
        return deco
    if not disable:
        _patch_once()
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    from .nn import Module
    if isinstance(model, Module):
        return _optimized_module()(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    compiled._torchdynamo_orig_callable = model
    return compiled


@functools.cache
def _optimized_module():
    from .nn import Module

    class OptimizedModule(Module):
        """A compiled module: ``_orig_mod`` is the module it runs (state_dict keys carry the
        ``_orig_mod.`` prefix, as torch's)."""

        def __init__(self, mod):
            super().__init__()
            self._orig_mod = mod

        def forward(self, *args, **kwargs):
            return self._orig_mod(*args, **kwargs)

        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self._modules["_orig_mod"], name)

    return OptimizedModule


def __getattr__(name):
    if name == "OptimizedModule":     # built on first use: nn is imported after this module
        return _optimized_module()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def module_compile(self, *args, **kwargs) -> None:
    """``Module.compile(...)``: compile in place (here: check the arguments; calls stay
    eager)."""
    compile(self._call_impl if hasattr(self, "_call_impl") else self.forward, *args, **kwargs)
