"""Folding an eval-mode batch norm into the convolution or linear layer before it."""

from __future__ import annotations

import copy

from ... import _factories as _F
from ..._tensor import Tensor as _Tensor
from ..modules.batchnorm import _BatchNorm
from ..parameter import Parameter as _Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]


def fuse_conv_bn_eval(conv, bn: _BatchNorm, transpose: bool = False):
    """A copy of the eval-mode ``conv`` with the eval-mode ``bn`` after it folded in.

    >>> import ember
    >>> conv, bn = ember.nn.Conv2d(1, 2, 1).eval(), ember.nn.BatchNorm2d(2).eval()
    >>> fused = ember.nn.utils.fuse_conv_bn_eval(conv, bn)
    >>> x = ember.randn(1, 1, 2, 2)
    >>> bool(ember.allclose(fused(x), bn(conv(x))))
    True
    """
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps,
        bn.weight, bn.bias, transpose)
    return fused_conv


def fuse_conv_bn_weights(conv_w: _Tensor, conv_b: _Tensor | None, bn_rm: _Tensor,
                         bn_rv: _Tensor, bn_eps: float, bn_w: _Tensor | None, bn_b: _Tensor | None,
                         transpose: bool = False) -> tuple[_Parameter, _Parameter]:
    """The weight and bias of a convolution followed by a batch norm with these statistics
    and affine parameters, as one convolution's (new Parameters)."""
    conv_weight_dtype = conv_w.dtype
    conv_bias_dtype = conv_b.dtype if conv_b is not None else conv_weight_dtype
    if conv_b is None:
        conv_b = _F.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = _F.ones_like(bn_rm)
    if bn_b is None:
        bn_b = _F.zeros_like(bn_rm)
    bn_var_rsqrt = (bn_rv + bn_eps).rsqrt()
    if transpose:
        shape = [1, -1] + [1] * (len(conv_w.shape) - 2)
    else:
        shape = [-1, 1] + [1] * (len(conv_w.shape) - 2)
    fused_conv_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=conv_weight_dtype)
    fused_conv_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=conv_bias_dtype)
    return (_Parameter(fused_conv_w, conv_w.requires_grad),
            _Parameter(fused_conv_b, conv_b.requires_grad))


def fuse_linear_bn_eval(linear, bn: _BatchNorm):
    """A copy of the eval-mode ``linear`` with the eval-mode ``bn`` after it folded in.

    >>> import ember
    >>> lin, bn = ember.nn.Linear(3, 2).eval(), ember.nn.BatchNorm1d(2).eval()
    >>> fused = ember.nn.utils.fuse_linear_bn_eval(lin, bn)
    >>> x = ember.randn(4, 3)
    >>> bool(ember.allclose(fused(x), bn(lin(x))))
    True
    """
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(
        fused_linear.weight, fused_linear.bias, bn.running_mean, bn.running_var, bn.eps,
        bn.weight, bn.bias)
    return fused_linear


def fuse_linear_bn_weights(linear_w: _Tensor, linear_b: _Tensor | None, bn_rm: _Tensor,
                           bn_rv: _Tensor, bn_eps: float, bn_w: _Tensor,
                           bn_b: _Tensor) -> tuple[_Parameter, _Parameter]:
    """The weight and bias of a linear layer followed by a batch norm with these statistics
    and affine parameters, as one linear layer's (new Parameters)."""
    linear_weight_dtype = linear_w.dtype
    linear_bias_dtype = linear_b.dtype if linear_b is not None else linear_weight_dtype
    if linear_b is None:
        linear_b = _F.zeros_like(bn_rm)
    bn_scale = bn_w * (bn_rv + bn_eps).rsqrt()
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=linear_weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=linear_bias_dtype)
    return (_Parameter(fused_w, linear_w.requires_grad),
            _Parameter(fused_b, linear_b.requires_grad))
