"""SparseAdam: Adam restricted to the entries a sparse gradient touches.

Ember's layers give dense gradients (``nn.Embedding(sparse=True)`` too), for which ``step``
raises torch's error; a sparse gradient (a sparse leaf's) is refused as not implemented;
construction, parameter checks and the state dict are torch's.
"""

from __future__ import annotations

from .._tensor import Tensor
from .optimizer import Optimizer, ParamsT, _no_grad_step, _run_closure

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Implements a masked version of Adam, for sparse gradients (``nn.Embedding(sparse=True)``).

    >>> import ember
    >>> w = ember.nn.Parameter(ember.ones(2))
    >>> opt = ember.optim.SparseAdam([w])
    >>> opt.defaults["betas"]
    (0.9, 0.999)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    @_no_grad_step
    def step(self, closure=None):
        """Perform a single optimization step; ``closure`` re-evaluates the loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and not p.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
                if p.grad is not None:
                    raise NotImplementedError("SparseAdam's update of sparse gradients is not "
                                              "in Ember")
        return loss


del annotations  # keep dir() to torch's names
