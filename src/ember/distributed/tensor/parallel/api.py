"""``torch.distributed.tensor.parallel.api``: ``parallelize_module``."""

from __future__ import annotations

import warnings as _warnings
from fnmatch import fnmatch as _fnmatch

from .style import ParallelStyle

__all__ = ["parallelize_module"]


def parallelize_module(module, device_mesh=None, parallelize_plan=None, *,
                       src_data_rank: int | None = 0):
    """Apply a ``ParallelStyle`` to ``module``, or each style of a plan ``{path: style}``
    to the submodules at ``path`` (``fnmatch`` patterns, one per level: ``"layers.*.mlp"``)."""
    if device_mesh is None:
        raise RuntimeError("parallelize_module needs a DeviceMesh")
    if parallelize_plan is None:
        _warnings.warn("No parallelize_plan is provided and auto-parallel is not supported at "
                       "the moment, so this parallelize_module call will do nothing.",
                       stacklevel=2)
        return module
    if isinstance(parallelize_plan, ParallelStyle):
        parallelize_plan.src_data_rank = src_data_rank
        return parallelize_plan._apply(module, device_mesh)
    if not isinstance(parallelize_plan, dict):
        raise TypeError("Expect Union[ParallelStyle, Dict[str, ParallelStyle]] for "
                        f"parallelize_plan, {type(parallelize_plan)} found!")
    for path, style in parallelize_plan.items():
        if path == "":
            parallelize_module(module, device_mesh, style)
            continue
        token, _, rest = path.partition(".")
        matched = [(n, m) for n, m in module.named_children() if _fnmatch(n, token)]
        if not matched:
            _warnings.warn(f"Parallelize plan key '{path}' could not be resolved: no submodule "
                           f"matching token '{token}' in module {module}, skipping this plan "
                           "entry.", stacklevel=2)
            continue
        for _, sub in matched:
            parallelize_module(sub, device_mesh, {rest: style} if rest else style,
                               src_data_rank=src_data_rank)
    return module


del annotations
