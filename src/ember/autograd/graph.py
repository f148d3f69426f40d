"""The backward graph: nodes (``grad_fn`` objects), leaf accumulators and saved tensors.

A :class:`Node` is created by each recorded op. ``next_functions`` holds one edge
``(node, input_nr)`` per differentiable input of the op — ``(None, 0)`` for an input that
needs no gradient — and points to the input's own ``grad_fn``, or to the
:class:`AccumulateGrad` of a leaf. ``apply(grads)`` maps the gradients of the node's outputs
to gradients of its inputs. What a node keeps for backward is held in :class:`SavedTensor`
objects that remember the version of the tensor when it was saved; releasing a node drops
them, and using them afterwards raises torch's "backward through the graph a second time".
"""

from __future__ import annotations

import itertools as _itertools
import sys as _sys
import weakref as _weakref
from collections import OrderedDict as _OrderedDict

from .. import _errors
from . import grad_mode as _grad_mode

_sequence = _itertools.count()
_state = _grad_mode._state


class RemovableHandle:
    """Returned by every ``register_*hook`` (tensors, nodes, modules, optimizers);
    ``remove()`` takes the hook out of its dict again."""

    _ids = _itertools.count()

    def __init__(self, hooks: dict):
        self.hooks_ref = _weakref.ref(hooks) if _weakrefable(hooks) else (lambda: hooks)
        self.id = next(RemovableHandle._ids)

    def remove(self) -> None:
        hooks = self.hooks_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _weakrefable(obj) -> bool:
    try:
        _weakref.ref(obj)
        return True
    except TypeError:
        return False


class _HookDict(_OrderedDict):
    """An ordered dict that can be weakly referenced by hook handles."""


def _add_hook(hooks: _HookDict, fn) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def _wrap(data):
    """``Tensor._wrap`` (the tensor module imports this one: bound on first use)."""
    global _wrap
    from .._tensor import Tensor
    _wrap = Tensor._wrap
    return _wrap(data)


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    An op's own output is kept as its array and version counter rather than as the Tensor
    (which references the node): that would be a reference cycle.
    """

    __slots__ = ("tensor", "data", "vc", "version", "is_output", "requires_grad", "hook_pack",
                 "name", "output_nr", "origin")

    def __init__(self, tensor, is_output: bool = False, name: str = "", node=None):
        state = _state
        if tensor._inference and not state.inference:
            raise RuntimeError(_errors.INFERENCE_SAVED)
        vc = self.vc = tensor._vc
        self.version = vc.value
        self.is_output = is_output
        # an op's own output gets its grad_fn only after the node saved it
        self.requires_grad = tensor._requires_grad or tensor.grad_fn is not None or (
            is_output and tensor._data.dtype.kind in "fc")
        self.name = name
        self.output_nr = tensor._output_nr
        hooks = state.saved_hooks
        if hooks:
            pack, _ = hooks[-1]
            self.hook_pack = (pack(tensor), hooks[-1][1])
            self.tensor = self.data = None
            # what the unpacked tensor is to autograd (torch's SavedVariable keeps the same):
            # the node that made it, or the accumulator of a leaf
            self.origin = None if is_output or not self.requires_grad else (
                tensor.grad_fn if tensor.grad_fn is not None else tensor._grad_accumulator())
        elif is_output:
            self.tensor, self.data, self.hook_pack = None, tensor._data, None
        else:
            self.tensor, self.data, self.hook_pack = tensor, None, None

    def unpack(self, node):
        """The saved tensor, after checking that no in-place op changed it since."""
        if self.hook_pack is not None:
            packed, unpack = self.hook_pack
            return self._as_saved(unpack(packed), node)
        if self.vc.value != self.version:
            t = self.tensor
            shape = list(t.shape if t is not None else self.data.shape)
            dtype = (t.dtype if t is not None else _dtype_of(self.data))
            origin = node if self.is_output else (t.grad_fn if t is not None else None)
            raise RuntimeError(_errors.modified_inplace(
                dtype._legacy, shape, origin, self.output_nr, self.vc.value, self.version))
        if self.is_output:
            out = _wrap(self.data)
            out._vc = self.vc
            if self.requires_grad:
                out.grad_fn, out._output_nr = node, self.output_nr
            return out
        return self.tensor

    def _as_saved(self, t, node):
        """What an unpack hook returned, with the saved tensor's place in the graph."""
        from .._tensor import Tensor
        if not self.requires_grad or not isinstance(t, Tensor):
            return t
        out = _wrap(t._data)
        origin = node if self.is_output else self.origin
        if isinstance(origin, AccumulateGrad):
            out._requires_grad = True
            out._acc = _weakref.ref(origin)
        else:
            out.grad_fn, out._output_nr = origin, self.output_nr
        return out

    @property
    def nbytes(self) -> int:
        data = self.data if self.tensor is None else self.tensor._data
        return 0 if data is None else data.nbytes


def _dtype_of(arr):
    from .._dtype import from_numpy_dtype
    return from_numpy_dtype(arr.dtype)


class Node:
    """Base class of every ``grad_fn``: edges to the inputs' nodes, hooks and saved state."""

    __slots__ = ("next_functions", "_saved", "_seq", "_released", "_input_meta", "__weakref__",
                 "__dict__")

    _name = "Node"
    # set on few nodes: class defaults until a node gets its own (in its __dict__)
    _hooks = _pre_hooks = _tensor_pre_hooks = _retain_grad = _metadata = None

    def __init__(self):
        self._seq = next(_sequence)
        self._saved = self._input_meta = None
        self._released = False

    @property
    def metadata(self) -> dict:
        """A dict for the user's own annotations of this node (made on first use)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    # ----- torch's public Node API
    def name(self) -> str:
        """The node's class name, e.g. ``'MulBackward0'``."""
        return self._name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def _sequence_nr(self) -> int:
        return self._seq

    def register_hook(self, fn) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after the node; may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = _HookDict()
        return _add_hook(self._hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before the node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
        return _add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, _HookDict())
        return _add_hook(hooks, fn)

    def _set_retain_grad(self, output_nr: int, tensor) -> None:
        if self._retain_grad is None:
            self._retain_grad = {}
        self._retain_grad[output_nr] = _weakref.ref(tensor)

    @property
    def num_outputs(self) -> int:
        return 1

    def _release(self) -> None:
        if self._saved:
            self._saved = None
            self._released = True

    def _check_released(self) -> None:
        if self._released:
            raise RuntimeError(_errors.BACKWARD_TWICE)

    def apply(self, grads: list):
        """Gradients of the inputs (one per edge, None where not needed) from the outputs'."""
        raise NotImplementedError(self._name)

    def __call__(self, *grads):
        return self.apply(list(grads))


class AccumulateGrad(Node):
    """The node of a leaf: adds the incoming gradient into ``variable.grad``."""

    __slots__ = ("variable",)
    _name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable):
        super().__init__()
        self._seq = float("inf")       # runs as soon as it is ready, like torch's UINT64_MAX
        self.variable = variable
        self.next_functions = ()

    def accumulate(self, grad, create_graph: bool) -> None:
        var = self.variable
        old = var._grad
        if old is None:
            if create_graph:
                var._grad = grad
            elif _exclusive(grad, var):
                if grad._base is not None:          # a view: keep its array, drop the view
                    grad = _wrap(grad._data)
                var._grad = grad
            else:
                # a gradient may be the very tensor another edge or the caller holds: copy it
                var._grad = grad.detach().clone()
        elif create_graph or _grad_mode._state.enabled:
            var._grad = old + grad
        else:
            old._data += grad._data.astype(old._data.dtype, copy=False)
            old._vc.value += 1
        post = var.__dict__.get("_post_accumulate_grad_hooks")
        if post:
            for hook in list(post.values()):
                hook(var)



# torch's AccumulateGrad takes an incoming gradient as ``.grad`` without a copy when nothing
# else can see it (its use count) and its strides are the variable's. The same test here, by
# reference counts: of the tensor, of its array, and of every array down the array's
# ``base`` chain. Each limit is the count of an object with no other holder, measured below
# through code of the same shape as ``_exclusive`` (so no Python version's counting is
# assumed).

def _exclusive(grad, var) -> bool:
    """True when ``grad``, passed as ``accumulate(grads[0])``, can become ``var.grad`` as is.

    ``grad`` may be a view (a transpose's or a reshape's output) of a tensor that nothing but
    that view holds; that tensor's array then has one holder more, its own tensor.
    """
    if _sys.getrefcount(grad) > _TENSOR_REFS or grad.grad_fn is not None \
            or grad._requires_grad:
        return False
    if _sys.getrefcount(grad._data) > _ARRAY_REFS:
        return False
    owner_data = None
    if grad._base is not None:
        owner = grad._base
        # held like an array's base: by one attribute (grad._base), a local, the argument
        if _sys.getrefcount(owner) > _BASE_REFS or owner.grad_fn is not None \
                or owner._requires_grad or owner._base is not None:
            return False
        owner_data = owner._data
        del owner
    a = grad._data
    if a.strides != var._data.strides or not a.flags.writeable \
            or not (a.flags.c_contiguous or a.flags.f_contiguous):
        return False
    ndarray = type(a)
    while True:
        base = a.base
        if base is None:
            return owner_data is None or a is owner_data
        limit = _BASE_REFS + 2 if base is owner_data else _BASE_REFS
        if type(base) is not ndarray or _sys.getrefcount(base) > limit:
            return False
        a = base


class _Holder:
    __slots__ = ("_data",)


def _tensor_count(grad, var):
    return _sys.getrefcount(grad)


class _Probe:
    def accumulate(self, grad, create_graph):
        return _tensor_count(grad, None)


def _sole_counts():
    import numpy as np
    grads = [object()]
    tensor_refs = _Probe().accumulate(grads[0], False)
    grad = _Holder()
    grad._data = np.empty(1)
    array_refs = _sys.getrefcount(grad._data)
    a = np.empty(2)[1:]
    base = a.base
    base_refs = _sys.getrefcount(base)
    return tensor_refs, array_refs, base_refs


_TENSOR_REFS, _ARRAY_REFS, _BASE_REFS = _sole_counts()


from .. import _lazy  # noqa: E402

# seeing the graph: loaded on first use
_lazy.package(globals(), names={n: "visualize" for n in ("explain", "render", "summary",
                                                          "to_dot")})
del _lazy

# ----------------------------------------------------------------------------- saved-tensor hooks

class saved_tensors_hooks:
    """Context manager: ``pack_hook(t)`` runs when an op saves ``t`` for backward, and
    ``unpack_hook(packed)`` when backward needs it back.

    >>> import ember
    >>> x = ember.ones(2, requires_grad=True)
    >>> with ember.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
    ...     y = x * x
    >>> y.sum().backward(); x.grad
    tensor([2., 2.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        st = _grad_mode._state
        if st.saved_hooks_disabled is not None:
            raise RuntimeError(st.saved_hooks_disabled)
        st.saved_hooks = st.saved_hooks + ((self.pack_hook, self.unpack_hook),)
        return self

    def __exit__(self, *exc):
        st = _grad_mode._state
        st.saved_hooks = st.saved_hooks[:-1]
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are moved to the CPU when packed and back when unpacked (a no-op here)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        def pack(t):
            return (t.device, t.cpu())

        def unpack(packed):
            device, t = packed
            return t.to(device)
        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:
    """Context manager under which registering saved-tensor hooks raises ``error_message``."""

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self):
        st = _grad_mode._state
        self._prev = st.saved_hooks_disabled
        st.saved_hooks_disabled = self.error_message
        return self

    def __exit__(self, *exc):
        _grad_mode._state.saved_hooks_disabled = self._prev
        return False


del annotations  # keep dir() to torch's names
