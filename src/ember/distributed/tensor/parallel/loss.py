"""``torch.distributed.tensor.parallel.loss``: ``loss_parallel``, cross entropy on logits
whose class dimension stays sharded (no rank gathers the whole vocabulary)."""

from __future__ import annotations

import contextlib

import numpy as _np

__all__ = ["loss_parallel"]


@contextlib.contextmanager
def loss_parallel():
    """Within this block, ``F.cross_entropy`` of a DTensor sharded on its class dimension
    (dim 1, or 0 for one sample) computes the log-softmax with an all-reduce of the maxima
    and of the sums of exponentials, and gives a replicated DTensor loss; its backward
    leaves the logits' gradient sharded as the logits are."""
    from .._ops import _LossParallel
    _LossParallel.depth += 1
    try:
        yield
    finally:
        _LossParallel.depth -= 1


def _sharded_cross_entropy(x, target, cdim: int, bound: dict):
    from .... import _tensor as _t
    from ...tensor import _redistribute as R
    from ...tensor._api import DTensor, DTensorSpec
    from ...tensor.placement_types import Partial, Replicate
    if bound.get("weight") is not None:
        raise NotImplementedError("loss_parallel: cross_entropy with class weights")
    if x.ndim > 2:
        raise ValueError("loss_parallel expects logits of shape (N, C) or (C,), sharded on "
                         "the class dimension")
    ignore_index = bound.get("ignore_index", -100)
    reduction = bound.get("reduction", "mean")
    smoothing = float(bound.get("label_smoothing", 0.0))
    mesh = x.device_mesh
    split = [i for i, p in enumerate(x.placements) if p.is_shard(cdim)]
    want = tuple(p if i in split else Replicate() for i, p in enumerate(x.placements))
    xl = R.redistribute_local(x._local_tensor, x._spec.shape, mesh, x.placements, want)
    rep = (Replicate(),) * mesh.ndim

    def summed(t, op="sum"):
        """The partial sums of ``t`` over the class-sharded mesh dims (differentiable)."""
        src = tuple(Partial(op) if i in split else Replicate() for i in range(mesh.ndim))
        return R.redistribute_local(t, tuple(t.shape), mesh, src, rep)

    def shared(t):
        for i in split:
            if t.requires_grad:
                t = R.grad_all_reduce(t, mesh, i)
        return t

    tgt = target._local_tensor if isinstance(target, DTensor) else target
    tgt_arr = tgt._data.astype(_np.int64)
    n_classes = x._spec.shape[cdim]
    start, stop = 0, n_classes
    for i in split:
        a, z = R.chunk_bounds(stop - start, mesh.size(i), mesh.get_local_rank(i))
        start, stop = start + a, start + z
    xmax = summed(_t.Tensor._wrap(xl._data.max(axis=cdim, keepdims=True) if xl._data.size
                                  else _np.full(xl._data.shape[:cdim] + (1,) +
                                                xl._data.shape[cdim + 1:], -_np.inf,
                                                xl._data.dtype)), "max").detach()
    shifted = xl - xmax
    lse = shared(summed(shifted.exp().sum(cdim, keepdim=True)).log())
    logp = shifted - lse
    valid = tgt_arr != ignore_index
    inside = (tgt_arr >= start) & (tgt_arr < stop) & valid
    onehot = _np.zeros(xl._data.shape, xl._data.dtype)
    if x.ndim == 2:
        rows = _np.nonzero(inside)[0]
        onehot[rows, tgt_arr[rows] - start] = 1
    elif inside:
        onehot[int(tgt_arr) - start] = 1
    picked = summed((logp * _t.Tensor._wrap(onehot)).sum(cdim))
    loss = -picked
    if smoothing:
        smooth = -summed(logp.sum(cdim)) / n_classes
        loss = loss * (1 - smoothing) + smooth * smoothing
    mask = _t.Tensor._wrap(valid.astype(xl._data.dtype))
    loss = loss * mask
    if reduction == "mean":
        loss = loss.sum() / mask.sum()
    elif reduction == "sum":
        loss = loss.sum()
    return DTensor._make(loss, DTensorSpec(mesh, rep, tuple(loss.shape)))


del annotations
