"""``vmap``: map a function over a dim of its inputs.

The function runs once per batch element (on ``select``-ed slices) and the results are stacked
along ``out_dims``: the values, gradients and errors of ordinary functions are torch's; the
per-element work is not vectorised.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .. import _errors
from .._tensor import Tensor
from ..autograd import grad_mode as _grad_mode
from ..utils._pytree import tree_flatten, tree_unflatten

_RANDOMNESS = ("error", "different", "same")


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


def _broadcast_dims(in_dims, args, func):
    """One in_dim per leaf of ``args``."""
    leaves, spec = tree_flatten(args)
    if isinstance(in_dims, int) or in_dims is None:
        if not isinstance(in_dims, int):
            raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): expected "
                             "`in_dims` to be int or a (potentially nested) tuple matching the "
                             f"structure of inputs, got: {type(in_dims)}.")
        return leaves, spec, [in_dims] * len(leaves)
    if not isinstance(in_dims, tuple):
        raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): expected "
                         "`in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if len(in_dims) != len(args):
        raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): in_dims is "
                         "not compatible with the structure of `inputs`. in_dims has structure "
                         f"{tree_flatten(in_dims)[1]} but inputs has structure "
                         f"{spec}.")
    dims = []
    for d, a in zip(in_dims, args):
        sub, _ = tree_flatten(a)
        if isinstance(d, (tuple, list, dict)):
            dsub, _ = tree_flatten(d)
            if len(dsub) != len(sub):
                raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): "
                                 "in_dims is not compatible with the structure of `inputs`.")
            dims += dsub
        else:
            dims += [d] * len(sub)
    return leaves, spec, dims


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size=None) -> Callable:
    """``func`` mapped over dim ``in_dims`` of its inputs, results stacked at ``out_dims``
    (``torch.vmap`` / ``torch.func.vmap``; nested vmaps compose)."""
    if randomness not in _RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                         f"{chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        leaves, spec, dims = _broadcast_dims(in_dims, args, func)
        sizes = []
        for x, d in zip(leaves, dims):
            if d is None:
                continue
            if not isinstance(x, Tensor):
                raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got "
                                 f"in_dim={d} for an input but the input is of type {type(x)}. "
                                 "We cannot vmap over non-Tensor arguments, please use None as "
                                 "the respective in_dim")
            if not -x.dim() <= d < x.dim() or x.dim() == 0:
                raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got "
                                 f"in_dim={d} for some input, but that input is a Tensor of "
                                 f"dimensionality {x.dim()} so expected in_dim to satisfy "
                                 f"-{x.dim()} <= in_dim < {x.dim()}.")
            sizes.append(x.shape[d])
        if not sizes:
            raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): at least "
                             "one input must be a Tensor mapped over a dim (in_dim not None)")
        if len(set(sizes)) != 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        n = sizes[0]
        from .. import random as _random
        gen = _random.default_generator
        state = gen.get_state() if randomness in ("same", "error") else None
        results = []
        frame = _Frame()
        outer, _grad_mode._state.vmap = _grad_mode._state.vmap, frame
        try:
            for i in range(n):
                if randomness == "same" and i > 0:
                    after = gen.get_state()
                    gen.set_state(state)
                sliced = [x.select(d, i) if d is not None else x for x, d in zip(leaves, dims)]
                frame.slices = {id(x) for x, d in zip(sliced, dims) if d is not None}
                out = func(*tree_unflatten(sliced, spec), **kwargs)
                if randomness == "error" and not _same_state(gen.get_state(), state):
                    gen.set_state(state)       # torch refuses before drawing
                    raise RuntimeError("vmap: called random operation while in randomness "
                                       "error mode. Please either use the 'same' or "
                                       "'different' randomness flags on vmap or perform the "
                                       "randomness operation out of vmap")
                if randomness == "same" and i > 0:
                    gen.set_state(after)
                results.append(out)
        finally:
            _grad_mode._state.vmap = outer
        return _stack_outputs(results, out_dims, func, n, frame.reads)
    return wrapped


class _Frame:
    """A running vmap: the ids of the current batch element's slices (torch's batched
    tensors, whose values cannot be read), and how many values of other tensors were read."""

    __slots__ = ("slices", "reads")

    def __init__(self):
        self.slices = set()
        self.reads = 0


def _same_state(a, b) -> bool:
    return bool((a._data == b._data).all())


def _stack_outputs(results, out_dims, func, n, reads=0):
    from .._ops import stack
    flat0, spec = tree_flatten(results[0]) if results else ([], None)
    if isinstance(out_dims, int) or out_dims is None:
        odims = [out_dims] * len(flat0)
    else:
        odims, _ = tree_flatten(out_dims)
        if len(odims) != len(flat0):
            raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): "
                             "out_dims is not compatible with the structure of `outputs`. "
                             f"out_dims has structure {out_dims} but outputs has {len(flat0)} "
                             "leaves.")
    per = [tree_flatten(r)[0] for r in results]
    outs = []
    for k, d in enumerate(odims):
        items = [p[k] for p in per]
        if d is None:
            outs.append(items[0])
            continue
        for it in items:
            if not isinstance(it, Tensor):
                if reads and isinstance(it, (bool, int, float, complex)):
                    # a number read from a tensor computed from the batch: torch's
                    # batched tensor refused the read
                    raise RuntimeError(_errors.VMAP_ITEM)
                raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return "
                                 f"Tensors, got type {type(it)}. Did you mean to set out_dims= "
                                 "to None for output?")
        outs.append(stack(items, dim=d))
    return tree_unflatten(outs, spec)
