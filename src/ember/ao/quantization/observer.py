"""Observers: modules that watch the tensors passing through them and compute quantization
parameters (scale, zero point) from what they saw, as ``torch.ao.quantization.observer``.

The parameters follow torch's formulas in float32 tensor arithmetic: affine
``scale = (max(max, 0) - min(min, 0)) / (qmax - qmin)`` floored at ``eps`` and
``zero_point = qmin - round(min / scale)``; symmetric ``scale = max(-min, max) / ((qmax - qmin)
/ 2)`` with zero point 0 (128 for quint8).
"""

from __future__ import annotations

import functools as _functools
import sys as _sys_
import warnings

from ... import nn
from ._tensor import per_channel_affine as _per_channel_affine
from ._tensor import per_channel_affine_float_qparams as _per_channel_affine_float_qparams
from ._tensor import per_channel_symmetric as _per_channel_symmetric
from ._tensor import per_tensor_affine as _per_tensor_affine
from ._tensor import per_tensor_symmetric as _per_tensor_symmetric

torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

__all__ = ["ObserverBase", "UniformQuantizationObserverBase", "MinMaxObserver",
           "MovingAverageMinMaxObserver", "PerChannelMinMaxObserver",
           "MovingAveragePerChannelMinMaxObserver", "HistogramObserver", "PlaceholderObserver",
           "NoopObserver", "RecordingObserver", "default_observer", "default_weight_observer",
           "default_per_channel_weight_observer", "default_dynamic_quant_observer",
           "default_placeholder_observer", "default_float_qparams_observer",
           "default_histogram_observer", "default_debug_observer",
           "weight_observer_range_neg_127_to_127",
           "per_channel_weight_observer_range_neg_127_to_127", "get_observer_state_dict",
           "load_observer_state_dict"]

_EPS = 1.1920928955078125e-07       # torch.finfo(torch.float32).eps


class _PartialWrapper:
    """A constructor with bound arguments (``Observer.with_args(...)``), printed as torch's."""

    def __init__(self, p):
        self.p = p
        self.callable_args = {}

    def __call__(self, *args, **keywords):
        for name, make in self.callable_args.items():
            if name not in keywords:
                keywords = {**keywords, name: make()}
        return self.p(*args, **keywords)

    def __repr__(self):
        return repr(self.p) + repr(self.callable_args)

    def with_args(self, **kwargs):
        return _with_args(self, **kwargs)

    def with_callable_args(self, **kwargs):
        result = _PartialWrapper(self.p)
        result.callable_args = {**self.callable_args, **kwargs}
        return result


def _with_args(cls_or_self, **kwargs):
    """A factory for ``cls_or_self`` with ``kwargs`` bound (``MinMaxObserver.with_args(…)``)."""
    r = _PartialWrapper(_functools.partial(cls_or_self, **kwargs))
    return r


def _with_callable_args(cls_or_self, **kwargs):
    r = _PartialWrapper(_functools.partial(cls_or_self))
    return r.with_callable_args(**kwargs)


def _is_per_tensor(qscheme) -> bool:
    return qscheme is _per_tensor_affine or qscheme is _per_tensor_symmetric


def _is_per_channel(qscheme) -> bool:
    return qscheme in (_per_channel_affine, _per_channel_affine_float_qparams,
                       _per_channel_symmetric)


def calculate_qmin_qmax(quant_min, quant_max, has_customized_qrange: bool, dtype,
                        reduce_range: bool) -> tuple[int, int]:
    """The quantized range of ``dtype`` (or the custom one), halved for ``reduce_range``."""
    if has_customized_qrange:
        if dtype in (torch.qint32, torch.int32):
            lo, hi = 0, 2 ** 32 - 1
        else:
            lo, hi = 0, 255
        if quant_min is not None and quant_max is not None:
            lo, hi = quant_min, quant_max
        n = hi - lo + 1
        if dtype in (torch.qint8, torch.int8) and not 0 < n <= 256:
            raise AssertionError("quantization range should be positive and not exceed the "
                                 "maximum bit range (=256).")
        if dtype in (torch.qint32, torch.int32) and not 0 < n <= 2 ** 32:
            raise AssertionError("quantization range should be positive and not exceed the "
                                 "maximum bit range (=4294967296).")
        if reduce_range:
            quant_min, quant_max = quant_min // 2, quant_max // 2
        return quant_min, quant_max
    if dtype in (torch.qint8, torch.int8):
        return (-64, 63) if reduce_range else (-128, 127)
    if dtype in (torch.quint8, torch.uint8):
        return (0, 127) if reduce_range else (0, 255)
    if dtype in (torch.qint32, torch.int32):
        return -1 * (2 ** 31), 2 ** 31 - 1
    if dtype is torch.uint16:
        return 0, 2 ** 16 - 1
    if dtype is torch.int16:
        return -(2 ** 15), 2 ** 15 - 1
    return 0, 15


def _check_min_max_valid(min_val, max_val) -> bool:
    if min_val.numel() == 0 or max_val.numel() == 0:
        warnings.warn("must run observer before calling calculate_qparams. Returning default "
                      "values.", stacklevel=3)
        return False
    if min_val.dim() == 0 or max_val.dim() == 0:
        if min_val == float("inf") and max_val == float("-inf"):
            warnings.warn("must run observer before calling calculate_qparams. Returning "
                          "default values.", stacklevel=3)
            return False
        if min_val > max_val:
            raise AssertionError(f"min {min_val} should be less than max {max_val}")
    elif torch.any(min_val > max_val):
        raise AssertionError(f"min {min_val} should be less than max {max_val}")
    return True


class ObserverBase(nn.Module):
    """The base of the observers: a module with the ``dtype`` it prepares for."""

    def __init__(self, dtype, is_dynamic: bool = False):
        super().__init__()
        self.dtype = dtype
        self.is_dynamic = is_dynamic

    def forward(self, x):
        raise NotImplementedError

    def calculate_qparams(self, **kwargs):
        raise NotImplementedError

    with_args = classmethod(_with_args)
    with_callable_args = classmethod(_with_callable_args)


class UniformQuantizationObserverBase(ObserverBase):
    """The observers of uniform (affine or symmetric) quantization: range checks and the
    scale / zero point formulas shared by the min/max and histogram observers."""

    _version = 3

    def __init__(self, dtype=torch.quint8, qscheme=_per_tensor_affine, reduce_range=False,
                 quant_min=None, quant_max=None, factory_kwargs=None, eps=_EPS,
                 is_dynamic=False, **kwargs):
        super().__init__(dtype=dtype, is_dynamic=is_dynamic, **kwargs)
        self.qscheme = qscheme
        if reduce_range:
            warnings.warn("Please use quant_min and quant_max to specify the range for "
                          "observers.                     reduce_range will be deprecated in "
                          "a future release of PyTorch.", stacklevel=2)
        self.reduce_range = reduce_range
        self.register_buffer("eps", torch.tensor([eps]))
        if qscheme not in (_per_tensor_affine, _per_tensor_symmetric, _per_channel_affine,
                           _per_channel_symmetric, _per_channel_affine_float_qparams):
            raise AssertionError(
                "Default Observer only works for per_tensor_affine, per_tensor_symmetric, "
                "per_channel_affine, per_channel_symmetric and per_channel_float_qparams "
                "quantization scheme")
        self.has_customized_qrange = quant_min is not None and quant_max is not None
        if self.has_customized_qrange:
            if not quant_min <= 0 <= quant_max:
                raise AssertionError("Used-specified quantization range must include 0.")
            if quant_min >= quant_max:
                raise AssertionError("qmin must be strictly less than qmax for user-specified "
                                     "quantization range.")
        self.quant_min, self.quant_max = calculate_qmin_qmax(
            quant_min, quant_max, self.has_customized_qrange, dtype, reduce_range)

    def _calculate_qparams(self, min_val, max_val):
        """The scales and zero points for the range ``[min_val, max_val]`` (per channel when
        these have one element a channel)."""
        if not _check_min_max_valid(min_val, max_val):
            return torch.tensor([1.0]), torch.tensor([0])
        quant_min, quant_max = self.quant_min, self.quant_max
        min_val_neg = torch.min(min_val, torch.zeros_like(min_val))
        max_val_pos = torch.max(max_val, torch.zeros_like(max_val))
        scale = torch.ones(min_val_neg.size(), dtype=torch.float32)
        zero_point = torch.zeros(min_val_neg.size(), dtype=torch.int64)
        if self.qscheme in (_per_tensor_symmetric, _per_channel_symmetric):
            max_val_pos = torch.max(-min_val_neg, max_val_pos)
            scale = max_val_pos / (float(quant_max - quant_min) / 2)
            scale = torch.max(scale, self.eps)
            if self.dtype in (torch.quint8, torch.uint8):
                fill = (quant_min + quant_max) // 2 if self.has_customized_qrange else 128
                zero_point = zero_point.new_full(zero_point.size(), fill)
            elif self.dtype is torch.uint16:
                zero_point = zero_point.new_full(zero_point.size(), 2 ** 15)
        elif self.qscheme is _per_channel_affine_float_qparams:
            scale = (max_val - min_val) / float(quant_max - quant_min)
            scale = torch.where(scale > self.eps, scale, torch.ones_like(scale))
            zero_point = -1 * min_val / scale
        else:
            scale = (max_val_pos - min_val_neg) / float(quant_max - quant_min)
            scale = torch.max(scale, self.eps)
            zero_point = quant_min - torch.round(min_val_neg / scale).to(torch.int)
            zero_point = torch.clamp(zero_point, quant_min, quant_max)
        if len(scale.shape) == 0:
            scale = torch.tensor([float(scale)], dtype=scale.dtype)
        if len(zero_point.shape) == 0:
            zero_point = torch.tensor([int(zero_point)], dtype=zero_point.dtype)
            if self.qscheme is _per_channel_affine_float_qparams:
                zero_point = torch.tensor([float(zero_point)], dtype=zero_point.dtype)
        return scale, zero_point

    def calculate_qparams(self):
        """The scale(s) and zero point(s) for the range seen so far."""
        return self._calculate_qparams(self.min_val, self.max_val)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}"

    def reset_min_max_vals(self):
        raise NotImplementedError("Cannot reset min/max values in the given observer.")


_ObserverBase = UniformQuantizationObserverBase


class MinMaxObserver(UniformQuantizationObserverBase):
    """Records the running minimum and maximum of the tensors it sees (per tensor)."""

    def __init__(self, dtype=torch.quint8, qscheme=_per_tensor_affine, reduce_range=False,
                 quant_min=None, quant_max=None, factory_kwargs=None, eps=_EPS,
                 is_dynamic=False, **kwargs):
        if not _is_per_tensor(qscheme):
            raise NotImplementedError(
                "MinMaxObserver's qscheme only support torch.per_tensor_symmetric "
                "                    and torch.per_tensor_affine.")
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max,
                         factory_kwargs=factory_kwargs, eps=eps, is_dynamic=is_dynamic,
                         **kwargs)
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        if qscheme is _per_tensor_symmetric and reduce_range and dtype is torch.quint8:
            raise NotImplementedError("Cannot reduce range for symmetric                      "
                                      "                  quantization for quint8")

    def forward(self, x_orig):
        """Record the minimum and maximum of ``x_orig``; return it unchanged."""
        if x_orig.numel() == 0:
            return x_orig
        x = x_orig.detach().to(self.min_val.dtype)
        min_val_cur, max_val_cur = torch.aminmax(x)
        self.min_val.copy_(torch.min(min_val_cur, self.min_val))
        self.max_val.copy_(torch.max(max_val_cur, self.max_val))
        return x_orig

    def reset_min_max_vals(self):
        """Forget the range seen so far."""
        self.min_val.copy_(torch.tensor(float("inf")))
        self.max_val.copy_(torch.tensor(float("-inf")))


class MovingAverageMinMaxObserver(MinMaxObserver):
    """Records moving averages of the minimum and maximum:
    ``min += averaging_constant * (min(x) - min)``."""

    def __init__(self, averaging_constant=0.01, dtype=torch.quint8, qscheme=_per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, eps=_EPS,
                 is_dynamic=False, **kwargs):
        if not _is_per_tensor(qscheme):
            raise NotImplementedError(
                "MovingAverageMinMaxObserver's qscheme only support                 "
                "torch.per_tensor_symmetric and torch.per_tensor_affine.                 "
                f"but got: {qscheme}")
        self.averaging_constant = averaging_constant
        if is_dynamic and averaging_constant != 1:
            raise NotImplementedError(
                "MovingAverageMinMaxObserver doesn't support dynamic quantization for "
                f"averaging constant of {averaging_constant}")
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max, eps=eps,
                         is_dynamic=is_dynamic, **kwargs)

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = x_orig.detach().to(self.min_val.dtype)
        min_val, max_val = self.min_val, self.max_val
        if min_val == float("inf") and max_val == float("-inf"):
            min_val, max_val = torch.aminmax(x)
        else:
            min_val_cur, max_val_cur = torch.aminmax(x)
            min_val = min_val + self.averaging_constant * (min_val_cur - min_val)
            max_val = max_val + self.averaging_constant * (max_val_cur - max_val)
        self.min_val.copy_(min_val)
        self.max_val.copy_(max_val)
        return x_orig


class PerChannelMinMaxObserver(UniformQuantizationObserverBase):
    """Records the running minimum and maximum of each slice along ``ch_axis``."""

    def __init__(self, ch_axis=0, dtype=torch.quint8, qscheme=_per_channel_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=_EPS, is_dynamic=False, **kwargs):
        if not _is_per_channel(qscheme):
            raise NotImplementedError(
                "PerChannelMinMaxObserver's qscheme only support                     "
                "torch.per_channel_symmetric, torch.per_channel_affine and "
                "torch.per_channel_affine_float_qparams.")
        if is_dynamic:
            raise NotImplementedError("PerChannelMinMaxObserver doesn't support dynamic "
                                      "quantization")
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max,
                         factory_kwargs=factory_kwargs, eps=eps, is_dynamic=is_dynamic,
                         **kwargs)
        self.ch_axis = ch_axis
        self.register_buffer("min_val", torch.tensor([]))
        self.register_buffer("max_val", torch.tensor([]))
        if qscheme is _per_channel_symmetric and reduce_range and dtype is torch.quint8:
            raise NotImplementedError("Cannot reduce range for symmetric quantization for "
                                      "quint8")

    def forward(self, x_orig):
        return self._forward(x_orig)

    def _channel_min_max(self, x_orig):
        x = x_orig.detach()
        axes = list(range(x.dim()))
        axes[self.ch_axis] = 0
        axes[0] = self.ch_axis
        y = torch.flatten(x.permute(axes).to(self.min_val.dtype), start_dim=1)
        return torch.aminmax(y, dim=1)

    def _merge(self, min_cur, max_cur):
        """The running range updated with a batch's (``min_cur``, ``max_cur``)."""
        return torch.min(min_cur, self.min_val), torch.max(max_cur, self.max_val)

    def _forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        min_cur, max_cur = self._channel_min_max(x_orig)
        if self.min_val.numel() == 0 or self.max_val.numel() == 0:
            min_val, max_val = min_cur, max_cur
        else:
            min_val, max_val = self._merge(min_cur, max_cur)
        self.min_val.resize_(min_val.shape)
        self.max_val.resize_(max_val.shape)
        self.min_val.copy_(min_val)
        self.max_val.copy_(max_val)
        return x_orig

    def reset_min_max_vals(self):
        self.min_val = torch.tensor([])
        self.max_val = torch.tensor([])


class MovingAveragePerChannelMinMaxObserver(PerChannelMinMaxObserver):
    """Per-channel moving averages of the minimum and maximum."""

    def __init__(self, averaging_constant=0.01, ch_axis=0, dtype=torch.quint8,
                 qscheme=_per_channel_affine, reduce_range=False, quant_min=None,
                 quant_max=None, eps=_EPS, is_dynamic=False, **kwargs):
        super().__init__(ch_axis=ch_axis, dtype=dtype, qscheme=qscheme,
                         reduce_range=reduce_range, quant_min=quant_min, quant_max=quant_max,
                         eps=eps, is_dynamic=is_dynamic, **kwargs)
        self.averaging_constant = averaging_constant

    def _merge(self, min_cur, max_cur):
        c = self.averaging_constant
        return (self.min_val + c * (min_cur - self.min_val),
                self.max_val + c * (max_cur - self.max_val))


class HistogramObserver(UniformQuantizationObserverBase):
    """Records a histogram of the values seen (``bins`` bins over the running range) and
    chooses the range whose quantization has the least L2 error over it (torch's search,
    which trims the histogram's tails bin by bin)."""

    def __init__(self, bins: int = 2048, dtype=torch.quint8, qscheme=_per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=_EPS, is_dynamic=False, **kwargs):
        if not _is_per_tensor(qscheme):
            raise NotImplementedError("HistogramObserver's qscheme only support "
                                      "torch.per_tensor_symmetric                     and "
                                      "torch.per_tensor_affine.")
        if is_dynamic:
            raise NotImplementedError("HistogramObserver doesn't support dynamic quantization")
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max,
                         factory_kwargs=factory_kwargs, eps=eps, is_dynamic=is_dynamic,
                         **kwargs)
        self.bins = bins
        self.register_buffer("histogram", torch.zeros(self.bins))
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.dst_nbins = 2 ** (32 if dtype in (torch.qint32, torch.int32) else 8)
        self.upsample_rate = 16

    @staticmethod
    def _get_norm(delta_begin, delta_end, density):
        """``density * (end^3 - begin^3) / 3``: the L2 norm of values spread evenly between
        ``delta_begin`` and ``delta_end``."""
        norm = (delta_end * delta_end * delta_end - delta_begin * delta_begin * delta_begin) / 3
        return density * norm

    def _compute_quantization_error(self, next_start_bin: int, next_end_bin: int) -> float:
        """The L2 error of quantizing the histogram to ``dst_nbins`` levels over the bins
        ``next_start_bin`` .. ``next_end_bin``."""
        bin_width = (self.max_val.item() - self.min_val.item()) / self.bins
        dst_bin_width = bin_width * (next_end_bin - next_start_bin + 1) / self.dst_nbins
        if dst_bin_width == 0.0:
            return 0.0
        src_bin = torch.arange(self.bins)
        src_bin_begin = (src_bin - next_start_bin) * bin_width
        src_bin_end = src_bin_begin + bin_width
        top = self.dst_nbins - 1
        dst_bin_of_begin = torch.clamp(
            torch.div(src_bin_begin, dst_bin_width, rounding_mode="floor"), 0, top)
        dst_bin_of_begin_center = (dst_bin_of_begin + 0.5) * dst_bin_width
        dst_bin_of_end = torch.clamp(
            torch.div(src_bin_end, dst_bin_width, rounding_mode="floor"), 0, top)
        density = self.histogram / bin_width
        norm = torch.zeros(self.bins)
        norm += self._get_norm(src_bin_begin - dst_bin_of_begin_center,
                               torch.ones(self.bins) * (dst_bin_width / 2), density)
        norm += (dst_bin_of_end - dst_bin_of_begin - 1) * self._get_norm(
            torch.tensor(-dst_bin_width / 2), torch.tensor(dst_bin_width / 2), density)
        dst_bin_of_end_center = dst_bin_of_end * dst_bin_width + dst_bin_width / 2
        norm += self._get_norm(torch.tensor(-dst_bin_width / 2),
                               src_bin_end - dst_bin_of_end_center, density)
        return norm.sum().item()

    def _non_linear_param_search(self):
        """The range (min, max) chosen by trimming the histogram's tails while that lowers
        the quantization error."""
        if self.histogram.size()[0] != self.bins:
            raise AssertionError("bins mismatch")
        bin_width = (self.max_val - self.min_val) / self.bins
        total = torch.sum(self.histogram).item()
        # the cumulative sums as float32 numbers, compared as torch compares a float32
        # tensor with a Python float (in float32)
        csum = torch.cumsum(self.histogram, dim=0).numpy()
        f32 = csum.dtype.type
        stepsize = 1e-5
        alpha, beta = 0.0, 1.0
        start_bin, end_bin = 0, self.bins - 1
        norm_min = float("inf")
        while alpha < beta:
            next_alpha = alpha + stepsize
            next_beta = beta - stepsize
            lo_bound, hi_bound = f32(next_alpha * total), f32(next_beta * total)
            left, right = start_bin, end_bin
            while left < end_bin and csum[left] < lo_bound:
                left += 1
            while right > start_bin and csum[right] > hi_bound:
                right -= 1
            next_start_bin, next_end_bin = start_bin, end_bin
            if (left - start_bin) > (end_bin - right):
                next_start_bin = left
                alpha = next_alpha
            else:
                next_end_bin = right
                beta = next_beta
            if next_start_bin == start_bin and next_end_bin == end_bin:
                continue
            norm = self._compute_quantization_error(next_start_bin, next_end_bin)
            if norm > norm_min:
                break
            norm_min = norm
            start_bin, end_bin = next_start_bin, next_end_bin
        return (self.min_val + bin_width * start_bin,
                self.min_val + bin_width * (end_bin + 1))

    def _upscale_histogram(self, histogram, orig_min, orig_max, update_min, update_max):
        """``histogram`` over ``[orig_min, orig_max]`` spread onto the bins of
        ``[update_min, update_max]`` (each bin split ``upsample_rate`` ways)."""
        histogram = histogram.repeat_interleave(self.upsample_rate) / self.upsample_rate
        bin_size = (orig_max - orig_min) / (self.bins * self.upsample_rate)
        mid_points = torch.linspace(orig_min, orig_max,
                                    self.bins * self.upsample_rate + 1)[:-1] + 0.5 * bin_size
        boundaries = torch.linspace(update_min, update_max, self.bins + 1)
        buckets = torch.bucketize(mid_points, boundaries, right=True) - 1
        buckets[buckets >= self.bins] = self.bins - 1
        buckets[buckets < 0] = 0
        return torch.bincount(buckets, weights=histogram, minlength=self.bins)

    def _combine_histograms(self, orig_hist, orig_min, orig_max, update_hist, update_min,
                            update_max):
        if update_min == orig_min and update_max == orig_max:
            return orig_hist + update_hist
        if orig_min == orig_max:
            bin_value = torch.sum(orig_hist)
            moved = torch.histc(orig_min, bins=self.bins, min=update_min,
                                max=update_max) * bin_value
            return moved + update_hist
        if update_min > orig_min:
            raise AssertionError("update_min must be <= orig_min")
        if update_max < orig_max:
            raise AssertionError("update_max must be >= orig_max")
        return update_hist + self._upscale_histogram(orig_hist, orig_min, orig_max,
                                                     update_min, update_max)

    def reset_histogram(self, x, min_val, max_val) -> None:
        """Start the histogram over from ``x`` on the range ``[min_val, max_val]``."""
        self.min_val.resize_(min_val.shape)
        self.min_val.copy_(min_val)
        self.max_val.resize_(max_val.shape)
        self.max_val.copy_(max_val)
        if min_val.numel() != 1 or max_val.numel() != 1:
            raise AssertionError("histogram min/max values must be scalar.")
        new_histogram = torch.histc(x, self.bins, min=min_val, max=max_val)
        self.histogram.detach_().resize_(new_histogram.shape)
        self.histogram.copy_(new_histogram)

    def forward(self, x_orig):
        """Add ``x_orig``'s values to the histogram (widening its range as needed)."""
        if x_orig.numel() == 0:
            return x_orig
        x = x_orig.detach()
        x_min, x_max = torch.aminmax(x)
        if x_min == -torch.inf or x_max == torch.inf:
            warnings.warn("torch.inf detected in input tensor, ignoring input", stacklevel=2)
            x = x[x.abs() != torch.inf]
            if x.numel() == 0:
                return x_orig
            x_min, x_max = torch.aminmax(x)
        current_min, current_max = self.min_val, self.max_val
        if self.min_val == float("inf") or self.max_val == float("-inf"):
            self.reset_histogram(x, x_min, x_max)
            return x_orig
        new_min = torch.min(current_min, x_min).detach()
        new_max = torch.max(current_max, x_max).detach()
        update_histogram = torch.histc(x, self.bins, min=new_min, max=new_max)
        if new_min == current_min and new_max == current_max:
            combined = self.histogram + update_histogram
            self.histogram.detach_().resize_(combined.shape)
            self.histogram.copy_(combined)
        else:
            combined = self._combine_histograms(self.histogram, current_min, current_max,
                                                update_histogram, new_min, new_max)
            self.histogram.detach_().resize_(combined.shape)
            self.histogram.copy_(combined)
            self.min_val.detach_().resize_(new_min.shape)
            self.min_val.copy_(new_min)
            self.max_val.detach_().resize_(new_max.shape)
            self.max_val.copy_(new_max)
        return x_orig

    def calculate_qparams(self):
        """The scale and zero point of the range the L2 search chooses."""
        if self.min_val == float("inf") and self.max_val == float("-inf"):
            warnings.warn("must run observer before calling calculate_qparams.               "
                          "                     Returning default scale and zero point ",
                          stacklevel=2)
            return torch.tensor([1.0]), torch.tensor([0])
        if self.bins != len(self.histogram):
            raise AssertionError("The number of bins in histogram should be equal to the "
                                 "number of bins supplied while making this observer")
        new_min, new_max = self._non_linear_param_search()
        return self._calculate_qparams(new_min, new_max)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "min_val"] = self.min_val
        destination[prefix + "max_val"] = self.max_val


class PlaceholderObserver(ObserverBase):
    """Records nothing: stands for the dtype (and dynamic quantization) in a qconfig."""

    def __init__(self, dtype=torch.float32, custom_op_name: str = "", compute_dtype=None,
                 quant_min=None, quant_max=None, qscheme=None, eps=None,
                 is_dynamic=False) -> None:
        super().__init__(dtype=dtype, is_dynamic=is_dynamic)
        if qscheme is None:
            qscheme = _per_tensor_affine
        if eps is None:
            eps = _EPS
        self.dtype = dtype
        self.qscheme = qscheme
        self.quant_min = quant_min
        self.quant_max = quant_max
        self.eps = eps
        self.custom_op = custom_op_name
        if compute_dtype:
            is_dynamic = True
            warnings.warn("Please use `is_dynamic` instead of `compute_dtype`.                 "
                          "`compute_dtype` will be deprecated in a future release                "
                          " of PyTorch.", stacklevel=2)

    def forward(self, x):
        return x

    def extra_repr(self):
        return f"dtype={self.dtype}, is_dynamic={self.is_dynamic}"

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for PlaceholderObserver")  # noqa: TRY002


class RecordingObserver(ObserverBase):
    """Keeps every tensor it sees (for debugging)."""

    __annotations__ = {"tensor_val": list}

    def __init__(self, dtype=torch.quint8):
        super().__init__(dtype=dtype, is_dynamic=False)
        self.tensor_val = []

    def forward(self, x):
        self.tensor_val.append(x.clone())
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for RecordingObserver")  # noqa: TRY002

    def get_tensor_value(self):
        return self.tensor_val


class NoopObserver(ObserverBase):
    """Records nothing (the float16 weight observer)."""

    def __init__(self, dtype=torch.float16, custom_op_name="") -> None:
        super().__init__(dtype=dtype, is_dynamic=False)
        self.dtype = dtype
        self.custom_op = custom_op_name

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for NoopObserver")  # noqa: TRY002


def get_observer_state_dict(mod):
    """The observers' entries of ``mod``'s state dict."""
    from collections import OrderedDict
    od = OrderedDict()
    for k, v in mod.state_dict().items():
        if "activation_post_process" in k:
            od[k] = v
    od._metadata = mod.state_dict()._metadata
    return od


def load_observer_state_dict(mod, obs_dict):
    """Load ``obs_dict`` (from :func:`get_observer_state_dict`) into ``mod``'s observers."""
    missing_keys, unexpected_keys = [], []
    for name, module in mod.named_modules():
        prefix = name + "."
        if isinstance(module, ObserverBase):
            module._load_from_state_dict(obs_dict, prefix, {}, False, missing_keys,
                                         unexpected_keys, [])
    for k in missing_keys:
        if "observer" in k or "activation_post_process" in k:
            raise Exception(f"Missing keys for observer {k} in state_dict")  # noqa: TRY002
    for k in unexpected_keys:
        if "observer" in k or "activation_post_process" in k:
            raise Exception(f"Unexpected keys for observer {k} in state_dict")  # noqa: TRY002


default_observer = MinMaxObserver.with_args(quant_min=0, quant_max=127)
default_placeholder_observer = PlaceholderObserver
default_debug_observer = RecordingObserver
default_weight_observer = MinMaxObserver.with_args(dtype=torch.qint8,
                                                   qscheme=_per_tensor_symmetric)
weight_observer_range_neg_127_to_127 = MinMaxObserver.with_args(
    dtype=torch.qint8, qscheme=_per_tensor_symmetric, quant_min=-127, quant_max=127,
    eps=2 ** -12)
default_histogram_observer = HistogramObserver.with_args(quant_min=0, quant_max=127)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(
    dtype=torch.qint8, qscheme=_per_channel_symmetric)
per_channel_weight_observer_range_neg_127_to_127 = PerChannelMinMaxObserver.with_args(
    dtype=torch.qint8, qscheme=_per_channel_symmetric, quant_min=-127, quant_max=127,
    eps=2 ** -12)
default_dynamic_quant_observer = PlaceholderObserver.with_args(
    dtype=torch.quint8, quant_min=0, quant_max=255, is_dynamic=True)
default_float_qparams_observer = PerChannelMinMaxObserver.with_args(
    dtype=torch.quint8, qscheme=_per_channel_affine_float_qparams, ch_axis=0)


del annotations  # keep dir() to torch's names
