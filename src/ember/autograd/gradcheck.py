"""Numerical gradient checks: ``gradcheck`` and ``gradgradcheck``, as torch's.

Central differences over every element of every input that requires grad, compared with
the analytical Jacobian from reverse mode, column by column of the output.
"""

from __future__ import annotations

import numpy as _np


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the numerical and analytical gradients differ."""


def _float64():
    from .._dtype import float64
    return float64


def _tuple(x):
    from .._tensor import Tensor
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _outputs(fn, inputs):
    from .._tensor import Tensor
    return tuple(o for o in _tuple(fn(*inputs)) if isinstance(o, Tensor))


def _parts(a) -> _np.ndarray:
    """An output's values as reals: a complex one's real parts, then its imaginary parts."""
    a = a.ravel()
    if a.dtype.kind == "c":
        return _np.concatenate([a.real, a.imag]).astype(_np.float64)
    return a.astype(_np.float64)


def _directions(a) -> tuple:
    """The perturbation directions of an input: a complex one's real and imaginary axes."""
    return (1.0, 1j) if a.dtype.kind == "c" else (1.0,)


def _numerical(fn, inputs, diff, outputs, eps):
    """d(outputs)/d(inputs[i]) by central differences: {(input, output): matrix}, one row per
    (direction, element) of the input and one column per (part, element) of the output (a
    complex tensor counts as its real and imaginary parts, as torch's slow mode checks it)."""
    jac = {}
    # perturb the arrays themselves (no version bump); fn may itself need autograd, as
    # gradgradcheck's first-derivative function does
    for i in diff:
        x = inputs[i]._data        # (a view of the input's storage, strided or not)
        dirs = _directions(x)
        cols = [_np.zeros((x.size * len(dirs), _parts(o._data).size), _np.float64)
                for o in outputs]
        for d, step in enumerate(dirs):
            for k, idx in enumerate(_np.ndindex(x.shape)):
                orig = x[idx].copy()
                x[idx] = orig + eps * step
                plus = [_parts(o._data).copy() for o in _outputs(fn, inputs)]
                x[idx] = orig - eps * step
                minus = [_parts(o._data).copy() for o in _outputs(fn, inputs)]
                x[idx] = orig
                for j in range(len(outputs)):
                    cols[j][d * x.size + k] = (plus[j] - minus[j]) / (2 * eps)
        for j in range(len(outputs)):
            jac[(i, j)] = cols[j]
    return jac


def _combined(m: _np.ndarray, x) -> _np.ndarray:
    """A Jacobian's rows for a complex input folded into complex entries: the derivative along
    the real axis plus 1j times the one along the imaginary axis (torch's layout)."""
    if x._data.dtype.kind != "c":
        return m
    half = m.shape[0] // 2
    out = _np.empty((half, m.shape[1]), _np.complex128)
    out.real, out.imag = m[:half], m[half:]      # (keeps the sign of a zero)
    return out


def _analytical(inputs, diff, out):
    """d(out)/d(inputs[i]) from one backward call per (part, element) of ``out`` (a grad_output
    of 1 for its real part, 1j for its imaginary part): {i: matrix} laid out as
    :func:`_numerical`'s (a complex input's gradient: real part, then imaginary part)."""
    from .._tensor import Tensor
    from . import grad as autograd_grad
    n = out._data.size
    parts = _directions(out._data)
    cols = {i: _np.zeros((inputs[i]._data.size * len(_directions(inputs[i]._data)),
                          n * len(parts))) for i in diff}
    if not out.requires_grad:
        return cols
    for p, unit in enumerate(parts):
        for k in range(n):
            g = _np.zeros(out._data.shape, out._data.dtype)
            g.reshape(-1)[k] = unit
            grads = autograd_grad(out, [inputs[i] for i in diff], Tensor._wrap(g),
                                  retain_graph=True, allow_unused=True)
            for i, gr in zip(diff, grads):
                if gr is not None:
                    cols[i][:, p * n + k] = _parts(gr._data)
    return cols


def _analytical_forward(func, inputs, diff, outputs):
    """d(outputs)/d(inputs[i]) by forward mode, one basis tangent per element of each input:
    {(i, j): matrix} laid out as ``_numerical``'s."""
    from .._tensor import Tensor
    from . import forward_ad
    jac = {}
    for i in diff:
        x = inputs[i]
        n = x._data.size
        dirs = _directions(x._data)
        cols = [_np.zeros((n * len(dirs), _parts(o._data).size)) for o in outputs]
        for d, step in enumerate(dirs):
            for k in range(n):
                t = _np.zeros(x._data.shape, x._data.dtype)
                t.reshape(-1)[k] = step
                with forward_ad.dual_level():
                    args = list(inputs)
                    args[i] = forward_ad.make_dual(x.detach(), Tensor._wrap(t))
                    for j, o in enumerate(_outputs(func, args)):
                        tangent = forward_ad.unpack_dual(o).tangent
                        if tangent is not None:
                            cols[j][d * n + k] = _parts(tangent._data)
        for j in range(len(outputs)):
            jac[(i, j)] = cols[j]
    return jac


def _zero_grads_give_zero(outputs, diff_inputs, message: str) -> None:
    """Backward with zero output gradients must give zero (or no) input gradients."""
    from .._factories import zeros_like
    from . import grad as autograd_grad
    outputs = [o for o in outputs if o.requires_grad]
    if not outputs:
        return
    grads = autograd_grad(outputs, diff_inputs, [zeros_like(o) for o in outputs],
                          allow_unused=True)
    for g in grads:
        if g is not None and g._data.any():
            raise GradcheckError(message)


_NOT_REENTRANT = (
    "Backward is not reentrant, i.e., running backward with same input and grad_output "
    "multiple times gives different values, although analytical gradient matches numerical "
    "gradient.The tolerance for nondeterminism was {}.\n\nNOTE: If your op relies on "
    "non-deterministic operations i.e., it is listed here:\n"
    "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
    "this failure might be expected.\n\nIf you are adding a new operator, please file an issue "
    "and then use one of the\nworkarounds. The workaround depends on how your test invokes "
    "gradcheck/gradgradcheck.\nIf the test\n- manually invokes gradcheck/gradgradcheck, then "
    "call gradcheck/gradgradcheck\n  with `nondet_tol=<tol>` as a keyword argument.\n- is "
    "OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n  to "
    "have `gradcheck_nondet_tol=<tol>`.\n- is a Module test (e.g., in common_nn.py), then "
    "modify the corresponding\n  module_test entry to have `gradcheck_nondet_tol=<tol>`\n")


def _check_inputs(inputs) -> None:
    """torch's checks of gradcheck's inputs: a warning for each one requiring grad in a
    precision below double, an error when none requires grad."""
    import warnings

    from .._tensor import Tensor
    any_input_requiring_grad = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, Tensor) and inp.requires_grad:
            if inp._data.dtype.char not in "dD":
                warnings.warn(
                    f"Input #{idx} requires gradient and is not a double precision floating "
                    "point or complex. This check will likely fail if all the inputs are not "
                    "of double precision floating point or complex. ", stacklevel=3)
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.size())):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                    "inputs that are non-overlapping to be able to compute the numerical "
                    "gradients correctly. You should call .contiguous on the input before "
                    "passing it to gradcheck.")
            any_input_requiring_grad = True
    if not any_input_requiring_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad=True,
              check_grad_dtypes=False, check_batched_grad=False, fast_mode=False,
              check_forward_ad=False, check_backward_ad=True, **kwargs) -> bool:
    """Check reverse-mode (``check_backward_ad``) and forward-mode (``check_forward_ad``)
    gradients of ``func`` against finite differences (use float64).

    >>> import ember
    >>> x = ember.randn(3, dtype=ember.float64, requires_grad=True)
    >>> ember.autograd.gradcheck(ember.sin, (x,))
    True
    """
    from .._tensor import Tensor
    inputs = _tuple(inputs)
    _check_inputs(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    outputs = _outputs(func, inputs)
    numerical = _numerical(func, inputs, diff, outputs, eps)
    # torch's order: per output, the analytical Jacobian twice (a backward that gives other
    # values the second time is not reentrant), then the comparison with the numerical one;
    # with complex outputs, a pass over their imaginary parts first, then one over their real
    # parts (real outputs are checked whole in each pass)
    analyticals = {}
    passes = (("imaginary", 1), ("real", 0)) if any(o.is_complex() for o in outputs) \
        else ((None, 0),)
    for which, part in passes if check_backward_ad else ():
        for j, out in enumerate(outputs):
            if j not in analyticals:
                analytical = _analytical(inputs, diff, out)
                again = _analytical(inputs, diff, out)
                for i in diff:
                    if _np.abs(analytical[i] - again[i]).max(initial=0.0) > nondet_tol:
                        if raise_exception:
                            raise GradcheckError(_NOT_REENTRANT.format(nondet_tol))
                        return False
                analyticals[j] = analytical
            cplx_out = out.is_complex()
            n = out._data.size
            cols = slice(part * n, (part + 1) * n) if cplx_out else slice(None)
            for i in diff:
                num = _combined(numerical[(i, j)][:, cols], inputs[i])
                ana = _combined(analyticals[j][i][:, cols], inputs[i])
                if not _np.allclose(ana, num, rtol=rtol, atol=atol):
                    if raise_exception:
                        # printed as torch prints them: the numerical Jacobian in the output's
                        # (real) dtype, complex for a complex input, the analytical one in the
                        # input's dtype
                        real_out = _np.real(_np.zeros(0, out._data.dtype)).dtype
                        num_t = Tensor._wrap(num.astype(_np.result_type(real_out, num.dtype)))
                        ana_t = Tensor._wrap(ana.astype(inputs[i]._data.dtype))
                        prefix = (f"While considering the {which} part of complex outputs only, "
                                  if cplx_out else "")
                        raise GradcheckError(
                            f"{prefix}Jacobian mismatch for output {j} with respect to input "
                            f"{i},\nnumerical:{num_t}\nanalytical:{ana_t}\n")
                    return False
    if check_forward_ad:
        forward = _analytical_forward(func, inputs, diff, outputs)
        for j, out in enumerate(outputs):
            for i in diff:
                num, ana = numerical[(i, j)], forward[(i, j)]
                if not _np.allclose(ana, num, rtol=rtol, atol=atol):
                    if raise_exception:
                        num_t = Tensor._wrap(num.astype(out._data.dtype))
                        ana_t = Tensor._wrap(ana.astype(inputs[i]._data.dtype))
                        raise GradcheckError(
                            f"Jacobian computed with forward mode mismatch for output {j} with "
                            f"respect to input {i},\nnumerical:{num_t}\nanalytical:{ana_t}\n")
                    return False
    if not check_backward_ad:
        return True
    diff_inputs = [inputs[i] for i in diff]
    try:
        _zero_grads_give_zero(outputs, diff_inputs, "backward not multiplied by grad_output")
        if check_undefined_grad:
            # torch passes undefined gradients, which reach a Function's backward as zeros
            _zero_grads_give_zero(
                _outputs(func, inputs), diff_inputs,
                "Expected all input grads to be undefined or zero when all output grads are "
                "undefined or zero. Please look at \"Notes about undefined output gradients\" "
                "in \"tools/autograd/derivatives.yaml\"")
    except GradcheckError:
        if raise_exception:
            raise
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
        # torch's: uniform in [-1, 1) from the global generator (which they advance)
        from ..testing import make_tensor
        grad_outputs = tuple(
            make_tensor(o.shape, dtype=o.dtype if o.is_floating_point() or o.is_complex()
                        else _float64(), device=o.device, low=-1, high=1, requires_grad=True,
                        noncontiguous=gen_non_contig_grad_outputs)
            for o in outputs)
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
