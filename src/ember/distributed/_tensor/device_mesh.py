"""``torch.distributed._tensor.device_mesh``: ``DeviceMesh`` and ``init_device_mesh``."""

from ..device_mesh import DeviceMesh, init_device_mesh  # noqa: F401
