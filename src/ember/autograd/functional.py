"""Higher-level autograd: ``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``hvp``, ``vhp``.

As ``torch.autograd.functional``: each runs the user's function on fresh copies of the
inputs that require grad and builds what it returns from reverse-mode passes (``jvp`` by
the double-vjp trick). ``vectorize`` and ``strategy`` are checked as torch checks them; the
rows are computed one by one. Results are detached unless ``create_graph``.
"""

from __future__ import annotations

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tensor_cls():
    from .._tensor import Tensor
    return Tensor


def _as_tuple(x, arg, fn):
    T = _tensor_cls()
    is_tuple = isinstance(x, tuple)
    xs = x if is_tuple else (x,)
    for i, el in enumerate(xs):
        if not isinstance(el, T):
            where = f"The {arg} given to {fn}" if is_tuple else f"The {arg} given to {fn}"
            raise TypeError(f"{where} must be either a Tensor or a tuple of Tensors but the "
                            f"value at index {i} has type {type(el)}.")
    return is_tuple, xs


def _prep(inputs, create_graph):
    out = []
    for x in inputs:
        if create_graph and x.requires_grad:
            out.append(x.view_as(x))
        else:
            out.append(x.detach().requires_grad_(True))
    return tuple(out)


def _grad(outputs, inputs, grad_outputs, create_graph, retain_graph=True):
    from . import grad as autograd_grad
    outs, gos = [], []
    for o, g in zip(outputs, grad_outputs):
        if o is not None and o.requires_grad:
            outs.append(o)
            gos.append(g)
    if not outs:
        return (None,) * len(inputs)
    return autograd_grad(outs, inputs, gos, retain_graph=retain_graph,
                         create_graph=create_graph, allow_unused=True)


def _fill(grads, refs, create_graph, strict, kind):
    from .._factories import zeros_like
    out = []
    for i, (g, r) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_independent(kind, i))
            g = zeros_like(r)
        out.append(g if create_graph else g.detach())
    return tuple(out)


def _independent(kind, i):
    if kind == "back":
        return (f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode.")
    return (f"The gradient with respect to input {i} is independent of the inputs of the "
            "user-provided function. This is not allowed in strict mode.")


def _check_outputs(outputs, strict, create_graph):
    if strict:
        for i, o in enumerate(outputs):
            if not o.requires_grad:
                raise RuntimeError(f"Output {i} of the user-provided function does not require "
                                   "gradients. The outputs must be computed in a differentiable "
                                   "manner from the input when running in strict mode.")


def _run(func, inputs, create_graph, name):
    from . import grad_mode
    with grad_mode.enable_grad():
        out = func(*inputs)
    is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", name)
    return is_tuple, outs


def _v(v, refs, is_tuple, what, name):
    T = _tensor_cls()
    if v is None:
        if len(refs) != 1 or refs[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} "
                               "single Tensor with a single element.")
        from .._factories import ones_like
        return (ones_like(refs[0]),)
    vs = v if isinstance(v, tuple) else (v,)
    if len(vs) != len(refs):
        if not is_tuple:
            raise RuntimeError("The given v should contain a single Tensor.")
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(refs)} but got "
                           f"{len(vs)}.")
    for i, (a, b) in enumerate(zip(vs, refs)):
        if not isinstance(a, T):
            raise TypeError(f"The v given to {name} must be either a Tensor or a tuple of "
                            f"Tensors but the value at index {i} has type {type(a)}.")
        if tuple(a.shape) != tuple(b.shape):
            entry = f"Entry {i} in " if is_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {b.shape} but got "
                               f"{a.shape}.")
    return vs


def _pack(is_tuple, xs):
    return tuple(xs) if is_tuple else xs[0]


def _detach_all(xs, create_graph):
    return tuple(x if create_graph else x.detach() for x in xs)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``.

    >>> import ember
    >>> ember.autograd.functional.vjp(lambda x: x ** 2, ember.ones(2), ember.ones(2))[1]
    tensor([2., 2.])
    """
    in_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
    xs = _prep(xs, create_graph)
    out_tuple, outs = _run(func, xs, create_graph, "vjp")
    _check_outputs(outs, strict, create_graph)
    vs = _v(v, outs, out_tuple, "user-provided function returns a", "vjp")
    grads = _grad(outs, xs, vs, create_graph)
    res = _fill(grads, xs, create_graph, strict, "back")
    return _pack(out_tuple, _detach_all(outs, create_graph)), _pack(in_tuple, res)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-vjp trick.

    >>> import ember
    >>> ember.autograd.functional.jvp(lambda x: x ** 2, ember.ones(2), ember.ones(2))[1]
    tensor([2., 2.])
    """
    from .._factories import zeros_like
    in_tuple, xs = _as_tuple(inputs, "inputs", "jvp")
    xs = _prep(xs, create_graph)
    vs = _v(v, xs, in_tuple, "input to the user-provided function is a", "jvp")
    out_tuple, outs = _run(func, xs, create_graph, "jvp")
    _check_outputs(outs, strict, create_graph)
    from . import grad_mode
    with grad_mode.enable_grad():
        us = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        gi = _grad(outs, xs, us, create_graph=True)
        pairs = [(g, v_) for g, v_ in zip(gi, vs) if g is not None and g.requires_grad]
        if pairs:
            from . import grad as autograd_grad
            res = autograd_grad([p[0] for p in pairs], us, [p[1] for p in pairs],
                                create_graph=create_graph, allow_unused=True)
        else:
            res = (None,) * len(us)
    out = _fill(res, outs, create_graph, strict, "fwd")
    return _pack(out_tuple, _detach_all(outs, create_graph)), _pack(out_tuple, out)


def _check_strategy(strategy, create_graph, strict, vectorize, message) -> bool:
    """torch's checks of a ``strategy`` argument; True for forward mode."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise AssertionError(message)
    if strategy == "reverse-mode":
        return False
    if create_graph:
        raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                  '`strategy="forward-mode"` are not supported together (yet). '
                                  'Please either set `create_graph=False` or '
                                  '`strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                           '`strategy="forward-mode"` are not supported together (yet). Please '
                           'either set `strict=False` or `strategy="reverse-mode"`.')
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    return True


_JACOBIAN_STRATEGY = ('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: '
                      'If your function has more outputs than inputs, "forward-mode" tends to '
                      'be more performant. Otherwise, prefer to use "reverse-mode".')


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: ``out.shape + in.shape`` per (output, input).

    >>> import ember
    >>> ember.autograd.functional.jacobian(lambda x: x * 2, ember.ones(2))
    tensor([[2., 0.],
            [0., 2.]])
    """
    forward = _check_strategy(strategy, create_graph, strict, vectorize, _JACOBIAN_STRATEGY)
    return _jacobian(func, inputs, create_graph, strict, forward)


def _jacobian(func, inputs, create_graph, strict, forward):
    """The Jacobian by reverse-mode rows; ``forward`` lays each block out as torch's
    forward mode does (the input's elements batched first, then permuted last)."""
    from .. import _ops
    from .._factories import zeros
    in_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
    xs = _prep(xs, create_graph)
    out_tuple, outs = _run(func, xs, create_graph, "jacobian")
    _check_outputs(outs, strict, create_graph)
    result = []
    for i, o in enumerate(outs):
        rows = [[] for _ in xs]
        flat = o.reshape(-1)
        for k in range(flat.shape[0]):
            g = _grad((flat[k],), xs, (None,), create_graph) if flat.requires_grad else \
                (None,) * len(xs)
            for j, (gj, x) in enumerate(zip(g, xs)):
                if gj is None:
                    if strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is "
                                           f"independent of input {j}. This is not allowed in "
                                           "strict mode.")
                    gj = zeros(x.shape, dtype=x.dtype)
                rows[j].append(gj if create_graph else gj.detach())
        per_in = []
        for j, x in enumerate(xs):
            if rows[j]:
                jac = _ops.stack(rows[j]).reshape(tuple(o.shape) + tuple(x.shape))
            else:
                jac = zeros(tuple(o.shape) + tuple(x.shape), dtype=x.dtype)
            if forward:
                cols = jac.reshape(o.numel(), x.numel()).t().contiguous()
                cols = cols.reshape((x.numel(),) + tuple(o.shape))
                jac = cols.permute(*range(1, cols.dim()), 0).reshape(tuple(o.shape)
                                                                     + tuple(x.shape))
            per_in.append(jac)
        result.append(_pack(in_tuple, per_in))
    if forward and in_tuple:             # torch's forward mode nests lists, not tuples
        result = [list(r) for r in result]
        return result if out_tuple else result[0]
    return _pack(out_tuple, result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function ``func`` at ``inputs``.

    With ``outer_jacobian_strategy="forward-mode"`` (forward over reverse) the result, as
    torch's, carries the graph of the inner Jacobian.

    >>> import ember
    >>> ember.autograd.functional.hessian(lambda x: (x ** 3).sum(), ember.ones(2))
    tensor([[6., 0.],
            [0., 6.]])
    """
    in_tuple, xs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    forward = _check_strategy(outer_jacobian_strategy, create_graph, strict, vectorize, "")

    def jac_func(*inp):
        out = func(*inp)
        _, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "containing a single element.")
        return jacobian(func, inp, create_graph=True, strict=strict)

    res = _jacobian(jac_func, xs, create_graph or forward, strict, forward)
    if not in_tuple:
        return res[0][0]
    return res


def _hv(func, inputs, v, create_graph, strict, name, transpose):
    in_tuple, xs = _as_tuple(inputs, "inputs", name)
    xs = _prep(xs, create_graph)
    vs = _v(v, xs, in_tuple, "input to the user-provided function is a", name)
    out_tuple, outs = _run(func, xs, create_graph, name)
    if out_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should "
                           "contain a single element")
    _check_outputs(outs, strict, create_graph)
    from . import grad_mode
    with grad_mode.enable_grad():
        jac = _grad(outs, xs, (None,), create_graph=True)
        pairs = [(g, v_, x) for g, v_, x in zip(jac, vs, xs) if g is not None]
        from . import grad as autograd_grad
        if pairs and any(p[0].requires_grad for p in pairs):
            res = autograd_grad([p[0] for p in pairs if p[0].requires_grad], xs,
                                [p[1] for p in pairs if p[0].requires_grad],
                                create_graph=create_graph, allow_unused=True)
        else:
            res = (None,) * len(xs)
    out = _fill(res, xs, create_graph, strict, "double")
    return _detach_all(outs, create_graph)[0], _pack(in_tuple, out)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)`` for a scalar ``func``."""
    return _hv(func, inputs, v, create_graph, strict, "vhp", False)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar ``func`` (H is symmetric: same as ``vhp``)."""
    return _hv(func, inputs, v, create_graph, strict, "hvp", True)


del annotations  # keep dir() to torch's names
