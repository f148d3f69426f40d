"""``torch.distributed._tensor``: the older home of DTensor's names, kept for code that
imports them from here."""

from ..device_mesh import DeviceMesh, init_device_mesh  # noqa: F401
from ..tensor import *  # noqa: F401,F403
