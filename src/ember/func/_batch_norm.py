"""``replace_all_batch_norm_modules_``: batch norm without running statistics, for vmap."""

from __future__ import annotations


def _batch_norm_without_running_stats(module) -> None:
    from ..nn.modules.batchnorm import _BatchNorm
    if isinstance(module, _BatchNorm) and module.track_running_stats:
        module.running_mean = None
        module.running_var = None
        module.num_batches_tracked = None
        module.track_running_stats = False


def replace_all_batch_norm_modules_(root):
    """In place, make every batch norm module in ``root`` (``root`` included) keep no running
    statistics (``running_mean``/``running_var`` None, ``track_running_stats`` False), as
    per-sample ``vmap`` code needs; returns ``root``."""
    _batch_norm_without_running_stats(root)
    for obj in root.modules():
        _batch_norm_without_running_stats(obj)
    return root
