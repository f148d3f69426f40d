"""``functional_call`` and ``stack_module_state``: run a module with other parameters."""

from __future__ import annotations

import contextlib
from typing import Any

from .._tensor import Tensor


def _split(name: str, module):
    *path, last = name.split(".")
    for p in path:
        module = getattr(module, p)
    return module, last


@contextlib.contextmanager
def _swapped(module, tensors: dict, strict: bool):
    if strict:
        expected = set(dict(module.named_parameters())) | set(dict(module.named_buffers()))
        missing = sorted(expected - set(tensors))
        unexpected = sorted(set(tensors) - expected)
        if missing or unexpected:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected)
                             + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
            raise RuntimeError("Error(s) in reparametrizing for "
                               f"{type(module).__name__}:\n\t" + "\n\t".join(parts))
    saved = []
    try:
        for name, t in tensors.items():
            owner, attr = _split(name, module)
            for store in ("_parameters", "_buffers"):
                d = owner.__dict__.get(store)
                if d is not None and attr in d:
                    saved.append((d, attr, d[attr]))
                    d[attr] = t
                    break
            else:
                had = attr in owner.__dict__
                saved.append((owner.__dict__, attr, owner.__dict__.get(attr) if had else _MISSING))
                owner.__dict__[attr] = t
        yield
    finally:
        for d, attr, old in reversed(saved):
            if old is _MISSING:
                del d[attr]
            else:
                d[attr] = old


_MISSING = object()


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with its parameters and buffers replaced by the tensors in
    ``parameter_and_buffer_dicts`` (one dict or several), restored afterwards."""
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = dict(parameter_and_buffer_dicts)
    else:
        tensors = {}
        for d in parameter_and_buffer_dicts:
            dup = set(tensors) & set(d)
            if dup:
                raise ValueError(f"{sorted(dup)} appeared in multiple dictionaries; behavior of "
                                 "functional call is ambiguous")
            tensors.update(d)
    if tie_weights:       # a tensor shared by several names is replaced under all of them
        shared: dict = {}
        for name, p in list(module.named_parameters(remove_duplicate=False)) + list(
                module.named_buffers(remove_duplicate=False)):
            shared.setdefault(id(p), []).append(name)
        for names in shared.values():
            given = [n for n in names if n in tensors]
            if given:
                for n in names:
                    tensors.setdefault(n, tensors[given[0]])
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(module, tensors, strict):
        return module(*args, **(kwargs or {}))


def stack_module_state(models) -> tuple[dict, dict]:
    """The parameters and buffers of same-shaped modules, stacked along a new first dim
    (parameters as new leaves that require grad)."""
    from .._ops import stack
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/"
                           "eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors) -> Tensor:
        out = stack([t.detach() for t in tensors])
        if all(t.requires_grad for t in tensors):
            out = out.requires_grad_()
        return out

    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: stacked([p[k] for p in all_params]) for k in all_params[0]}
    buffers = {k: stacked([b[k] for b in all_buffers]) for k in all_buffers[0]}
    return params, buffers
