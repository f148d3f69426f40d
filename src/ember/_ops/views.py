"""In-place ops on views of tensors in a graph: torch's CopySlices.

When an in-place op writes through a view ``v`` of a base ``b`` that is part of a graph, the
base's history is rewritten: ``b.grad_fn`` becomes a ``CopySlices`` node that takes the
base's gradient, runs the op's backward on the region the view covers, and writes the
result back into that region; ``v.grad_fn`` becomes an ``AsStridedBackward0`` view of the
new base history.

The other views of the base follow, as in torch (``VariableHooks::grad_fn``): every float view
registers with its version counter (``Tensor._watch``); a write through the base or any of its
views turns them into ``_StaleView``s, and the next read of such a view's ``grad_fn``
(:func:`regenerate`) replays it on the base's current history as an ``AsStridedBackward0``.
Tensors that are not views never pay for it: their ``grad_fn`` stays a plain slot.
"""

from __future__ import annotations

from .. import _tensor as _T
from .._device import xp
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.graph import Node
from .registry import (
    _IN_CUSTOM_FUNCTION,
    _INFERENCE,
    _MULTI,
    _NO_GRAD,
    _dt_of,
    _record,
    write_result,
)

_state = grad_mode._state
_gf_get = _T._gf_get
_gf_set = _T._gf_set


def _like_base(base_data, fill=None):
    """A new array with ``base_data``'s exact strides, over a contiguous buffer of its own,
    so that any view of the base maps onto it by byte offset (``_region``)."""
    shape, strides, item = base_data.shape, base_data.strides, base_data.itemsize
    lo = sum((n - 1) * st for n, st in zip(shape, strides) if st < 0)
    hi = sum((n - 1) * st for n, st in zip(shape, strides) if st > 0) + item
    buf = xp.zeros(max(hi - lo, item), xp.uint8)
    return xp.ndarray(shape, base_data.dtype, buffer=buf, offset=-lo, strides=strides)


def _region(arr, like_base, view):
    """The part of ``arr`` (made by ``_like_base(like_base)``) that ``view`` covers."""
    off = view.__array_interface__["data"][0] - like_base.__array_interface__["data"][0]
    start = arr.__array_interface__["data"][0] - arr.base.__array_interface__["data"][0]
    # (a real view of a complex base, ``real``/``imag``/``view_as_real``: the view's dtype)
    dt = view.dtype if arr.dtype == like_base.dtype else arr.dtype
    return xp.ndarray(view.shape, dt, buffer=arr.base, offset=start + off,
                      strides=view.strides)


def _base_layout_copy(grad, base_data):
    g = _like_base(base_data)
    g[...] = grad
    return g


class CopySlices(Node):
    """Gradient of a base after an in-place op on one of its views."""

    __slots__ = ("_op_node", "_base_data", "_view_data")
    _name = "torch::autograd::CopySlices"       # torch's name(); its class is CopySlices

    def apply(self, grads):
        grad = grads[0]
        if _state.enabled:      # create_graph: the same, written with ember ops
            return self._apply_graph(grad)
        g = _base_layout_copy(grad._data, self._base_data)
        region = _region(g, self._base_data, self._view_data)
        inner = self._op_node
        res = inner.apply([Tensor._wrap(region.copy())])
        metas = inner._input_meta
        out = [None] * len(self.next_functions)
        self_grad = res[0]
        if self_grad is not None and metas[0] is not None:
            from ..autograd.engine import _validate
            self_grad = _validate(inner, 0, self_grad, metas[0])
            region[...] = self_grad._data
        else:
            region[...] = 0
        out[0] = Tensor._wrap(g)
        for i in range(1, len(res)):
            out[i] = res[i]
        return out

    def _apply_graph(self, grad):
        from .indexing import index_put
        base, view = self._base_data, self._view_data
        like = _like_base(base)
        region = _region(like, base, view)
        bidx = Tensor._wrap(xp.ascontiguousarray(_offsets(like, like)))
        vidx = Tensor._wrap(xp.ascontiguousarray(_offsets(region, like)).reshape(-1))
        storage = Tensor._wrap(xp.zeros(like.base.size // like.itemsize, grad._data.dtype))
        storage = index_put(storage, (bidx.reshape(-1),), grad.reshape(-1))
        inner = self._op_node
        res = inner.apply([storage[vidx].reshape(view.shape)])
        metas = inner._input_meta
        self_grad = res[0]
        if self_grad is not None and metas[0] is not None:
            from ..autograd.engine import _validate
            self_grad = _validate(inner, 0, self_grad, metas[0]).reshape(-1)
        else:
            self_grad = Tensor._wrap(xp.zeros(vidx._data.shape, grad._data.dtype))
        out = [index_put(storage, (vidx,), self_grad)[bidx]]
        out.extend(res[1:])
        return out

    def _release(self):
        self._op_node._release()


def _self_overlaps(a) -> bool:
    """Whether two elements of ``a`` may share memory (an expanded view …): sorted by stride,
    each dimension must step past everything the smaller ones span."""
    span = a.itemsize
    for st, n in sorted((abs(st), n) for n, st in zip(a.shape, a.strides) if n > 1):
        if st < span:
            return True
        span += st * (n - 1)
    return False


def _offsets(view, like):
    """Element offsets of ``view``'s elements in the buffer of ``like`` (from ``_like_base``)."""
    item = view.itemsize
    buf = like.base
    idx = xp.asarray((view.__array_interface__["data"][0]
                      - buf.__array_interface__["data"][0]) // item, dtype=xp.intp)
    nd = view.ndim
    for d, (n, st) in enumerate(zip(view.shape, view.strides)):
        shape = [1] * nd
        shape[d] = n
        idx = idx + (xp.arange(n, dtype=xp.intp) * (st // item)).reshape(shape)
    return xp.broadcast_to(idx, view.shape)


class AsStridedBackward0(Node):
    """The history of a view whose base was written in place: the view's gradient, scattered
    (summed where the view overlaps itself) into a zero gradient of the whole base."""

    __slots__ = ("_base_data", "_view_data")
    _name = "AsStridedBackward0"

    def apply(self, grads):
        base, view = self._base_data, self._view_data
        g = _like_base(base)
        if _state.enabled:      # create_graph: the same scatter written with ember ops
            return [_as_strided_backward(grads[0], base, view, g)]
        region = _region(g, base, view)
        if _self_overlaps(region):
            flat = g.base.view(g.dtype)
            xp.add.at(flat, _offsets(region, g), grads[0]._data)
        else:
            region[...] += grads[0]._data
        return [Tensor._wrap(g)]


def _as_strided_backward(grad, base, view, like):
    """Differentiable form of AsStridedBackward0: index_add into the storage, read the base."""
    from .indexing import index_add
    flat = like.base.view(like.dtype)
    storage = Tensor._wrap(xp.zeros(flat.shape, grad._data.dtype))
    region = _region(like, base, view)
    vidx = Tensor._wrap(xp.ascontiguousarray(_offsets(region, like)).reshape(-1))
    storage = index_add(storage, 0, vidx, grad.reshape(-1))
    bidx = Tensor._wrap(xp.ascontiguousarray(_offsets(like, like)))
    return storage[bidx]


def _view_of_base(view, old_fn, old_nr):
    """An ``AsStridedBackward0`` from ``view`` to its base's current history; a
    ``retain_grad`` on the view's old node (``old_fn``, output ``old_nr``) moves to it."""
    base = view._base
    node = AsStridedBackward0()
    node._base_data, node._view_data = base._data, view._data
    node.next_functions = (base._edge(),)
    node._input_meta = [(base._data.shape, _dt_of(base))]
    if old_fn is not None and old_fn._retain_grad and old_fn._retain_grad.pop(old_nr, None):
        node._set_retain_grad(0, view)
    return node


def regenerate(view):
    """The ``grad_fn`` of a stale view: its own, while neither it nor its base is in a graph;
    else a new ``AsStridedBackward0`` on the base's current history (torch's view regeneration).
    Raises torch's error for views that may not follow their base (multi-output, no_grad)."""
    fn = _gf_get(view)
    base = view._base
    if fn is None and not base.requires_grad:
        return None
    meta = view.__dict__.get("_cm")
    if meta is not None:
        raise RuntimeError(view_rebase_message(view, meta, True))
    node = _view_of_base(view, fn, view._output_nr)
    _gf_set(view, node)
    view._output_nr = 0
    view.__class__ = Tensor
    view._watch()
    return node


def view_rebase_message(view, meta, indirect: bool) -> str:
    """torch's ``handle_view_on_rebase`` message for a view made with creation meta ``meta``."""
    modified = ("its base or another view of its base has been" if indirect else "is being")
    fn = _gf_get(view)
    if fn is not None:
        name = fn.name()
        cut = name.rfind("Backward")
        msg = (f"Output {view._output_nr} of {name[:cut] if cut > 0 else name} is a view and "
               f"{modified} modified inplace.")
    elif meta is _INFERENCE:
        msg = (f"A view was created in inference mode and {modified} modified inplace in "
               "normal mode.")
    else:
        msg = (f"A view was created in no_grad mode and {modified} modified inplace with grad "
               "mode enabled.")
    if meta is _IN_CUSTOM_FUNCTION:
        return msg + (" This view was created inside a custom Function (or because an input "
                      "was returned as-is) and the autograd logic to handle view+inplace would "
                      "override the custom backward associated with the custom Function, "
                      "leading to incorrect gradients. This behavior is forbidden. You can fix "
                      "this by cloning the output of the custom Function.")
    if meta is _MULTI:
        return msg + (" This view is the output of a function that returns multiple views. "
                      "Such functions do not allow the output views to be modified inplace. "
                      "You should replace the inplace operation by an out-of-place one.")
    block = "inference_mode" if meta is _INFERENCE else "no_grad"
    assert meta is _NO_GRAD or meta is _INFERENCE
    return msg + (" Given that this use case is ambiguous and error-prone, it is forbidden. You "
                  "can clarify your code by moving both the view and the inplace either both "
                  f"inside the {block} block (if you don't want the inplace to be tracked) or "
                  "both outside (if you want the inplace to be tracked).")


def rebase_onto_base(view, inner, old_node=None, old_nr=0):
    """After ``inner`` (an op's node, or a custom Function's) wrote into ``view`` in place:
    the base's history becomes a CopySlices around ``inner`` and the view's an
    ``AsStridedBackward0`` of the base, as torch's ``rebase_history`` does."""
    base = view._base
    view.__class__ = Tensor   # its grad_fn is set below (the inner node's self edge is unused)
    node = CopySlices()
    node._op_node = inner
    node._base_data = base._data
    node._view_data = view._data
    node.next_functions = (base._edge(),) + tuple(inner.next_functions[1:])
    node._input_meta = [(base._data.shape, _dt_of(base))] + list(inner._input_meta[1:])
    # inner keeps its self edge (never traversed: CopySlices is the node in the graph), so
    # that its self formula runs and gives the gradient of the view's region
    base.grad_fn, base._output_nr = node, 0
    view.grad_fn, view._output_nr = _view_of_base(view, old_node, old_nr), 0
    if view._data.dtype.kind in "fc":
        view._watch()


def rebase_view(op, args, res):
    """Run an in-place op on a view whose base is in a graph, rewriting the base's history."""
    view = args[0]
    old_node, old_nr = view.grad_fn, view._output_nr
    original = None
    if any("self" in op.needs[n] for n in op.diff):
        original = Tensor._wrap(view._data.copy())
        original.grad_fn, original._output_nr = old_node, old_nr
        original._requires_grad = view._requires_grad
    write_result(view._data, res)
    view._vc.value += 1       # marks every view of the base stale, this one too:
    view.__class__ = Tensor   # its grad_fn is set below
    # the op's node, as if applied to the view out of place
    inner = _record(op, args, (view,), original)
    rebase_onto_base(view, inner, old_node, old_nr)
    return view
