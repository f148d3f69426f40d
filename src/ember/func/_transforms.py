"""``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` on the
eager autograd graph.

Each transform differentiates fresh aliases of its inputs. Inside another transform (or when
an input already takes part in a graph, or the function closes over a tensor that requires
grad, as a module's parameters) it keeps the graph of what it returns (``create_graph``), so
transforms compose (``grad(grad(f))``, ``jacfwd(jacrev(f))``) and ordinary autograd reaches
through them; otherwise its results are plain tensors, as torch.func's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .._tensor import Tensor
from ..autograd import grad_mode
from ..utils._pytree import tree_flatten, tree_map, tree_unflatten

_depth = [0]     # how many transforms are running (nesting)


def _alias(x):
    """A tensor to differentiate with respect to: ``x`` itself joins the graph."""
    if not isinstance(x, Tensor):
        return x
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_(True)


def _nested(leaves) -> bool:
    """Whether results must keep their graph: inside another transform, or for inputs that
    already take part in one (torch.func composes with ordinary autograd)."""
    return _depth[0] > 1 or any(isinstance(x, Tensor) and x.requires_grad for x in leaves)


def _reaches_outer(outputs, leaves) -> bool:
    """Whether ``outputs`` depend on a tensor that requires grad outside the transform (a
    closed-over parameter): torch.func then keeps their graph for ordinary autograd."""
    from ..autograd.graph import AccumulateGrad
    own = {id(x) for x in leaves}
    stack = [o.grad_fn for o in outputs if isinstance(o, Tensor) and o.grad_fn is not None]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in own:
                return True
            continue
        stack.extend(nxt for nxt, _ in node.next_functions)
    return False


def _finish(x, keep: bool):
    if isinstance(x, Tensor) and not keep:
        return x.detach()
    return x


def _grads(outputs, inputs, cotangents, keep: bool):
    """d(outputs)/d(inputs) against ``cotangents``: zeros for inputs not used."""
    from .. import autograd
    from .._factories import zeros_like
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if not pairs or not inputs:
        return [zeros_like(x) for x in inputs]
    gs = autograd.grad([o for o, _ in pairs], inputs, [c for _, c in pairs],
                       create_graph=keep, retain_graph=True, allow_unused=True)
    return [zeros_like(x) if g is None else g for g, x in zip(gs, inputs)]


class _Transform:
    """Counts the depth of nested transforms and enables grad inside them."""

    def __enter__(self):
        _depth[0] += 1
        self._mode = grad_mode.enable_grad()
        self._mode.__enter__()

    def __exit__(self, *exc):
        self._mode.__exit__(*exc)
        _depth[0] -= 1


def _argnums_inputs(args, argnums):
    if isinstance(argnums, int):
        if not -len(args) <= argnums < len(args):
            raise RuntimeError(f"Got argnum={argnums}, but only {len(args)} positional inputs")
        return argnums % len(args)
    if isinstance(argnums, tuple):
        if len(argnums) == 0:
            raise RuntimeError("argnums must be non-empty")
        if len(set(argnums)) != len(argnums):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
        return tuple(_argnums_inputs(args, a) for a in argnums)
    raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")


def _wrap_args(args, argnums):
    """The args with the differentiated ones aliased, and those (flat, with structure)."""
    idx = _argnums_inputs(args, argnums)
    picked = args[idx] if isinstance(idx, int) else tuple(args[i] for i in idx)
    leaves, spec = tree_flatten(picked)
    keep = _nested(leaves)
    leaves = [_alias(x) for x in leaves]
    diff = tree_unflatten(leaves, spec)
    args = list(args)
    if isinstance(idx, int):
        args[idx] = diff
    else:
        for i, d in zip(idx, diff):
            args[i] = d
    return args, leaves, spec, keep


def grad_and_value(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """``(gradient, value)`` of a scalar-valued ``func`` with respect to ``argnums``."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _Transform():
            args, leaves, spec, keep = _wrap_args(args, argnums)
            out = func(*args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError("grad_and_value(f)(*args): output of function f should "
                                       "be a tuple: (output, aux) if has_aux is True")
                out, aux = out
            if not isinstance(out, Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"scalar Tensor, got tensor with {out.dim()} dims. Maybe you "
                                   "wanted to use the vjp or jacrev APIs instead?")
            from .._factories import ones_like
            keep = keep or _reaches_outer([out], leaves)
            gs = _grads([out], leaves, [ones_like(out)], keep)
            g = tree_unflatten([_finish(x, keep) for x in gs], spec)
            value = _finish(out, keep)
            if has_aux:
                return g, (value, tree_map(lambda t: _finish(t, keep), aux))
            return g, value
    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """The gradient of a scalar-valued ``func`` with respect to ``argnums`` (``torch.func``)."""
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapper


def vjp(func: Callable, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``; ``vjp_fn(cotangents)`` gives one gradient per primal."""
    with _Transform():
        leaves, spec = tree_flatten(primals)
        keep = _nested(leaves)
        leaves = [_alias(x) for x in leaves]
        out = func(*tree_unflatten(leaves, spec))
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            out, aux = out
        outs, out_spec = tree_flatten(out)
        for o in outs:
            if not isinstance(o, Tensor):
                raise RuntimeError("vjp(f, *primals): Expected f(*primals) to return only "
                                   f"tensors, got unsupported type {type(o)}")
        keep = keep or _reaches_outer(outs, leaves)

    def vjp_fn(*cotangents):
        cts = cotangents[0] if len(cotangents) == 1 and out_spec.is_leaf() else cotangents
        flat, ct_spec = tree_flatten(cts)
        if len(flat) != len(outs):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function.")
        with _Transform():
            gs = _grads(outs, leaves, flat, keep or _depth[0] > 1)
        return tree_unflatten([_finish(g, keep or _depth[0] > 0) for g in gs], spec)

    result = tree_unflatten([_finish(o, keep) for o in outs], out_spec)
    if has_aux:
        return result, vjp_fn, tree_map(lambda t: _finish(t, keep), aux)
    return result, vjp_fn


def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J·tangents)`` by the double-vjp trick (a linear map's transpose
    transposed)."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it "
                           "should be valid to call f(*primals).")
    if not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected tangents to be a tuple. E.g. "
                           "it should be valid to call f(*tangents).")
    p_leaves, spec = tree_flatten(primals)
    t_leaves, t_spec = tree_flatten(tangents)
    if len(p_leaves) != len(t_leaves):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                           "the same python structure.")
    from .._factories import zeros_like
    with _Transform():
        keep = _nested(p_leaves) or _depth[0] > 1
        leaves = [_alias(x) for x in p_leaves]
        out = func(*tree_unflatten(leaves, spec))
        aux = None
        if has_aux:
            out, aux = out
        outs, out_spec = tree_flatten(out)
        keep = keep or _reaches_outer(outs, leaves)
        us = [zeros_like(o).requires_grad_(True) for o in outs]
        gs = _grads(outs, leaves, us, True)
        used = [(g, t) for g, t in zip(gs, t_leaves) if g.requires_grad]
        from .. import autograd
        if used:
            jv = autograd.grad([g for g, _ in used], us, [t for _, t in used],
                               create_graph=keep, allow_unused=True)
        else:
            jv = [None] * len(us)
        jv = [zeros_like(o) if j is None else j for j, o in zip(jv, outs)]
    res = (tree_unflatten([_finish(o, keep) for o in outs], out_spec),
           tree_unflatten([_finish(j, keep) for j in jv], out_spec))
    if has_aux:
        return (*res, tree_map(lambda t: _finish(t, keep), aux))
    return res


def linearize(func: Callable, *primals) -> tuple:
    """``(func(*primals), jvp_fn)``, where ``jvp_fn(*tangents)`` is the Jacobian-vector product
    of ``func`` at ``primals`` (tangents shaped, typed and nested as the primals)."""
    output = func(*primals)
    flat_primals, primals_spec = tree_flatten(primals)
    meta = [(p.shape, p.device, p.dtype) for p in flat_primals]

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangents_spec} to have the same "
                               f"argspec as the primals {primals_spec}")
        for idx, (t, m) in enumerate(zip(flat_tangents, meta)):
            for what, have, want in zip(("shape", "device", "dtype"),
                                        (t.shape, t.device, t.dtype), m):
                if have != want:
                    raise RuntimeError(f"tangent:{idx} with {what} {have} in flattened pytree "
                                       f"doesn't match the {what} {want} of the corresponding "
                                       "primal.")
        return jvp(func, primals, tangents)[1]
    return output, jvp_fn


def jacrev(func: Callable, argnums=0, *, has_aux: bool = False, chunk_size=None,
           _preallocate_and_copy: bool = False) -> Callable:
    """The Jacobian of ``func`` with respect to ``argnums``: ``out.shape + in.shape`` for each
    (output, input), computed row by row with reverse mode."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _Transform():
            args, leaves, spec, keep = _wrap_args(args, argnums)
            keep = keep or _depth[0] > 1
            out = func(*args, **kwargs)
            aux = None
            if has_aux:
                out, aux = out
            outs, out_spec = tree_flatten(out)
            keep = keep or _reaches_outer(outs, leaves)
            jac_per_out = []
            for o in outs:
                rows = [[] for _ in leaves]
                flat = o.reshape(-1)
                for k in range(flat.numel()):
                    from .._factories import zeros_like
                    ct = zeros_like(flat)
                    ct[k] = 1
                    gs = _grads([flat], leaves, [ct], keep)
                    for r, g in zip(rows, gs):
                        r.append(g)
                from .._factories import zeros
                from .._ops import stack
                jacs = []
                for r, x in zip(rows, leaves):
                    j = stack(r) if r else zeros(0, *x.shape, dtype=x.dtype)
                    jacs.append(_finish(j.reshape(*o.shape, *x.shape), keep))
                jac_per_out.append(tree_unflatten(jacs, spec))
        result = tree_unflatten(jac_per_out, out_spec)
        if has_aux:
            return result, tree_map(lambda t: _finish(t, keep), aux)
        return result
    return wrapper


def jacfwd(func: Callable, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` with respect to ``argnums`` (the same matrix as
    :func:`jacrev`, which computes it)."""
    return jacrev(func, argnums, has_aux=has_aux)


def hessian(func: Callable, argnums=0) -> Callable:
    """The Hessian of a scalar ``func``: ``jacfwd(jacrev(func))``."""
    return jacfwd(jacrev(func, argnums), argnums)
