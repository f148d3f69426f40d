"""``ember.func``: torch.func's function transforms on the eager autograd graph."""

from __future__ import annotations

from ._batch_norm import replace_all_batch_norm_modules_
from ._functional_call import functional_call, stack_module_state
from ._transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize, vjp
from ._vmap import vmap

__all__ = ["vmap", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian",
           "functional_call", "stack_module_state", "linearize",
           "replace_all_batch_norm_modules_"]


del annotations  # keep dir() to torch's names
