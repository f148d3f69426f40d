"""Convolution layers: Conv1d/2d/3d, ConvTranspose1d/2d/3d and their lazy forms, initialised
as torch does."""

from __future__ import annotations

import math

from ... import _factories as _Fac
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


def _ntuple(x, n):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,) * n


class _ConvNd(Module):
    _nd = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None,
                 dtype=None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = [p for p in reversed(self.padding)
                                                     for _ in range(2)]
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(_Fac.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_Fac.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """kaiming_uniform_(a=√5) for the weight, U(±1/√fan_in) for the bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        n = len(self.kernel_size)
        if self.padding != (0,) * n:
            s += ", padding={padding}"
        if self.dilation != (1,) * n:
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * n:
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._nd - 1]
        if self.padding_mode != "zeros":
            return conv(F.pad(input, self._reversed_padding_repeated_twice,
                              mode=self.padding_mode), weight, bias, self.stride,
                        (0,) * self._nd, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


def _make_conv(nd):
    class Conv(_ConvNd):
        _nd = nd

        def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                     padding=0, dilation=1, groups: int = 1, bias: bool = True,
                     padding_mode: str = "zeros", device=None, dtype=None) -> None:
            kernel_size_ = _ntuple(kernel_size, nd)
            stride_ = _ntuple(stride, nd)
            padding_ = padding if isinstance(padding, str) else _ntuple(padding, nd)
            dilation_ = _ntuple(dilation, nd)
            super().__init__(in_channels, out_channels, kernel_size_, stride_, padding_,
                             dilation_, False, _ntuple(0, nd), groups, bias, padding_mode,
                             device, dtype)
    Conv.__name__ = Conv.__qualname__ = f"Conv{nd}d"
    Conv.__doc__ = f"{nd}-D convolution layer; weight ``(out, in/groups, *kernel)``."
    return Conv


Conv1d = _make_conv(1)
Conv2d = _make_conv(2)
Conv3d = _make_conv(3)


class _ConvTransposeNd(_ConvNd):
    def _output_padding(self, input, output_size, stride, padding, kernel_size,
                        num_spatial_dims, dilation=None) -> list:
        """torch's output padding that makes the output ``output_size`` (or the module's)."""
        if output_size is None:
            return list(_ntuple(self.output_padding, 1))
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must "
                f"have {num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements "
                f"(got {len(output_size)})")
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1)
                        + 1)
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for i in range(len(output_size)):
            size = output_size[i]
            if size < min_sizes[i] or size > max_sizes[i]:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range "
                    f"from {min_sizes} to {max_sizes} (for an input of {input.size()[2:]})")
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]


def _make_conv_transpose(nd):
    class ConvTranspose(_ConvTransposeNd):
        _nd = nd

        def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                     padding=0, output_padding=0, groups: int = 1, bias: bool = True,
                     dilation=1, padding_mode: str = "zeros", device=None, dtype=None) -> None:
            if padding_mode != "zeros":
                raise ValueError(f'Only "zeros" padding mode is supported for '
                                 f"{self.__class__.__name__}")
            super().__init__(in_channels, out_channels, _ntuple(kernel_size, nd),
                             _ntuple(stride, nd), _ntuple(padding, nd), _ntuple(dilation, nd),
                             True, _ntuple(output_padding, nd), groups, bias, padding_mode,
                             device, dtype)

        def forward(self, input: Tensor, output_size=None) -> Tensor:
            if self.padding_mode != "zeros":
                raise ValueError("Only `zeros` padding mode is supported for "
                                 f"ConvTranspose{nd}d")
            output_padding = self._output_padding(input, output_size, self.stride,
                                                  self.padding, self.kernel_size, nd,
                                                  self.dilation)
            fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[nd - 1]
            return fn(input, self.weight, self.bias, self.stride, self.padding,
                      output_padding, self.groups, self.dilation)
    ConvTranspose.__name__ = ConvTranspose.__qualname__ = f"ConvTranspose{nd}d"
    ConvTranspose.__doc__ = f"{nd}-D transposed convolution; weight ``(in, out/groups, *k)``."
    return ConvTranspose


ConvTranspose1d = _make_conv_transpose(1)
ConvTranspose2d = _make_conv_transpose(2)
ConvTranspose3d = _make_conv_transpose(3)


class _LazyConvXdMixin(LazyModuleMixin):
    """Infers ``in_channels`` from the first input and materialises weight and bias."""

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None:
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups,
                                         *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups,
                                         *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input: Tensor) -> int:
        num_dims_no_batch = self._nd + 1
        num_dims_batch = num_dims_no_batch + 1
        if input.dim() not in (num_dims_no_batch, num_dims_batch):
            raise RuntimeError(
                f"Expected {num_dims_no_batch}D (unbatched) or {num_dims_batch}D (batched) "
                f"input to {self.__class__.__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == num_dims_batch else input.shape[0]


def _make_lazy_conv(base):
    class LazyConv(_LazyConvXdMixin, base):
        cls_to_become = base

        def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                     groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                     device=None, dtype=None) -> None:
            super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                             padding_mode, device, dtype)
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.out_channels = out_channels
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
    LazyConv.__name__ = LazyConv.__qualname__ = "Lazy" + base.__name__
    LazyConv.__doc__ = f"A :class:`{base.__name__}` whose ``in_channels`` is inferred from " \
        "the first input's channel dim."
    return LazyConv


def _make_lazy_conv_transpose(base):
    class LazyConvTranspose(_LazyConvXdMixin, base):
        cls_to_become = base

        def __init__(self, out_channels: int, kernel_size, stride=1, padding=0,
                     output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                     padding_mode: str = "zeros", device=None, dtype=None) -> None:
            super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups,
                             False, dilation, padding_mode, device, dtype)
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.out_channels = out_channels
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
    LazyConvTranspose.__name__ = LazyConvTranspose.__qualname__ = "Lazy" + base.__name__
    LazyConvTranspose.__doc__ = f"A :class:`{base.__name__}` whose ``in_channels`` is " \
        "inferred from the first input's channel dim."
    return LazyConvTranspose


LazyConv1d = _make_lazy_conv(Conv1d)
LazyConv2d = _make_lazy_conv(Conv2d)
LazyConv3d = _make_lazy_conv(Conv3d)
LazyConvTranspose1d = _make_lazy_conv_transpose(ConvTranspose1d)
LazyConvTranspose2d = _make_lazy_conv_transpose(ConvTranspose2d)
LazyConvTranspose3d = _make_lazy_conv_transpose(ConvTranspose3d)


del annotations  # keep dir() to torch's names
