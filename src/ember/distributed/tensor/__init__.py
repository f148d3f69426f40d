"""``torch.distributed.tensor``: DTensor, a tensor laid out over a ``DeviceMesh`` of ranks
(``Shard``, ``Replicate`` or ``Partial`` on each mesh dimension), on Ember's MPI process
groups."""

from ..device_mesh import DeviceMesh, init_device_mesh  # noqa: F401
from ._api import (
    DTensor,
    distribute_module,
    distribute_tensor,
    empty,
    full,
    ones,
    rand,
    randn,
    zeros,
)
from .placement_types import Partial, Placement, Replicate, Shard

__all__ = ["DTensor", "distribute_tensor", "distribute_module", "Shard", "Replicate", "Partial",
           "Placement", "ones", "empty", "full", "rand", "randn", "zeros"]
