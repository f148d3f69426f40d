"""Weight normalisation, ``w = g · v / ‖v‖``: ``torch._weight_norm`` and its fused kernel
``torch._weight_norm_interface`` (node ``WeightNormInterfaceBackward0``). Loaded on first use.

As in ATen, ``_weight_norm`` takes the fused kernel when the norm runs over every dim but the
first or the last, and composes ``v * (g / norm_except_dim(v,
2, dim))`` otherwise. The fused kernel's norms and gradients are torch's CPU reductions
(``_norms.weight_norm_norms``); the norms are not differentiable, and the backward under
``create_graph`` is ATen's ``_weight_norm_differentiable_backward``, written with ember ops.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype as D
from .._nn_functions import norm_except_dim
from .._tensor import Tensor
from ..autograd import grad_mode
from . import _norms
from .registry import NONE, joint, op

_wrap = Tensor._wrap
_FLOATS = (D.float32, D.float64, D.float16, D.bfloat16)


def _backward(grad, v, g, norm, dim):
    """(grad_v, grad_g): the kernel's, or with ember ops when a graph is being built."""
    if grad_mode.is_grad_enabled():
        norms = _wrap(norm.astype(g._data.dtype).reshape(g.shape))
        shape = [1] * v.dim()
        k = 0 if dim == 0 else v.dim() - 1
        shape[k] = v.shape[k]
        flat, over = ((v.shape[0], -1), 1) if dim == 0 else ((-1, v.shape[-1]), 0)
        s = (grad * v).view(flat).sum(over).view(shape)
        grad_v = (g / norms) * (grad - v * (s / (norms * norms)))
        return grad_v, s / norms
    arrays = [t.contiguous()._data for t in (grad, v, g)]
    dt = arrays[1].dtype
    if dt not in _norms._exact.exact_dtype:      # float16: the kernel's float accumulation
        arrays = [a.astype(np.float32) for a in arrays]
    gv, gg = _norms.weight_norm_backward(*arrays, norm, dim)
    return _wrap(gv.astype(dt)), _wrap(gg.reshape(g.shape).astype(dt))


@op("WeightNormInterfaceBackward0", name="_weight_norm_fused", method=False, function=False,
    promote=NONE, tensors=("v", "g"), **joint(_backward, "v", "g"))
def _fused(v, g, norm, dim):
    shape = (-1,) + (1,) * (v.ndim - 1) if dim == 0 else (-1,)
    return (v * (g.reshape(-1) / norm).reshape(shape)).astype(v.dtype)


def _check(v, g, dim):
    if v.dtype not in _FLOATS:
        raise NotImplementedError(
            f'"weight_norm_kernel" not implemented for \'{v.dtype.scalar_name}\'')
    if g.dtype != v.dtype:
        raise RuntimeError(f"expected scalar type {v.dtype.scalar_name} but found "
                           f"{g.dtype.scalar_name}")
    if dim != 0 and dim != v.dim() - 1:
        raise RuntimeError(
            'dim == 0 || dim == v.dim() - 1 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
            'aten/src/ATen/native/cpu/WeightNormKernel.cpp":408, please report a bug to '
            "PyTorch. fused kernels can only be applied for first or last dim")


def _weight_norm_interface(v: Tensor, g: Tensor, dim: int = 0) -> tuple[Tensor, Tensor]:
    """The fused weight-norm kernel: ``(w, norm)`` with ``w = g · v / norm`` and ``norm`` the
    2-norm of ``v`` over every dim but ``dim`` (0 or the last), shaped like ``g``; only ``w``
    is differentiable (``WeightNormInterfaceBackward0``). float16/bfloat16 norms are float32.

    >>> w, norm = torch._weight_norm_interface(torch.ones(2, 4), torch.ones(2, 1), 0)
    """
    _check(v, g, dim)
    v = v.contiguous()
    g = g.contiguous()
    arr = v._data
    if arr.dtype not in _norms._exact.exact_dtype:
        arr = arr.astype(np.float32)
    norm = _norms.weight_norm_norms(arr, dim)
    w = _fused(v, g, norm, dim)
    return w, _wrap(norm.reshape(g.shape))


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """Weight normalisation ``g · v / ‖v‖``, the norm over every dim of ``v`` but ``dim``
    (``dim=-1``: over all of ``v``), as ``nn.utils.weight_norm`` computes its weight.

    >>> v, g = torch.randn(3, 4), torch.ones(3, 1)
    >>> torch._weight_norm(v, g, 0).norm(dim=1)
    tensor([1.0000, 1.0000, 1.0000])
    """
    if dim == 0 or dim == v.dim() - 1:
        return _weight_norm_interface(v, g, dim)[0]
    return v * (g / norm_except_dim(v, 2, dim))
