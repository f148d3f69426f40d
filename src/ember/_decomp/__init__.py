"""``ember._decomp``: torch's table of decompositions, each aten operator written with
simpler operators (``torch._decomp.get_decompositions([aten.gelu, aten.addmm])``).

The table holds torch's decompositions of the common activation, softmax, loss and
matrix operators, written as torch writes them (half-precision inputs computed in float32
and cast back, as torch's ``pw_cast_for_opmath`` does); each ``out`` overload writes into
its ``out=`` tensor. Keys are the overloads of ``torch.ops.aten``.
"""

from __future__ import annotations

import functools
import sys as _sys
import math

__all__ = ["core_aten_decompositions", "decomposition_table", "get_decompositions",
           "register_decomposition"]

decomposition_table: dict = {}
_REGISTERED: list = []          # (op name, overload names, function) until the first lookup


def register_decomposition(aten_op, registry=None, *, type=None, unsafe: bool = False):
    """Register the decorated function as the decomposition of ``aten_op`` (an overload, a
    packet: all its overloads, or a list of them) in ``registry`` (the global table)."""
    from .._aten import OpOverload
    table = decomposition_table if registry is None else registry

    def register(fn):
        ops = aten_op if isinstance(aten_op, (list, tuple)) else [aten_op]
        for op in ops:
            if isinstance(op, OpOverload):
                table[op] = fn
            else:
                for name in op.overloads():
                    table[getattr(op, name)] = fn
        return fn
    return register


def _table() -> dict:
    if _REGISTERED:
        from .._aten import ops
        for op_name, overloads, fn in _REGISTERED:
            packet = getattr(ops.aten, op_name)
            for name in overloads:
                decomposition_table.setdefault(getattr(packet, name), fn)
        _REGISTERED.clear()
    return decomposition_table


def get_decompositions(aten_ops, type=None) -> dict:
    """``{overload: decomposition}`` for the operators in ``aten_ops``: an overload gives
    itself, a packet every overload of it that has a decomposition."""
    from .._aten import OpOverload
    table = _table()
    by_packet: dict = {}
    for op in table:
        by_packet.setdefault(op.overloadpacket, []).append(op)
    out = {}
    for op in aten_ops:
        if isinstance(op, OpOverload):
            if op in table:
                out[op] = table[op]
        else:
            for overload in by_packet.get(op, ()):
                out[overload] = table[overload]
    return out


def core_aten_decompositions() -> dict:
    """The whole table (torch's core-aten set, as far as Ember has it)."""
    return dict(_table())


# ----------------------------------------------------------------------------- the table

def _decomposes(op_name: str, *overloads: str):
    def register(fn):
        _REGISTERED.append((op_name, overloads or ("default", "out"), fn))
        return fn
    return register


def _out(fn):
    """torch's ``out_wrapper``: with ``out=``, the result is copied into ``out``."""
    @functools.wraps(fn)
    def run(*args, out=None, **kwargs):
        result = fn(*args, **kwargs)
        if out is None:
            return result
        out.resize_(result.shape).copy_(result)
        return out
    return run


def _opmath(fn):
    """torch's ``pw_cast_for_opmath``: half-precision tensors computed in float32, the result
    cast back."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        from .. import _tensor, bfloat16, float16, float32
        low = next((a.dtype for a in args if isinstance(a, _tensor.Tensor)
                    and a.dtype in (float16, bfloat16)), None)
        if low is None:
            return fn(*args, **kwargs)
        args = tuple(a.to(float32) if isinstance(a, _tensor.Tensor) and a.is_floating_point()
                     else a for a in args)
        return fn(*args, **kwargs).to(low)
    return run


def _torch():
    return _sys.modules[__name__.partition(".")[0]]     # the package (not a second copy)


@_decomposes("addmm", "default", "out")
@_out
@_opmath
def addmm(self, mat1, mat2, beta=1, alpha=1):
    torch = _torch()
    if not self.is_floating_point() and not self.is_complex():
        beta, alpha = int(beta), int(alpha)
    out = alpha * torch.mm(mat1, mat2)
    if beta == 0:
        return out
    return out + beta * self


@_decomposes("addmm", "dtype", "dtype_out")
@_out
def addmm_dtype(self, mat1, mat2, out_dtype, beta=1, alpha=1):
    torch = _torch()
    out = alpha * torch.mm(mat1.to(out_dtype), mat2.to(out_dtype))
    if beta == 0:
        return out
    return out + beta * self.to(out_dtype)


def _computation_dtype(x):
    torch = _torch()
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.float32
    return x.dtype if x.is_floating_point() or x.is_complex() else torch.get_default_dtype()


def _softmax_input(x):
    """(softmax's input contiguous in its computation dtype, the result's dtype)."""
    x = x.contiguous()
    result_dtype = x.dtype if x.is_floating_point() else _torch().get_default_dtype()
    return x.to(_computation_dtype(x)), result_dtype


@_decomposes("_softmax")
@_out
def _softmax(x, dim, half_to_float):
    torch = _torch()
    x, result_dtype = _softmax_input(x)
    unnormalized = torch.exp(x - torch.amax(x, dim, keepdim=True))
    result = unnormalized / torch.sum(unnormalized, dim, keepdim=True)
    return result if half_to_float else result.to(result_dtype)


@_decomposes("_log_softmax")
@_out
def _log_softmax(x, dim, half_to_float):
    torch = _torch()
    x, result_dtype = _softmax_input(x)
    shifted = x - torch.amax(x, dim, keepdim=True)
    result = shifted - torch.log(torch.sum(torch.exp(shifted), dim, keepdim=True))
    return result if half_to_float else result.to(result_dtype)


@_decomposes("gelu")
@_out
@_opmath
def gelu(a, approximate="none"):
    torch = _torch()
    if approximate == "tanh":
        k_beta = 1.41421356237309504880 * 1.12837916709551257390 * 0.5
        inner = k_beta * (a + 0.044715 * (a * a * a))
        return 0.5 * a * (1 + torch.tanh(inner))
    if approximate == "none":
        return a * 0.5 * (1 + torch.erf(a * 0.70710678118654752440))
    raise RuntimeError("approximate argument must be either none or tanh.")


@_decomposes("silu")
@_out
@_opmath
def silu(self):
    return self * _torch().sigmoid(self)


@_decomposes("mish")
@_out
@_opmath
def mish(x):
    torch = _torch()
    return x * torch.tanh(torch.nn.functional.softplus(x))


@_decomposes("relu")
@_out
def relu(a):
    torch = _torch()
    return torch.where(torch.le(a, 0), 0, a)


@_decomposes("sigmoid")
@_out
@_opmath
def sigmoid(a):
    torch = _torch()
    return torch.true_divide(1, torch.add(1, torch.exp(torch.neg(a))))


@_decomposes("tanh")
@_out
def tanh(a):
    return _torch().tanh(a)


@_decomposes("rsqrt")
@_out
def rsqrt(a):
    return _torch().rsqrt(a)


@_decomposes("hardtanh")
@_out
@_opmath
def hardtanh(a, min_val=-1, max_val=1):
    return _torch().clamp(a, min_val, max_val)


@_decomposes("hardsigmoid")
@_out
@_opmath
def hardsigmoid(self):
    torch = _torch()
    return torch.clamp(torch.clamp(self + 3, min=0), max=6) / 6


@_decomposes("hardswish")
@_out
@_opmath
def hardswish(self):
    torch = _torch()
    return self * torch.clamp(torch.clamp(self + 3, min=0), max=6) / 6


@_decomposes("leaky_relu")
@_out
@_opmath
def leaky_relu(a, negative_slope=0.01):
    torch = _torch()
    return torch.where(torch.gt(a, 0), a, torch.mul(a, negative_slope))


@_decomposes("elu")
@_out
@_opmath
def elu(a, alpha=1.0, scale=1.0, input_scale=1.0):
    torch = _torch()
    return torch.where(a > 0, a * scale, torch.expm1(a * input_scale) * (alpha * scale))


@_decomposes("softplus")
@_out
@_opmath
def softplus(a, beta=1, threshold=20):
    torch = _torch()
    if beta != 1:
        scaled = a * beta
        rhs = torch.true_divide(torch.log1p(torch.exp(scaled)), beta)
    else:
        scaled = a
        rhs = torch.log1p(torch.exp(scaled))
    return torch.where(scaled > threshold, a, rhs)


def _reduce(loss, reduction: int):
    if reduction == 1:
        return _torch().mean(loss)
    if reduction == 2:
        return _torch().sum(loss)
    return loss


@_decomposes("mse_loss")
@_out
@_opmath
def mse_loss(self, target, reduction=1):
    return _reduce((self - target) ** 2, reduction)


@_decomposes("smooth_l1_loss")
@_out
@_opmath
def smooth_l1_loss(self, target, reduction=1, beta=1.0):
    torch = _torch()
    loss = (self - target).abs()
    loss = torch.where(loss < beta, 0.5 * loss**2 / beta, loss - 0.5 * beta)
    return _reduce(loss, reduction)


@_decomposes("embedding")
@_out
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if weight.dim() != 2:
        raise AssertionError(f"'weight' must be 2-D, got {weight.dim()}-D")
    if indices.ndim <= 1:
        out = weight.index_select(0, indices)
        return out.squeeze(0) if indices.ndim == 0 else out
    return weight[indices]


@_decomposes("t", "default")
def t(a):
    if a.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return _torch().transpose(a, 0, 0 if a.ndim < 2 else 1)


@_decomposes("logsumexp")
@_out
def logsumexp(self, dim, keepdim=False):
    torch = _torch()
    dim = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    if not (self.is_floating_point() or self.is_complex()):
        self = self.to(torch.get_default_dtype())
    if self.numel() == 0:
        return torch.sum(torch.exp(self), dim, keepdim).log()
    maxes = torch.amax(torch.real(self), dim, keepdim=True)
    maxes = torch.masked_fill(maxes, maxes.abs() == math.inf, 0)
    squeezed = maxes if keepdim else torch.squeeze(maxes, dim)
    return torch.sum(torch.exp(self - maxes), dim, keepdim).log().add(squeezed)
