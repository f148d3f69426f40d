"""``torch.nn.modules.flatten``: Flatten and Unflatten (defined in :mod:`.linear`)."""

from .linear import Flatten, Unflatten  # noqa: F401
