"""Muon: momentum SGD whose update is orthogonalised by Newton–Schulz iterations (torch's
``_single_tensor_muon``).

The iterations run in bfloat16 on matrix products, as torch's do, so the update agrees with
torch's to the BLAS's rounding, not bit for bit; the momentum and the parameter update are
elementwise and torch's exactly.
"""

from __future__ import annotations

import math

from .. import _dtype as _D
from .. import _factories as _F
from .._ops import linalg as _linalg
from .._tensor import Size, Tensor
from .optimizer import (
    Optimizer,
    ParamsT,
    _arr,
    _bump,
    _get_value,
    _k_add_,
    _k_lerp_,
    _k_mul_,
    _run_closure,
    _to_scalar,
)
from .optimizer import _no_grad_step as _no_grad

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients: tuple[float, float, float],
                                ns_steps: int, eps: float) -> Tensor:
    """Approximately orthogonalise ``grad`` (``U S' V^T`` with ``S'`` near 1) by ``ns_steps``
    quintic Newton–Schulz iterations with coefficients ``(a, b, c)``, in bfloat16."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho_grad = grad.to(_D.bfloat16)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = _linalg.addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = _linalg.addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape: Size) -> float:
    """The learning rate scaled for the matrix's shape ``(A, B)``: ``sqrt(max(1, A / B))``
    (``"original"``) or ``0.2 * sqrt(max(A, B))`` (``"match_rms_adamw"``)."""
    A, B = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        adjusted_ratio = math.sqrt(max(1, A / B))
    elif adjust_lr_fn == "match_rms_adamw":
        adjusted_ratio = 0.2 * math.sqrt(max(A, B))
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


class Muon(Optimizer):
    """Implements the Muon algorithm, for the 2-d parameters of hidden layers.

    >>> import ember
    >>> w = ember.nn.Parameter(ember.eye(2))
    >>> opt = ember.optim.Muon([w], lr=0.1, weight_decay=0.0)
    >>> w.grad = ember.eye(2)
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([[0.8875, 0.0000],
            [0.0000, 0.8875]], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float = 1e-3, weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B,
                                                                DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS,
                 adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum,
                    "nesterov": nesterov, "ns_coefficients": ns_coefficients, "eps": eps,
                    "ns_steps": ns_steps, "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {p.size()}")

    @_no_grad
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if p.is_complex():
                    raise RuntimeError("Muon does not support complex parameters")
                if p.grad.is_sparse:
                    raise RuntimeError("Muon does not support sparse gradients")
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = _F.zeros_like(p.grad)
            lr = _get_value(_to_scalar(group["lr"]))
            momentum = group["momentum"]
            for p in params:
                grad = p.grad
                if grad.ndim != 2:
                    raise ValueError("Param gradient must be a 2D matrix")
                buf = self.state[p]["momentum_buffer"]
                _k_lerp_(_arr(buf), _arr(grad), 1 - momentum)
                _bump(buf)
                if group["nesterov"]:
                    update = grad.clone()
                    _k_lerp_(_arr(update), _arr(buf), momentum)
                else:
                    update = buf
                update = _zeropower_via_newtonschulz(update, group["ns_coefficients"],
                                                     group["ns_steps"], group["eps"])
                adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], p.shape)
                a = _arr(p)
                _k_mul_(a, 1 - lr * group["weight_decay"])
                _k_add_(a, _arr(update).astype(a.dtype), -adjusted_lr)
                _bump(p)
        return loss


del annotations  # keep dir() to torch's names
