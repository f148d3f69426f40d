"""Numerical gradient checks: ``gradcheck`` and ``gradgradcheck``, as torch's.

Central differences over every element of every input that requires grad, compared with
the analytical Jacobian from reverse mode, column by column of the output.
"""

from __future__ import annotations

import numpy as np


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the numerical and analytical gradients differ."""


def _tuple(x):
    from .._tensor import Tensor
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _outputs(fn, inputs):
    from .._tensor import Tensor
    return tuple(o for o in _tuple(fn(*inputs)) if isinstance(o, Tensor))


def _numerical(fn, inputs, diff, outputs, eps):
    """d(outputs)/d(inputs[i]) by central differences: list over (input, output) pairs."""
    jac = {}
    # perturb the arrays themselves (no version bump); fn may itself need autograd, as
    # gradgradcheck's first-derivative function does
    for i in diff:
        x = inputs[i]._data
        flat = x.reshape(-1) if x.flags.c_contiguous else None
        if flat is None:
            raise ValueError("gradcheck expects contiguous inputs")
        cols = [np.zeros((x.size, o._data.size), np.float64) for o in outputs]
        for k in range(x.size):
            orig = flat[k].copy()
            flat[k] = orig + eps
            plus = [o._data.astype(np.float64).ravel().copy() for o in _outputs(fn, inputs)]
            flat[k] = orig - eps
            minus = [o._data.astype(np.float64).ravel().copy() for o in _outputs(fn, inputs)]
            flat[k] = orig
            for j in range(len(outputs)):
                cols[j][k] = (plus[j] - minus[j]) / (2 * eps)
        for j in range(len(outputs)):
            jac[(i, j)] = cols[j]
    return jac


def _analytical(inputs, diff, outputs):
    from .._tensor import Tensor
    from . import grad as autograd_grad
    jac = {}
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            for i in diff:
                jac[(i, j)] = np.zeros((inputs[i]._data.size, out._data.size))
            continue
        n = out._data.size
        cols = {i: np.zeros((inputs[i]._data.size, n)) for i in diff}
        for k in range(n):
            g = np.zeros(out._data.shape, out._data.dtype)
            g.reshape(-1)[k] = 1
            grads = autograd_grad(out, [inputs[i] for i in diff], Tensor._wrap(g),
                                  retain_graph=True, allow_unused=True)
            for i, gr in zip(diff, grads):
                if gr is not None:
                    cols[i][:, k] = gr._data.astype(np.float64).ravel()
        for i in diff:
            jac[(i, j)] = cols[i]
    return jac


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad=True,
              check_grad_dtypes=False, check_batched_grad=False, fast_mode=False, **kwargs) -> bool:
    """Check reverse-mode gradients of ``func`` against finite differences (use float64).

    >>> import ember
    >>> x = ember.randn(3, dtype=ember.float64, requires_grad=True)
    >>> ember.autograd.gradcheck(ember.sin, (x,))
    True
    """
    from .._tensor import Tensor
    inputs = _tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    outputs = _outputs(func, inputs)
    numerical = _numerical(func, inputs, diff, outputs, eps)
    analytical = _analytical(inputs, diff, outputs)
    for key, num in numerical.items():
        ana = analytical[key]
        if not np.allclose(ana, num, rtol=rtol, atol=atol):
            if raise_exception:
                raise GradcheckError(
                    f"Jacobian mismatch for output {key[1]} with respect to input {key[0]},\n"
                    f"numerical:{num}\nanalytical:{ana}\n")
            return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception: bool = True, **kwargs) -> bool:
    """Check second derivatives: gradcheck of the function ``inputs -> grad(func)``."""
    from .._tensor import Tensor
    from . import grad as autograd_grad
    inputs = _tuple(inputs)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            Tensor._wrap(rng.standard_normal(o._data.shape).astype(o._data.dtype))
            .requires_grad_() for o in outputs)
    grad_outputs = _tuple(grad_outputs)
    n = len(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def first_grads(*args):
        ins, gos = args[:n], args[n:]
        outs = _outputs(func, ins)
        gs = autograd_grad(outs, [ins[i] for i in diff], gos, create_graph=True,
                           allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


del annotations  # keep dir() to torch's names
