"""The DataLoader's helpers (``torch.utils.data._utils``): ``collate``, which scripts import
``default_collate`` / ``default_convert`` from directly."""

from . import collate

__all__ = ["collate"]
