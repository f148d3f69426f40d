"""``torch.fx.passes``: graph passes (:mod:`~ember.fx.passes.shape_prop`)."""

from . import shape_prop, utils

__all__ = ["shape_prop", "utils"]
