"""``torch.fx.passes.utils``: helpers of the graph passes (:mod:`.matcher_utils`,
:mod:`.fuser_utils`)."""

from . import fuser_utils, matcher_utils

__all__ = ["fuser_utils", "matcher_utils"]
