"""``ember.distributed``: torch.distributed's API, carried out by MPI through mpi4py.

Start the ranks with ``mpiexec -n N python script.py`` or ``python -m ember.distributed.run
--nproc-per-node N script.py``; each calls ``init_process_group()`` and then the collectives.
MPI is only initialised by ``init_process_group`` (importing this package does not).
"""

from . import _mpi
from ._mpi import DistBackendError, DistError, DistNetworkError, DistStoreError
from .device_mesh import DeviceMesh, init_device_mesh
from .distributed_c10d import (
    Backend,
    GroupMember,
    ProcessGroup,
    ReduceOp,
    Work,
    all_gather,
    all_gather_into_tensor,
    all_gather_object,
    all_reduce,
    barrier,
    broadcast,
    broadcast_object_list,
    default_pg_timeout,
    destroy_process_group,
    gather,
    get_backend,
    get_default_backend_for_device,
    get_global_rank,
    get_group_rank,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    group,
    init_process_group,
    irecv,
    is_gloo_available,
    is_initialized,
    is_mpi_available,
    is_nccl_available,
    isend,
    new_group,
    recv,
    reduce,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
    send,
)


def is_available() -> bool:
    """Whether ``ember.distributed`` can run: mpi4py (and so MPI) is installed."""
    return _mpi.available()


def __getattr__(name: str):
    # torch.distributed has ``rpc``, ``autograd`` and ``algorithms`` once imported; here they
    # load on first use (``optim``, ``nn``, ``fsdp`` and ``checkpoint``, as in torch, only by
    # an import of their own)
    if name in ("rpc", "autograd", "algorithms"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
