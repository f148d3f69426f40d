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
    """For mode max: the index into ``indices`` of each (bag, column)'s maximum (-1: empty)."""
    keep = np.nonzero(bag >= 0)[0]
    best = np.full((nbags, weight.shape[1]), -1, dtype=np.int64)
    val = np.full((nbags, weight.shape[1]), -np.inf, dtype=weight.dtype)
    for i in keep:
        b, row = bag[i], weight[indices[i]]
        better = row > val[b]
        val[b] = np.where(better, row, val[b])
        best[b] = np.where(better, i, best[b])
    return best


def _weight_grad(grad, weight, weight_shape, per_sample_weights, indices, bag, nbags, mode):
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
        counts = np.maximum(_counts(bag, nbags), 1)[bag[keep]]
        g = g / Tensor._wrap(counts.astype(grad._data.dtype)).unsqueeze(1)
    if per_sample_weights is not None:
        g = g * per_sample_weights.index_select(0, Tensor._wrap(keep)).unsqueeze(1)
    return grad.new_zeros(weight_shape).index_add(0, Tensor._wrap(indices[keep]), g)


def _psw_grad(grad, weight, per_sample_weights_shape, indices, bag):
    keep = np.nonzero(bag >= 0)[0]
    k = Tensor._wrap(keep)
    dots = (grad.index_select(0, Tensor._wrap(bag[keep]))
            * weight.index_select(0, Tensor._wrap(indices[keep]))).sum(1)
    return grad.new_zeros(per_sample_weights_shape).index_add(0, k, dots)


@op("EmbeddingBagBackward0", name="_embedding_bag", method=False, function=False,
    promote=NONE, tensors=("weight", "per_sample_weights"),
    weight=_weight_grad,
    per_sample_weights=lambda grad, weight, per_sample_weights_shape, indices, bag:
        _psw_grad(grad, weight, per_sample_weights_shape, indices, bag))
def _embedding_bag(weight, per_sample_weights, indices, bag, nbags, mode):
    keep = bag >= 0
    out = np.zeros((nbags, weight.shape[1]), dtype=weight.dtype)
    if mode == 2:
        best = _winners(weight, indices, bag, nbags)
        b, c = np.nonzero(best >= 0)
        out[b, c] = weight[indices[best[b, c]], c]
        return out
    rows = weight[indices[keep]]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[keep][:, None]
    np.add.at(out, bag[keep], rows)
    if mode == 1:
        out /= np.maximum(_counts(bag, nbags), 1)[:, None].astype(out.dtype)
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
        offs = np.arange(0, input.numel(), input.size(1) or 1)[:input.size(0)]
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        offs = offsets._data.astype(np.int64)
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
    return embedding_bag_outputs(weight, input, offs, per_sample_weights, include_last_offset,
                                 padding_idx, _MODES[mode])[0]


def embedding_bag_outputs(weight: Tensor, input: Tensor, offs, per_sample_weights,
                          include_last_offset: bool, padding_idx, mode: int) -> tuple:
    """ATen's ``_embedding_bag`` on 1-D ``input`` and integer ``offs``: the bags' reductions
    and its auxiliary outputs (``offset2bag``, ``bag_size``, ``max_indices``)."""
    idx = input._data.astype(np.int64)
    n = idx.size
    if offs.size and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {int(offs[0])}\n"
                           "[ torch.LongTensor{} ]")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    nbags = offs.size - 1 if include_last_offset else offs.size
    bounds = np.append(offs[:nbags], n) if not include_last_offset else offs
    bag = np.repeat(np.arange(nbags), np.diff(bounds).clip(min=0))
    bag = np.concatenate([bag, np.full(n - bag.size, -1, np.int64)])[:n]
    if padding_idx is not None:
        pad = padding_idx if padding_idx >= 0 else weight.shape[0] + padding_idx
        bag = np.where(idx == pad, -1, bag)
    out = _embedding_bag(weight, per_sample_weights, idx, bag, nbags, mode)
    starts = np.zeros(n + 1, np.int64)      # ATen's make_offset2bag: a cumsum of the starts
    np.add.at(starts, offs[:nbags].clip(max=n), 1)
    starts[0] -= 1
    offset2bag = np.cumsum(starts)[:n]
    if mode == 0:       # ATen's sum fills only offset2bag, and not on its fast path
        fast = (weight.dtype in (D.float32, D.float16, D.bfloat16) and weight.stride(1) == 1
                and padding_idx is None)
        zeros = np.zeros(nbags, np.int64)
        return out, *(Tensor._wrap(a) for a in (offset2bag[:0] if fast else offset2bag, zeros,
                                                zeros.copy()))
    bag_size = _counts(bag, nbags).astype(np.int64)
    if mode == 1:
        max_indices = bag_size.copy()
    else:
        best = _winners(weight._data, idx, bag, nbags)
        max_indices = np.where(best >= 0, idx[best.clip(min=0)], 0)
    return out, *(Tensor._wrap(a) for a in (offset2bag, bag_size, max_indices))


def _torch_type(t) -> str:
    return "<class 'torch.Tensor'>" if isinstance(t, Tensor) else str(type(t))
