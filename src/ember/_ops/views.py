"""In-place ops on views of tensors in a graph: torch's CopySlices.

When an in-place op writes through a view ``v`` of a base ``b`` that is part of a graph, the
base's history is rewritten: ``b.grad_fn`` becomes a ``CopySlices`` node that takes the
base's gradient, runs the op's backward on the region the view covers, and writes the
result back into that region; ``v.grad_fn`` becomes an ``AsStridedBackward0`` view of the
new base history.
"""

from __future__ import annotations

from .._device import xp
from .._tensor import Tensor
from ..autograd.graph import Node
from .registry import _dt_of, _record


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
    return xp.ndarray(view.shape, arr.dtype, buffer=arr.base, offset=start + off,
                      strides=view.strides)


def _base_layout_copy(grad, base_data):
    g = _like_base(base_data)
    g[...] = grad
    return g


class CopySlices(Node):
    """Gradient of a base after an in-place op on one of its views."""

    __slots__ = ("_op_node", "_base_data", "_view_data")
    _name = "CopySlices"

    def apply(self, grads):
        grad = grads[0]
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

    def _release(self):
        self._op_node._release()


class AsStridedBackward0(Node):
    """The history of a view whose base was rewritten by CopySlices."""

    __slots__ = ("_base_data", "_view_data")
    _name = "AsStridedBackward0"

    def apply(self, grads):
        g = _like_base(self._base_data)
        _region(g, self._base_data, self._view_data)[...] += grads[0]._data
        return [Tensor._wrap(g)]


def rebase_view(op, args, res):
    """Run an in-place op on a view whose base is in a graph, rewriting the base's history."""
    view = args[0]
    base = view._base
    original = None
    if any("self" in op.needs[n] for n in op.diff):
        original = Tensor._wrap(view._data.copy())
        original.grad_fn, original._output_nr = view.grad_fn, view._output_nr
        original._requires_grad = view._requires_grad
    data = view._data
    xp.copyto(data, res, casting="unsafe")
    view._vc.value += 1
    # the op's node, as if applied to the view out of place
    inner = _record(op, args, (view,), original)
    node = CopySlices()
    node._op_node = inner
    node._base_data = base._data
    node._view_data = view._data
    node.next_functions = (base._edge(),) + inner.next_functions[1:]
    node._input_meta = [(base._data.shape, _dt_of(base))] + list(inner._input_meta[1:])
    # inner keeps its self edge (never traversed: CopySlices is the node in the graph), so
    # that its self formula runs and gives the gradient of the view's region
    base.grad_fn, base._output_nr = node, 0
    vnode = AsStridedBackward0()
    vnode._base_data, vnode._view_data = base._data, view._data
    vnode.next_functions = ((node, 0),)
    vnode._input_meta = [(base._data.shape, _dt_of(base))]
    view.grad_fn, view._output_nr = vnode, 0
    return view
