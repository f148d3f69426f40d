"""torch's top-level forms of the ``nn`` kernels: ``torch.conv2d``, ``torch.dropout``,
``torch.layer_norm``, ``torch.lstm_cell`` …

They take ATen's signatures, which often differ from ``nn.functional``'s: ``dropout(input, p,
train)`` with every argument required, ``embedding(weight, indices, …)`` with the weight first,
``batch_norm(input, weight, bias, running_mean, running_var, …)``, reductions as numbers (0
``none``, 1 ``mean``, 2 ``sum``), and none of the checks or warnings that only
``nn.functional``'s Python adds. Where torch's ``nn.functional`` function *is* the top-level one
(``conv2d``, ``pdist``, ``pixel_shuffle`` …), so is Ember's. Loaded on first use.
"""

from __future__ import annotations

from . import _ops
from ._ops import nn as _N
from ._ops import nn_extra as _X
from ._ops.registry import check_inplace as _check_inplace
from ._tensor import Tensor
from .nn import _embedding_bag, _grid_sample
from .nn import _functional_extra as _FX
from .nn import functional as F

# reductions by number; where one is left out torch's Python binding passes 0 (none), not the
# schema's default, so the losses here default to 0 as well
_REDUCTIONS = ("none", "mean", "sum")

# the same functions as nn.functional's, as in torch
conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d = F.conv_transpose1d, F.conv_transpose2d
conv_transpose3d, conv_tbc = F.conv_transpose3d, F.conv_tbc
pixel_shuffle, pixel_unshuffle, channel_shuffle = (F.pixel_shuffle, F.pixel_unshuffle,
                                                   F.channel_shuffle)
cosine_similarity, pairwise_distance, pdist = F.cosine_similarity, F.pairwise_distance, F.pdist
avg_pool1d, adaptive_avg_pool1d, bilinear = F.avg_pool1d, F.adaptive_avg_pool1d, F.bilinear
celu_, selu_, threshold_, rrelu_ = F.celu_, F.selu_, F.threshold_, F.rrelu_
rms_norm = F.rms_norm
grid_sampler, grid_sampler_2d = _grid_sample.grid_sampler, _grid_sample.grid_sampler_2d
affine_grid_generator = _grid_sample.affine_grid_generator


# ============================================================================ dropout

def _check_p(p: float) -> None:
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)`` when
    ``train`` (``input`` itself otherwise).

    >>> import ember
    >>> ember.dropout(ember.ones(3), 0.5, False).tolist()
    [1.0, 1.0, 1.0]
    """
    _check_p(p)
    return F.dropout(input, p, train)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`dropout`."""
    _check_p(p)
    return F.dropout(input, p, train, True)


def _feature(input: Tensor, p: float, train: bool, inplace: bool) -> Tensor:
    _check_p(p)
    if train and p != 0 and input.numel() and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return F._feature_dropout(input, p, train, inplace)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero whole channels (dim 1 of ``(N, C, *)`` input) with probability ``p``."""
    return _feature(input, p, train, False)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`feature_dropout`."""
    return _feature(input, p, train, True)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout that keeps SELU's self-normalising mean and variance."""
    _check_p(p)
    return _FX._alpha_dropout(input, p, train, False, False)


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`alpha_dropout`."""
    _check_p(p)
    return _FX._alpha_dropout(input, p, train, True, False)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Alpha dropout of whole channels."""
    _check_p(p)
    return _FX._alpha_dropout(input, p, train, False, True)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`feature_alpha_dropout`."""
    _check_p(p)
    return _FX._alpha_dropout(input, p, train, True, True)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, generator=None) -> Tensor:
    """Randomized leaky ReLU (node ``RreluWithNoiseBackward0``); the slopes are drawn from
    ``generator`` in training."""
    return _FX._rrelu(input, lower, upper, training, False, generator)


# ============================================================================ embeddings

def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by ``indices``; a non-negative ``padding_idx`` gets no
    gradient (node ``EmbeddingBackward0``).

    >>> import ember
    >>> ember.embedding(ember.eye(3), ember.tensor([2, 0])).tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    return _N.embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                        scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def embedding_renorm_(input: Tensor, indices: Tensor, max_norm: float,
                      norm_type: float) -> Tensor:
    """Rescale, in place, the rows of ``input`` named in ``indices`` whose norm exceeds
    ``max_norm``; returns ``input``."""
    _check_inplace(input)
    _N.embedding_renorm(input, indices._data, max_norm, norm_type)
    return input


embedding_bag = _embedding_bag.aten_embedding_bag


# ============================================================================ normalisation

def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
               running_mean: Tensor | None, running_var: Tensor | None, training: bool,
               momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    """Batch normalisation over dim 1 (node ``NativeBatchNormBackward0``); updates the running
    stats in training."""
    return _N.batch_norm_unchecked(input, running_mean, running_var, weight, bias, training,
                                   momentum, eps)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05,
               cudnn_enable: bool = True) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims (node
    ``NativeLayerNormBackward0``)."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05,
               cudnn_enabled: bool = True) -> Tensor:
    """Normalise each of ``num_groups`` channel groups per sample (node
    ``NativeGroupNormBackward0``)."""
    return F.group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                  running_mean: Tensor | None, running_var: Tensor | None,
                  use_input_stats: bool, momentum: float, eps: float,
                  cudnn_enabled: bool) -> Tensor:
    """Normalise each channel of each sample (output node ``ViewBackward0``)."""
    return F._instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                            momentum, eps)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dim but ``dim``, shaped to broadcast against
    ``v`` (``dim=-1``: the norm of the whole tensor), as weight normalisation uses it."""
    if dim == -1:
        return _X.norm_all(v, float(pow))
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(
            v.size(0), *[1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(
            *[1] * (v.dim() - 1), v.size(-1))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


# ============================================================================ pooling

def max_pool1d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,
               ceil_mode: bool = False) -> Tensor:
    """Max over sliding windows of the last dim (empty ``stride``: the kernel size)."""
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,
                            ceil_mode: bool = False) -> tuple:
    """:func:`max_pool1d` and the index of each maximum."""
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,
               ceil_mode: bool = False) -> Tensor:
    """Max over sliding windows of the last two dims."""
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,
               ceil_mode: bool = False) -> Tensor:
    """Max over sliding windows of the last three dims."""
    return F.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)


def adaptive_max_pool1d(input: Tensor, output_size) -> tuple:
    """Max over adaptive windows of the last dim: ``(values, indices)``."""
    return F.adaptive_max_pool1d(input, output_size, True)


# ============================================================================ losses

def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None,
                                     reduction: int = 0) -> Tensor:
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably."""
    return _N._bce_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *,
           log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence of ``target`` from the log-probabilities ``input``."""
    return F._kl_div(input, target, _REDUCTIONS[reduction], log_target)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos - margin)`` where ``-1``."""
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_REDUCTIONS[reduction])


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``."""
    return F._margin_ranking_loss(input1, input2, target, margin, _REDUCTIONS[reduction])


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         reduction: int = 0) -> Tensor:
    """``x`` where ``target == 1``, ``max(0, margin - x)`` where ``target == -1``."""
    return F.hinge_embedding_loss(input, target, margin, reduction=_REDUCTIONS[reduction])


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2.0, eps: float = 1e-06,
                        swap: bool = False, reduction: int = 0) -> Tensor:
    """``max(0, d(a, p) - d(a, n) + margin)`` with pairwise p-norm distances."""
    return _FX._triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float,
                     reduction: int) -> Tensor:
    """Poisson negative log-likelihood of ``target`` (``input``: the rate, or its log)."""
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_REDUCTIONS[reduction])


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths,
             blank: int = 0, reduction: int = 0, zero_infinity: bool = False) -> Tensor:
    """Connectionist temporal classification loss of ``(T, N, C)`` log-probabilities."""
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _REDUCTIONS[reduction], zero_infinity)


# ============================================================================ recurrent cells

def _lin(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    """``x @ w.T + b`` as ATen's ``linear`` composes it (``addmm`` with a bias)."""
    return x.matmul(w.t()) if b is None else _ops.addmm(b, x, w.t())


def lstm_step(igates: Tensor, hx, w_hh: Tensor, b_hh: Tensor | None,
              w_hr: Tensor | None = None) -> tuple:
    """ATen's ``LSTMCell`` from the input's gates ``igates`` (``x W_ih^T + b_ih``, which
    torch's CPU layers compute for a whole sequence at once): ``(h', c')``."""
    h, c = hx
    i, f, g, o = (_lin(h, w_hh, b_hh) + igates).unsafe_chunk(4, 1)
    cy = f.sigmoid() * c + i.sigmoid() * g.tanh()
    hy = o.sigmoid() * cy.tanh()
    return (hy if w_hr is None else hy.matmul(w_hr.t())), cy


def gru_step(igates: Tensor, hx: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """ATen's ``GRUCell`` from the input's gates: ``h' = (h - n) * z + n``, in place on the
    hidden gates' chunks as ATen runs it (the gates' sigmoids see the chunks' strided rows,
    which decide torch's split between vector and scalar math)."""
    ir, iz, in_ = igates.unsafe_chunk(3, 1)
    hr, hz, hn = _lin(hx, w_hh, b_hh).unsafe_chunk(3, 1)
    r = hr.add_(ir).sigmoid_()
    z = hz.add_(iz).sigmoid_()
    n = in_.add(hn.mul_(r)).tanh_()
    return (hx - n).mul_(z).add_(n)


def rnn_step(igates: Tensor, hx: Tensor, w_hh: Tensor, b_hh: Tensor | None,
             relu: bool = False) -> Tensor:
    """ATen's ``SimpleCell`` from the input's part: ``act(h W_hh^T + b_hh + igates)``."""
    pre = _lin(hx, w_hh, b_hh) + igates
    return pre.relu() if relu else pre.tanh()


def _check_cell(input: Tensor, hxs, w_ih: Tensor, w_hh: Tensor) -> None:
    """ATen's ``check_rnn_cell_forward_input`` / ``_hidden`` checks of a cell's arguments."""
    if input.shape[1] != w_ih.shape[1]:
        raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected "
                           f"{w_ih.shape[1]}")
    for label, h in enumerate(hxs):
        if input.shape[0] != h.shape[0]:
            raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{label} "
                               f"batch size {h.shape[0]}")
        if h.shape[1] != w_hh.shape[1]:
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.shape[1]}, "
                               f"expected {w_hh.shape[1]}")


def lstm_cell(input: Tensor, hx, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
              b_hh: Tensor | None = None) -> tuple:
    """One LSTM step from ``hx = (h, c)``: ``(h', c')`` (gates in torch's order: input,
    forget, cell, output)."""
    _check_cell(input, hx, w_ih, w_hh)
    return lstm_step(_lin(input, w_ih, b_ih), hx, w_hh, b_hh)


def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,
             b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One GRU step: ``h' = (h - n) * z + n`` (gates: reset, update, new)."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return gru_step(_lin(input, w_ih, b_ih), hx, w_hh, b_hh)


def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,
                  b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One Elman RNN step: ``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return rnn_step(_lin(input, w_ih, b_ih), hx, w_hh, b_hh)


def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,
                  b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One Elman RNN step with ReLU: ``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return rnn_step(_lin(input, w_ih, b_ih), hx, w_hh, b_hh, relu=True)
