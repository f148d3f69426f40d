"""Activation checkpointing: keep a region's inputs, recompute its activations in backward.

``checkpoint(fn, *args, use_reentrant=...)`` runs ``fn`` so that the tensors its ops would
save for backward are not kept; backward runs ``fn`` again (with the generator put back in
the state the forward saw, so dropout draws the same masks) to get them. As in torch:

* ``use_reentrant=True`` runs the forward under ``no_grad`` inside a custom Function whose
  backward recomputes the region with grad and runs a nested backward through it;
* ``use_reentrant=False`` records the forward's graph but packs each saved tensor as a
  placeholder (saved-tensor hooks); the first unpack in a backward call recomputes the region
  and hands out its saved tensors, in the order they were saved.

Not given: selective checkpointing (``context_fn`` policies built on torch's dispatch modes)
and the ``debug`` traces of operators.
"""

from __future__ import annotations

import contextlib as _contextlib
import warnings as _warnings
import weakref as _weakref

from .. import random as _random
from .._tensor import Tensor as _Tensor
from ..amp import autocast_mode as _amp
from ..autograd import engine as _engine
from ..autograd import grad_mode as _grad_mode
from ..autograd.function import Function as _Function
from ..autograd.graph import SavedTensor as _SavedTensor
from ..autograd.graph import saved_tensors_hooks as _saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "get_device_states",
           "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "set_checkpoint_debug_enabled", "DefaultDeviceType"]

_enable_checkpoint_early_stop = None
_checkpoint_debug_enabled = None
_DEBUG_TIP = ("Tip: To see a more detailed error message, either pass `debug=True` to\n"
              "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
              "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
              "enable checkpoint‑debug mode globally.\n")


class CheckpointError(RuntimeError):
    """A recomputation that does not match the original forward."""


class DefaultDeviceType:
    """The device type whose RNG state checkpoint saves beside the CPU's (``"cuda"``)."""

    _default_device_type = "cuda"

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        return DefaultDeviceType._default_device_type


def noop_context_fn():
    """The default ``context_fn``: no context around the forward or its recomputation."""
    return _contextlib.nullcontext(), _contextlib.nullcontext()


def check_backward_validity(inputs) -> None:
    """Warn when no tensor input requires grad (the region would get no gradients)."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, _Tensor)):
        _warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                       stacklevel=2)


def detach_variable(inputs: tuple) -> tuple:
    """Each tensor of ``inputs`` detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, _Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def get_device_states(*args) -> tuple[list, list]:
    """The accelerators' RNG states of ``args``' devices: none, on the CPU."""
    return [], []


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restore accelerators' RNG states: there are none to restore on the CPU."""


@_contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Whether non-reentrant checkpoints made in the block stop recomputing early."""
    global _enable_checkpoint_early_stop
    prev = _enable_checkpoint_early_stop
    _enable_checkpoint_early_stop = enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


@_contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Override the ``debug`` flag of the checkpoints made in the block."""
    global _checkpoint_debug_enabled
    prev = _checkpoint_debug_enabled
    _checkpoint_debug_enabled = enabled
    try:
        yield
    finally:
        _checkpoint_debug_enabled = prev


def _autocast_state():
    st = _amp._state
    return {"enabled": st.enabled, "dtype": st.dtype, "cache_enabled": st.cache_enabled}


@_contextlib.contextmanager
def _replay(rng_state, autocast_kwargs):
    """The block runs with the generator in ``rng_state`` (unless None) and the forward's
    autocast settings; the generator is put back afterwards."""
    with _random.fork_rng(enabled=rng_state is not None):
        if rng_state is not None:
            _random.set_rng_state(rng_state)
        with _amp.autocast("cpu", **autocast_kwargs):
            yield


class CheckpointFunction(_Function):
    """The reentrant checkpoint: forward without a graph, backward recomputes and
    backpropagates through the region."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.fwd_cpu_state = _random.get_rng_state() if preserve_rng_state else None
        ctx.autocast_kwargs = _autocast_state()
        ctx.inputs = [None if isinstance(a, _Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, _Tensor)]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with _grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        if _engine.current_task[0][1]:
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _replay(ctx.fwd_cpu_state, ctx.autocast_kwargs):
            detached = detach_variable(tuple(inputs))
            with _grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, _Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, args)
                 if isinstance(o, _Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        from ..autograd import backward
        backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(inp.grad if isinstance(inp, _Tensor) else None
                                    for inp in detached)


class _Holder:
    """What a saved tensor of a checkpointed region is packed as: per backward call, the key
    of its recomputed tensor (None once handed out)."""

    __slots__ = ("handles", "__weakref__")

    def __init__(self):
        self.handles = {}


class _StopRecomputation(Exception):
    pass


class _Frame:
    """One non-reentrant checkpointed call: its inputs, its packed placeholders and, per
    backward call, what the recomputation saved."""

    def __init__(self, recompute, early_stop, check_metadata):
        self.recompute = recompute
        self.early_stop = early_stop
        self.check_metadata = check_metadata
        self.inputs = []
        self.holders = []              # weak references, in the order the forward saved
        self.metadata = []
        self.recomputed = {}           # task id -> {index: tensor}
        self.counter = {}              # task id -> tensors saved by its recomputation
        self.forward_completed = False
        self.ignore_mismatch = False

    def pack(self, x):
        holder = _Holder()
        self.holders.append(_weakref.ref(holder))
        if self.check_metadata:
            self.metadata.append((tuple(x.shape), x.dtype, x.device))
        return holder

    def unpack(self, holder):
        task = _engine.current_task[0][0]
        if task not in self.counter:
            self.counter[task] = 0
            self.recomputed[task] = {}
            try:
                inputs = [a.unpack(None) if isinstance(a, _SavedTensor) else a
                          for a in self.inputs]
                with _recording(self, task), _grad_mode.enable_grad():
                    self.recompute(*inputs)
            except _StopRecomputation:
                pass
            self.check(task)
        index = holder.handles.get(task)
        if index is None:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                "already unpacked once. If you are calling ctx.saved_tensors in backward, "
                "make sure to do so only once. Otherwise please open an issue with details "
                "on your use case.")
        holder.handles[task] = None
        return self.recomputed[task].pop(index)

    def save_recomputed(self, task, x):
        x = x.detach() if x.requires_grad else x
        k = self.counter[task]
        self.counter[task] = k + 1
        if k >= len(self.holders):
            if not self.forward_completed:
                self.ignore_mismatch = True
                return x
            raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                  f"recomputation than during the original forward pass.\n"
                                  f"{_DEBUG_TIP}")
        holder = self.holders[k]()
        if holder is not None:
            holder.handles[task] = k
            self.recomputed[task][k] = x
        if self.early_stop and k + 1 == len(self.holders):
            raise _StopRecomputation
        return x

    def check(self, task):
        if self.ignore_mismatch:
            return
        if len(self.holders) != self.counter[task]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {self.counter[task]}.\n"
                f"{_DEBUG_TIP}")
        if not self.check_metadata:
            return
        wrong = []
        for k, ref in enumerate(self.holders):
            if ref() is None or k not in self.recomputed[task]:
                continue
            x = self.recomputed[task][k]
            if (tuple(x.shape), x.dtype, x.device) != self.metadata[k]:
                wrong.append(k)
        if wrong:
            lines = []
            for k in wrong:
                x = self.recomputed[task][k]
                shape, dtype, device = self.metadata[k]
                got = {"shape": tuple(x.shape), "dtype": x.dtype, "device": x.device}
                want = {"shape": shape, "dtype": dtype, "device": device}
                lines.append(f"tensor at position {k}:\n"
                             f"saved metadata: {_meta_text(want)}\n"
                             f"recomputed metadata: {_meta_text(got)}\n")
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                "different metadata than during the forward pass.\n" + "".join(lines)
                + _DEBUG_TIP)


def _meta_text(meta):
    shape = "torch.Size([" + ", ".join(map(str, meta["shape"])) + "])"
    return f"{{'shape': {shape}, 'dtype': {meta['dtype']}, 'device': {meta['device']!r}}}"


def _recording(frame, task):
    return _saved_tensors_hooks(lambda x: frame.save_recomputed(task, x), lambda x: x)


def _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, debug,
                                  early_stop, args, kwargs):
    if (_checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug) \
            and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in ("default", "none"):
        raise ValueError("determinism_check should be one of ['default', 'none'], but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    rng_state = _random.get_rng_state() if preserve else None
    autocast_kwargs = _autocast_state()

    def recompute(*inputs):
        with _replay(rng_state, autocast_kwargs), recompute_context:
            function(*inputs, **kwargs)

    if not _grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    stop = _enable_checkpoint_early_stop
    frame = _Frame(recompute, early_stop if stop is None else stop,
                   determinism_check == "default")
    frame.inputs = [_SavedTensor(a) if isinstance(a, _Tensor) else a for a in args]
    with _saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        out = function(*args, **kwargs)
    frame.forward_completed = True
    return out


def checkpoint(function, *args, use_reentrant: bool | None = None,
               context_fn=noop_context_fn, determinism_check: str = "default",
               debug: bool = False, early_stop: bool = True, **kwargs):
    """``function(*args, **kwargs)``, its activations recomputed in backward instead of kept.

    >>> import ember
    >>> lin = ember.nn.Linear(3, 3)
    >>> x = ember.ones(2, 3, requires_grad=True)
    >>> y = checkpoint(lambda t: lin(t).relu(), x, use_reentrant=False)
    >>> y.sum().backward(); x.grad.shape
    torch.Size([2, 3])
    """
    if use_reentrant is None:
        _warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check,
                                         debug, early_stop, args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant: bool | None = None,
                          **kwargs):
    """Run a sequential model (or a list of modules) in ``segments`` pieces, all but the
    last checkpointed."""
    if use_reentrant is None:
        _warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)


del annotations  # keep dir() to torch's names
