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

import contextlib as _contextlib
import itertools as _itertools
import sys as _sys
import weakref as _weakref
from collections import OrderedDict as _OrderedDict
from typing import NamedTuple as _NamedTuple

from .. import _errors, _meta
from . import grad_mode as _grad_mode

_MetaArray = _meta.MetaArray

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

    An op's own output that requires grad is kept as its array and version counter rather
    than as the Tensor (which references the node): that would be a reference cycle. One
    without a gradient (an index result) is kept as itself, as torch keeps it.
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
        elif is_output and self.requires_grad:
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
            # (an output without a gradient, an index result, names no node)
            origin = (node if self.requires_grad else None) if self.is_output else (
                t.grad_fn if t is not None else None)
            raise RuntimeError(_errors.modified_inplace(
                dtype._legacy, shape, origin, self.output_nr, self.vc.value, self.version))
        if self.tensor is not None:
            return self.tensor
        out = _wrap(self.data)
        out._vc = self.vc
        out.grad_fn, out._output_nr = node, self.output_nr
        return out

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

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        """Pack the saved tensor now with ``pack_hook``; ``unpack_hook`` restores it on use
        (what ``grad_fn._raw_saved_<name>.register_hooks`` does in torch)."""
        if self.hook_pack is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time.")
        tensor = self.tensor
        if tensor is None:
            tensor = _wrap(self.data)
            tensor._vc = self.vc
        elif not self.is_output:
            self.origin = None if not self.requires_grad else (
                tensor.grad_fn if tensor.grad_fn is not None else tensor._grad_accumulator())
        self.hook_pack = (pack_hook(tensor), unpack_hook)
        self.tensor = self.data = None


class _FreedSaved:
    """``grad_fn._raw_saved_<name>`` after backward freed the graph (or of a tensor the node
    did not need): torch's SavedTensor refuses hooks then."""

    __slots__ = ("_why",)

    def __init__(self, why: str):
        self._why = why

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        raise RuntimeError(self._why)


_FREED_HOOKS = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward.")
_NONE_HOOKS = "Calling register_hooks on a saved tensor with value None is forbidden"
# torch's names for the metadata a node keeps of a tensor, and this library's
_SAVED_SUFFIXES = (("_sym_sizes", "_shape"), ("_sym_strides", "_strides"),
                   ("_sym_numel", "_numel"))


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

    def _set_sequence_nr(self, nr: int) -> None:
        """Give the node another sequence number (its place among ready nodes in backward)."""
        self._seq = nr

    @property
    def requires_grad(self) -> bool:
        """Always True: a node exists only for outputs that require grad."""
        return True

    @property
    def _input_metadata(self) -> tuple:
        """One :class:`_InputMetadata` (shape, dtype, device) per gradient the node takes,
        that is per differentiable output of its forward (empty where not known)."""
        metas = self._output_metas()
        return tuple(_InputMetadata(shape, dtype) for shape, dtype in metas)

    def _output_metas(self) -> list:
        """``(shape, dtype)`` of each differentiable output of the node's forward."""
        from .._dtype import from_numpy_dtype
        out = []
        for m in getattr(self, "_nout", None) or ():
            if m is None:
                continue
            shape, dt = m
            dt = dt if hasattr(dt, "is_floating_point") else from_numpy_dtype(dt)
            if dt.is_floating_point or dt.is_complex:
                out.append((shape, dt))
        if not out:
            one = getattr(self, "_out1", None)
            if one is not None:
                out.append((one[0], from_numpy_dtype(one[1])))
        return out

    def _register_hook_dict(self, tensor) -> None:
        """Run the hooks of ``tensor._backward_hooks`` (a dict, read when backward reaches
        this node) on the gradient of ``tensor``, before the node."""
        hooks = tensor._backward_hooks

        def run(grad):
            for hook in list(hooks.values()):
                new = hook(grad)
                if new is not None:
                    grad = new
            return grad
        self._register_tensor_hook(tensor._output_nr, run)

    def _names_saved(self) -> list:
        """The ``_saved_<name>`` / ``_raw_saved_<name>`` attributes this node has."""
        saved = self._saved
        names = [n for n in object.__dir__(self) if n.startswith("_saved_") or (
            # (a number in a tensor's place, ``x ** 2``'s exponent: torch's node for it
            # keeps no SavedTensor)
            n.startswith("_raw_saved_") and not (
                isinstance(saved, dict) and n[11:] in saved
                and getattr(saved[n[11:]], "value", None) is not None))]
        if not isinstance(saved, dict) or getattr(type(self), "_op", None) is not None:
            return names
        for k, v in saved.items():
            names.append("_saved_" + k)
            if isinstance(v, SavedTensor):
                names.append("_raw_saved_" + k)
        return names

    def __dir__(self):
        """torch's attributes of a node: its public API, its saved values and the dunders
        (none of this library's internals)."""
        names = [n for n in object.__dir__(self) if n.startswith("__") and n.endswith("__")]
        names += [n for n in _NODE_API if hasattr(self, n)]
        names += self._names_saved()
        return sorted(set(names))

    def _find_saved(self, name: str, raw: bool) -> tuple:
        """``(found, value)`` of the saved ``name`` in torch's naming."""
        op = getattr(type(self), "_op", None)
        if not raw:
            ours = name
            for theirs, mine in _SAVED_SUFFIXES:
                if name.endswith(theirs):
                    ours = name[: -len(theirs)] + mine
                    break
            kept = getattr(self, "_args", None)
            if kept and ours in kept:
                value = kept[ours]
                if isinstance(value, _NUMBERS):
                    return True, _wrapped_number(op, ours, value)
                return True, tuple(value) if isinstance(value, list) else value
        saved = self._saved
        if op is not None:
            needs = set()
            for n in op.diff:
                needs.update(op.needs[n])
            known = name in needs and (name in op.results or name in op.tensors)
        else:
            known = isinstance(saved, dict) and name in saved
        if not known and not (isinstance(saved, dict) and name in saved):
            return False, None
        if self._released:
            if raw:
                return True, _FreedSaved(_FREED_HOOKS)
            raise RuntimeError(_errors.BACKWARD_TWICE)
        st = saved.get(name) if saved else None
        if st is None:
            return True, _FreedSaved(_NONE_HOOKS) if raw else None
        if not isinstance(st, SavedTensor):
            value = getattr(st, "value", st)
            if isinstance(value, _NUMBERS):
                value = _wrapped_number(op, name, value)
            return not raw, value
        return True, st if raw else st.unpack(self)

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


class _EdgesNode(Node):
    """A node made with its edges given: torch's helper nodes (``Error``,
    ``WarnNotImplemented`` …), whose ``apply`` the subclass gives."""

    def __init__(self, edges: tuple) -> None:
        super().__init__()
        self.next_functions = edges


# the attributes torch's nodes show (``dir``) besides their saved values
_NODE_API = ("_input_metadata", "_register_hook_dict", "_sequence_nr", "_set_sequence_nr",
             "metadata", "name", "next_functions", "register_hook", "register_prehook",
             "requires_grad", "variable")


class _InputMetadata:
    """What a node knows of one gradient it takes: ``shape``, ``dtype``, ``device``."""

    __slots__ = ("shape", "dtype")
    is_nested_tensor = is_cpp_nested_tensor = False

    def __init__(self, shape, dtype):
        from .._tensor import Size
        self.shape = Size(shape)
        self.dtype = dtype

    @property
    def device(self):
        from .._device import device
        return device("cpu")


_NUMBERS = (bool, int, float, complex)


def _wrapped_number(op, name: str, value):
    """What torch shows for the saved number ``value`` named ``name``: the number itself,
    except for the ``Tensor other`` of a binary op without a ``Scalar`` overload (``x * 3``,
    ``x / 3``), which the binding passed as a 0-dim "wrapped number" tensor: int64, float64,
    bool or complex128."""
    if name != "other" or op is None or "scalar" in op.name:
        return value
    from .. import _dtype
    from .._factories import scalar_tensor
    dtype = (_dtype.bool if isinstance(value, bool) else _dtype.int64 if isinstance(value, int)
             else _dtype.float64 if isinstance(value, float) else _dtype.complex128)
    return scalar_tensor(value, dtype=dtype)


def _saved_attribute(node, attr: str):
    """torch's ``_saved_<name>`` (what the node keeps for backward: a tensor, None for one it
    did not need, or a number, shape, dim …) and ``_raw_saved_<name>`` (the SavedTensor) of
    ``node``; torch's AttributeError where it keeps no such thing."""
    raw = attr.startswith("_raw_saved_")
    if raw or attr.startswith("_saved_"):
        found, value = node._find_saved(attr[11:] if raw else attr[7:], raw)
        if found:
            return value
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '{attr}'")


def _saved_properties(names) -> dict:
    """Properties reading the saved attributes ``names`` (``_saved_<name>``,
    ``_raw_saved_<name>``), for a node class that knows them in advance: a class without
    ``__getattr__`` (:class:`_SavedByName`) keeps its attribute reads on CPython's fast paths."""
    return {attr: property(lambda node, attr=attr: _saved_attribute(node, attr))
            for attr in names}


class _SavedByName:
    """Mixin of the node classes whose saved values are known only by name when read
    (``_saved_<name>`` looked up in ``_saved``)."""

    __slots__ = ()

    def __getattr__(self, attr: str):
        return _saved_attribute(self, attr)


class AccumulateGrad(Node):
    """The node of a leaf: adds the incoming gradient into ``variable.grad``."""

    __slots__ = ("variable",)
    _name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable):
        super().__init__()
        self._seq = float("inf")       # runs as soon as it is ready, like torch's UINT64_MAX
        self.variable = variable
        self.next_functions = ()

    def _output_metas(self) -> list:
        return [(self.variable._data.shape, self.variable.dtype)]

    def accumulate(self, grad, create_graph: bool) -> None:
        var = self.variable
        old = var._grad
        if grad.is_sparse or old is not None and old.is_sparse:
            from ..sparse._sparse import _accumulate
            return _accumulate(self, grad, create_graph)
        shape = grad._data.shape
        if shape != var._data.shape or old is not None and old._data.shape != shape:
            # a variable given other ``.data`` since: torch copies the gradient into its
            # shape, or adds it to ``.grad`` in place (their errors where they fail)
            with _grad_mode.no_grad():
                if old is None:
                    var._grad = var.detach().new_empty(var.shape).copy_(grad)
                else:
                    old.add_(grad)
        elif old is None:
            if create_graph:
                var._grad = grad
            elif grad._data.__class__ is _MetaArray:
                # torch's layout contract: the variable's strides where it is dense
                st = var.stride()
                var._grad = _wrap(_meta.empty(grad._data.shape, grad._data.dtype,
                                              st if var.is_meta and 0 not in st else None))
            elif _exclusive(grad, var):
                if grad._base is not None:          # a view: keep its array, drop the view
                    grad = _wrap(grad._data)
                var._grad = grad
            else:
                # a gradient may be the very tensor another edge or the caller holds: copy it
                # (torch's clone_obey_contract: laid out as the variable where it is dense)
                var._grad = _clone_obey_contract(grad, var)
        elif create_graph or _grad_mode._state.enabled:
            var._grad = old + grad
        else:
            old._data += grad._data.astype(old._data.dtype, copy=False)
            old._vc.value += 1
        post = var.__dict__.get("_post_accumulate_grad_hooks")
        if post:
            for hook in list(post.values()):
                hook(var)



def _clone_obey_contract(grad, var):
    """A copy of ``grad`` with ``var``'s strides where ``var`` is non-overlapping and dense
    (a channels_last parameter gets a channels_last ``.grad``), else a contiguous copy."""
    g = grad.detach().clone()
    v = var._data
    gd = g._data
    if gd.strides == v.strides or v.flags.c_contiguous:
        return g if gd.flags.c_contiguous or gd.strides == v.strides else g.contiguous()
    import numpy as np
    like = np.empty_like(v)          # order "K": var's strides where var is dense
    if like.strides != v.strides:
        return g.contiguous()
    like[...] = gd
    return _wrap(like)


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


# ----------------------------------------------------------------------------- multi-grad hooks

class _MultiHandle(RemovableHandle):
    """The handle of :func:`register_multi_grad_hook`: removes every tensor hook it made."""

    def __init__(self, handles: tuple):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self):
        return self.handles

    def __setstate__(self, state) -> None:
        self.handles = state


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> RemovableHandle:
    """Call ``fn`` once per backward call over the gradients of ``tensors``.

    ``mode="all"``: after the gradient of every tensor the call will compute, with the list of
    gradients (None for a tensor outside the call's graph). ``mode="any"``: with the first
    gradient computed, once per call.
    """
    from . import engine as _engine

    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")
    if mode == "all":
        count: dict = {}
        buffer: dict = {}
        nb_calls = None
        grad_fns = [t._edge()[0] if t.requires_grad else None for t in tensors]

        def get_inner_hook(idx):
            def inner_hook(grad):
                nonlocal nb_calls
                task = _engine.current_task[0][0]
                curr_count = count.get(task, 0)
                count[task] = curr_count + 1
                slots = buffer.setdefault(task, [None] * len(tensors))
                if curr_count == 0:
                    nb_calls = sum(fn_ is not None and _engine.will_execute(fn_)
                                   for fn_ in grad_fns)
                slots[idx] = grad
                if curr_count == nb_calls - 1:
                    fn(slots)
                    del count[task]
                    del buffer[task]

            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran_hook: dict = {}

        def wrapped_fn(grad):
            task = _engine.current_task[0][0]
            if ran_hook.get(task):
                return
            ran_hook[task] = True
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)


class GradientEdge(_NamedTuple):
    """An edge of the graph, ``(node, output_nr)``: where the gradient of a tensor is
    computed (``autograd.grad`` and ``backward`` take it in place of the tensor)."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The :class:`GradientEdge` of ``tensor``: its ``grad_fn`` (a leaf's gradient
    accumulator) and output number."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that "
                           "does not require gradients")
    node, nr = tensor._edge()
    return GradientEdge(node, nr)


class _AllowMutationOnSavedContext:
    """The state of an ``allow_mutation_on_saved_tensors`` block: the tensors saved in it
    (with their versions and copies), cleared when the block ends."""

    def __init__(self):
        self.saved = []

    def clear(self) -> None:
        self.saved.clear()


_allow_mutation_enabled = [False]
_MUTATION_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                     "contextin which the graph was originally recorded.")


@_contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which tensors saved for backward may be modified in place:
    backward sees them as they were when saved (run forward and backward inside it)."""
    ctx = _AllowMutationOnSavedContext()

    def pack(t):
        entry = [t, t._version, t.detach().clone()]   # the values as saved
        ctx.saved.append(entry)
        return entry

    def unpack(entry):
        if not _allow_mutation_enabled[0] or not ctx.saved:
            raise AssertionError(_MUTATION_OUTSIDE)
        t, version, copy = entry
        if t._version == version:
            return t
        return copy.requires_grad_(t.requires_grad) if t.is_leaf else copy

    with saved_tensors_hooks(pack, unpack):
        try:
            if _allow_mutation_enabled[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _allow_mutation_enabled[0] = True
            yield ctx
        finally:
            ctx.clear()
            _allow_mutation_enabled[0] = False


def increment_version(tensor) -> None:
    """Mark ``tensor`` (or each tensor of an iterable) as modified in place.

    Saved copies of it then fail torch's "modified by an inplace operation" check; a tensor
    made under ``torch.inference_mode()`` has no version counter and is left alone.
    """
    from .._tensor import Tensor

    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if not t._inference:
            t._vc.value += 1


del annotations  # keep dir() to torch's names
