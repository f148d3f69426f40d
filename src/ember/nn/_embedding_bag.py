"""``embedding_bag``: sums, means or maxima of bags of embedding rows, without materialising
the rows (node ``EmbeddingBagBackward0``, as torch's)."""

from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype as D
from .._ops.registry import NONE, op
from .._tensor import Tensor

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _counts(bag, nbags):
    return np.bincount(bag[bag >= 0], minlength=nbags)


def _winners(weight, indices, bag, nbags):
    """For mode max: the index into ``indices`` of each (bag, column)'s maximum (-1: empty):
    torch's loop in order, the first element of a bag, then each strictly greater one."""
    keep = np.nonzero(bag >= 0)[0]
    best = np.full((nbags, weight.shape[1]), -1, dtype=np.int64)
    val = np.zeros((nbags, weight.shape[1]), dtype=weight.dtype)
    for i in keep:
        b, row = bag[i], weight[indices[i]]
        better = (row > val[b]) | (best[b] < 0)
        val[b] = np.where(better, row, val[b])
        best[b] = np.where(better, i, best[b])
    return best


def _bag_sums(weight, per_sample_weights, indices, bag, nbags, fused):
    """The rows of each bag added in order, in float32 (float64 for double), as torch's
    ``index_select_add``/``index_select_scale_add`` do; ``fused``: FBGEMM's kernel, whose
    weighted rows are multiply-adds (its slow path multiplies, then adds)."""
    acc = np.float64 if weight.dtype == np.float64 else np.float32
    keep = np.nonzero(bag >= 0)[0]
    out = np.zeros((nbags, weight.shape[1]), acc)
    rows = weight[indices[keep]].astype(acc)
    if per_sample_weights is None:
        np.add.at(out, bag[keep], rows)
        return out
    scale = per_sample_weights[keep].astype(acc)[:, None]
    if not fused:
        np.add.at(out, bag[keep], rows * scale)
        return out
    from .._ops import _exact
    b = bag[keep]
    # each element's rank in its bag: the k-th elements of all bags are one multiply-add
    first = np.searchsorted(b, b, side="left") if np.all(b[1:] >= b[:-1]) else None
    if first is None:
        for j, bb in enumerate(b):
            out[bb] = _exact.fma(rows[j], np.broadcast_to(scale[j], rows[j].shape), out[bb])
        return out
    rank = np.arange(b.size) - first
    for k in range(int(rank.max()) + 1 if b.size else 0):
        sel = rank == k
        out[b[sel]] = _exact.fma(rows[sel], np.broadcast_to(scale[sel], rows[sel].shape),
                                 out[b[sel]])
    return out


def _round_to(out, dtype, fused):
    """The float32 sums stored in the weight's type: FBGEMM rounds bfloat16 halves away from
    zero (``(bits + 0x8000) >> 16``), the rest round to nearest even."""
    if out.dtype == dtype:
        return out
    if fused and dtype.name == "bfloat16":
        bits = out.view(np.uint32)
        finite = np.isfinite(out)
        up = ((bits + np.uint32(0x8000)) & np.uint32(0xFFFF0000)).view(np.float32)
        return np.where(finite, up, out).astype(dtype)
    return out.astype(dtype)


def _weight_grad_sparse(grad, weight_shape, per_sample_weights, indices, bag, mode, bag_size):
    """torch's ``_embedding_bag_sparse_backward``: each index's bag gradient row (times
    ``1 / bag_size`` for mean, times its weight for ``per_sample_weights``) as one entry of
    an uncoalesced sparse tensor, in the indices' order, padded indices dropped."""
    from ..sparse._sparse import _make
    keep = np.nonzero(bag >= 0)[0]
    g = grad._data[bag[keep]]
    if mode == 1:
        with np.errstate(divide="ignore"):      # (an empty bag: no row reads it)
            inv = np.ones((), g.dtype) / bag_size.astype(g.dtype)
        g = g * inv[bag[keep]][:, None]
    if per_sample_weights is not None:
        g = g * per_sample_weights._data[keep][:, None].astype(g.dtype, copy=False)
    return _make(indices[keep][None], Tensor._wrap(np.ascontiguousarray(g)), weight_shape,
                 keep.size < 2)


def _weight_grad(grad, weight, weight_shape, per_sample_weights, indices, bag, nbags, mode,
                 bag_size, rd, sparse):
    if sparse:
        return _weight_grad_sparse(grad, weight_shape, per_sample_weights, indices, bag, mode,
                                   bag_size)
    v, d = weight_shape
    if mode == 2:
        best = _winners(weight._data, indices, bag, nbags)
        b, c = np.nonzero(best >= 0)
        flat = Tensor._wrap(indices[best[b, c]] * d + c)
        g = grad.reshape(-1).index_select(0, Tensor._wrap(b * d + c))
        return grad.new_zeros(v * d).index_add(0, flat, g).view(v, d)
    keep = np.nonzero(bag >= 0)[0]
    g = grad.index_select(0, Tensor._wrap(bag[keep]))
    if mode == 1:
        counts = np.maximum(bag_size, 1)[bag[keep]]
        g = g / Tensor._wrap(counts.astype(grad._data.dtype)).unsqueeze(1)
    if per_sample_weights is not None:
        g = g * per_sample_weights.index_select(0, Tensor._wrap(keep)).unsqueeze(1)
    return grad.new_zeros(weight_shape).index_add(0, Tensor._wrap(indices[keep]), g)


def _weight_grad_raw(grad, weight, weight_shape, per_sample_weights, indices, bag, nbags, mode,
                     bag_size, rd, sparse):
    """torch's ``_embedding_bag_dense_backward_cpu``, step by step: for sum and mean, the
    indices sorted by torch's (unstable) sort, each unique index's rows added in that order,
    each ``axpy(scale, grad_row)`` a multiply-add (MKL's; in the reduced types a loop in the
    type's arithmetic); for max, ``index_add_`` of each column's
    winners in bag order. (None for a sparse gradient: the general path builds it.)"""
    if sparse:
        return None
    rd = np.dtype(rd)
    acc = np.float64 if grad.dtype == np.float64 else np.float32
    g = grad.astype(acc)
    out = np.zeros(weight_shape, acc)
    if mode == 2:
        best = _winners(weight, indices, bag, nbags)
        b, c = np.nonzero(best >= 0)
        d = weight_shape[1]
        flat = out.reshape(-1)
        _ordered_fma(flat, indices[best[b, c]] * d + c, np.ones(b.size, acc), g[b, c], rd)
        return flat.reshape(weight_shape).astype(grad.dtype)
    from .._ops.sorting import _sort_indices
    perm = _sort_indices(Tensor._wrap(indices), 0, False, False)
    j = perm[bag[perm] >= 0]
    src = bag[j]
    scale = np.ones(j.size)
    if per_sample_weights is not None:
        scale = per_sample_weights[j].astype(np.float64)
    if mode == 1:
        bs = bag_size[src]
        scale = np.where(bs != 0, scale / np.where(bs != 0, bs, 1), scale)
    scale = scale.astype(rd).astype(acc)        # ``(scalar_t)scale``
    _ordered_fma(out, indices[j], scale, g[src], rd)
    return out.astype(grad.dtype)


def _ordered_fma(out, targets, scale, rows, rd):
    """``out[t] = fma(scale, row, out[t])`` for each (target, scale, row) in the given order;
    in a reduced type ``rd`` (float16, bfloat16) its own arithmetic instead, each product
    and each sum rounded to it (``cpublas::axpy``'s plain loop)."""
    from .._ops import _exact
    if not targets.size:
        return
    order = np.argsort(targets, kind="stable")
    ts = targets[order]
    first = np.searchsorted(ts, ts, side="left")
    rank = np.empty(ts.size, np.int64)
    rank[order] = np.arange(ts.size) - first
    reduced = rd.itemsize < 4
    for k in range(int(rank.max()) + 1):
        sel = np.nonzero(rank == k)[0]
        t = targets[sel]
        r = rows[sel]
        a = np.broadcast_to(scale[sel].reshape((-1,) + (1,) * (r.ndim - 1)), r.shape)
        if reduced:     # the type's own arithmetic: the product rounded, then the sum
            prod = (a * r).astype(rd).astype(out.dtype)
            out[t] = (out[t] + prod).astype(rd).astype(out.dtype)
        else:
            out[t] = _exact.fma(a.astype(r.dtype), r, out[t])


def _psw_grad(grad, weight, per_sample_weights_shape, indices, bag):
    keep = np.nonzero(bag >= 0)[0]
    k = Tensor._wrap(keep)
    dots = (grad.index_select(0, Tensor._wrap(bag[keep]))
            * weight.index_select(0, Tensor._wrap(indices[keep]))).sum(1)
    return grad.new_zeros(per_sample_weights_shape).index_add(0, k, dots)


def _psw_grad_raw(grad, weight, per_sample_weights_shape, indices, bag):
    """torch's ``_embedding_bag_per_sample_weights_backward_cpu``: each sample's dot product
    of its bag's gradient and its row (the reduced types sum in float32 in order; float32
    and float64 call BLAS's dot, whose order is MKL's: not reproduced)."""
    keep = np.nonzero(bag >= 0)[0]
    out = np.zeros(per_sample_weights_shape, grad.dtype)
    if not keep.size:
        return out
    if grad.dtype.itemsize < 4:
        g = grad[bag[keep]].astype(np.float32)
        w = weight[indices[keep]].astype(np.float32)
        acc = np.zeros(keep.size, np.float32)
        for k in range(g.shape[1]):
            acc += g[:, k] * w[:, k]
        out[keep] = acc.astype(grad.dtype)
    else:
        out[keep] = (grad[bag[keep]] * weight[indices[keep]].astype(grad.dtype)).sum(1)
    return out


@op("EmbeddingBagBackward0", name="_embedding_bag", method=False, function=False,
    promote=NONE, tensors=("weight", "per_sample_weights"),
    weight=_weight_grad,
    raw={"weight": _weight_grad_raw,
         "per_sample_weights": lambda grad, weight, per_sample_weights_shape, indices, bag:
             _psw_grad_raw(grad, weight, per_sample_weights_shape, indices, bag)},
    per_sample_weights=lambda grad, weight, per_sample_weights_shape, indices, bag:
        _psw_grad(grad, weight, per_sample_weights_shape, indices, bag))
def _embedding_bag(weight, per_sample_weights, indices, bag, nbags, mode, fused, bag_size, rd,
                   sparse=False):
    if mode == 2:
        out = np.zeros((nbags, weight.shape[1]), dtype=weight.dtype)
        best = _winners(weight, indices, bag, nbags)
        b, c = np.nonzero(best >= 0)
        out[b, c] = weight[indices[best[b, c]], c]
        return out
    out = _round_to(_bag_sums(weight, per_sample_weights, indices, bag, nbags, fused),
                    weight.dtype, fused)
    if mode == 1:       # torch's apply_bag_size: a division in the type
        div = np.maximum(bag_size, 1).astype(np.float32 if out.dtype.itemsize < 4 else out.dtype)
        return (out.astype(div.dtype) / div[:, None]).astype(out.dtype)
    return out


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """Reduce (``sum``/``mean``/``max``) the embedding rows of each bag of indices: the rows of
    a 2-D ``input``, or the runs of a 1-D one that start at ``offsets``."""
    if weight.dtype is D.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         "is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {_torch_type(offsets)}")
        from .._factories import arange
        offsets = arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        from .._ops.nn import embedding
        embedding(input, weight, None, max_norm, norm_type)     # renormalises the rows used
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. "
                                  "per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    return aten_embedding_bag(weight, input, offsets, scale_grad_by_freq, _MODES[mode],
                              sparse, per_sample_weights, include_last_offset, padding_idx)[0]


def aten_embedding_bag(weight: Tensor, indices: Tensor, offsets: Tensor,
                       scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False,
                       per_sample_weights: Tensor | None = None,
                       include_last_offset: bool = False, padding_idx: int | None = None):
    """ATen's ``embedding_bag`` (both overloads): its checks in torch's order, then
    ``(output, offset2bag, bag_size, max_indices)``, the auxiliary outputs in the indices'
    and offsets' common integer type."""
    from .._errors import check_failed
    from .._ops.nn import check_scalar_types
    if offsets.ndim != 1:
        raise RuntimeError(f"offsets has to be a 1D Tensor, but got Tensor of dimension "
                           f"{offsets.ndim}")
    if weight.ndim != 2:
        raise RuntimeError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                           f"{weight.ndim}")
    for t in (indices, offsets):
        check_scalar_types(t, 1, "indices", (D.int64, D.int32), "embedding_bag")
    check_scalar_types(weight, 1, "weight", (D.float16, D.bfloat16, D.float32, D.float64),
                       "embedding_bag")
    psw = per_sample_weights
    if psw is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with "
                               "mode='sum'")
        if psw.numel() != indices.numel():
            raise RuntimeError(check_failed(
                "per_sample_weights.value().numel() == indices.numel()"))
    n = weight.shape[0]
    if padding_idx is not None:
        if not -n <= padding_idx < n:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-n} "
                               f"through {n - 1}, but got {padding_idx}")
        padding_idx = padding_idx % n
    offs = offsets._data.astype(np.int64)
    if offs.size and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {int(offs[0])}\n"
                           f"[ {offsets.type()}{{}} ]")
    if offs.size and offs[-1] > indices.numel():
        raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                           f"{indices.numel()} but got offsets[-1] of {int(offs[-1])}")
    if psw is not None and psw.dtype is not weight.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as "
                           f"tensor for argument #1 'per_sample_weights'; but type "
                           f"{weight.type()} does not equal {psw.type()} (while checking "
                           "arguments for embedding_bag)")
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    out = embedding_bag_outputs(weight, indices.reshape(-1), offs, psw, include_last_offset,
                                padding_idx, mode, sparse)
    it = D.promote_types(indices.dtype, offsets.dtype)
    return out[0], *(a if a.dtype is it else a.to(it) for a in out[1:])


def embedding_bag_outputs(weight: Tensor, input: Tensor, offs, per_sample_weights,
                          include_last_offset: bool, padding_idx, mode: int,
                          sparse: bool = False) -> tuple:
    """ATen's ``_embedding_bag`` on 1-D ``input`` and integer ``offs``: the bags' reductions
    and its auxiliary outputs (``offset2bag``, ``bag_size``, ``max_indices``)."""
    idx = input._data.astype(np.int64)
    n = idx.size
    if offs.size and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {int(offs[0])}\n"
                           "[ torch.LongTensor{} ]")
    nbags = offs.size - 1 if include_last_offset else offs.size
    starts = np.zeros(n + 1, np.int64)      # ATen's make_offset2bag: a cumsum of the starts
    np.add.at(starts, offs[:nbags].clip(max=n), 1)
    starts[0] -= 1
    offset2bag = np.cumsum(starts)[:n]
    pad = None
    if padding_idx is not None:
        pad = padding_idx if padding_idx >= 0 else weight.shape[0] + padding_idx
    # FBGEMM's path (sum and mean of float32/float16/bfloat16 rows, no padding_idx) reads
    # the bags between consecutive offsets; the other paths add each index into its
    # offset2bag bag (with include_last_offset, indices past the last offset join the last)
    fast = mode != 2 and weight.dtype in (D.float32, D.float16, D.bfloat16) \
        and weight.stride(1) == 1 and pad is None \
        and (per_sample_weights is None or per_sample_weights.stride(0) == 1)
    bad = np.nonzero((idx < 0) | (idx >= weight.shape[0]))[0]
    if bad.size:
        i, v, rows = int(bad[0]), int(idx[bad[0]]), weight.shape[0]
        raise RuntimeError(f"Index {i} of input takes value {v} which is not in the valid "
                           f"range [0, {rows})" if fast else "embedding_bag: Expected idx >= "
                           f"0 && idx < num_embeddings but found idx to be {v}")
    if fast:
        bounds = np.append(offs[:nbags], n) if not include_last_offset else offs
        bag = np.repeat(np.arange(nbags), np.diff(bounds).clip(min=0))
        bag = np.concatenate([bag, np.full(n - bag.size, -1, np.int64)])[:n]
    else:
        bag = offset2bag.copy() if nbags else np.full(n, -1, np.int64)
        if pad is not None:
            bag[idx == pad] = -1
    # make_bag_size: the distances between offsets, the last bag up to the end of the
    # indices; padded indices do not count
    bag_size = np.zeros(nbags, np.int64)
    if nbags:
        bag_size[:-1] = np.diff(offs[:nbags])
        bag_size[-1] = n - offs[nbags - 1]
        if pad is not None:
            bag_size -= np.bincount(offset2bag[idx == pad], minlength=nbags)[:nbags]
    out = _embedding_bag(weight, per_sample_weights, idx, bag, nbags, mode, fast, bag_size,
                         weight._data.dtype.name, bool(sparse))
    if mode == 0:       # ATen's sum fills only offset2bag, and not on its fast path
        from ..autograd.grad_mode import is_grad_enabled
        grad = is_grad_enabled() and (weight.requires_grad or per_sample_weights is not None
                                      and per_sample_weights.requires_grad)
        zeros = np.zeros(nbags if grad else offs.size, np.int64)    # (sized as the offsets)
        return out, *(Tensor._wrap(a) for a in (offset2bag[:0] if fast else offset2bag, zeros,
                                                zeros.copy()))
    if mode == 1:
        max_indices = bag_size.copy()
    else:
        best = _winners(weight._data, idx, bag, nbags)
        max_indices = np.where(best >= 0, idx[best.clip(min=0)], 0)
    return out, *(Tensor._wrap(a) for a in (offset2bag, bag_size, max_indices))


def _torch_type(t) -> str:
    return "<class 'torch.Tensor'>" if isinstance(t, Tensor) else str(type(t))
