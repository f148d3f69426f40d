"""``ember.distributed.rpc``: torch.distributed.rpc on MPI.

Each worker is a rank of an MPI job (``mpiexec -n N`` or ``python -m ember.distributed.run``);
``init_rpc`` starts the worker's agent, which serves requests from the other workers on a
communicator of its own (see ``_agent``). ``rpc_sync``/``rpc_async``/``remote`` run Python
functions on other workers, ``RRef`` refers to a value another worker holds, and
``ember.distributed.autograd`` carries gradients back across the calls.
"""

from . import functions
from ._agent import WorkerInfo
from .api import (
    BackendType,
    RpcBackendOptions,
    RRef,
    TensorPipeRpcBackendOptions,
    get_worker_info,
    init_rpc,
    remote,
    rpc_async,
    rpc_sync,
    shutdown,
)
from .api import UNSET_RPC_TIMEOUT as _UNSET_RPC_TIMEOUT  # noqa: F401

PyRRef = RRef


def is_available() -> bool:
    """Whether RPC can run here: mpi4py (and so MPI) is installed."""
    from .. import _mpi
    return _mpi.available()


__all__ = ["BackendType", "PyRRef", "RRef", "RpcBackendOptions", "TensorPipeRpcBackendOptions",
           "WorkerInfo", "functions", "get_worker_info", "init_rpc", "is_available", "remote",
           "rpc_async", "rpc_sync", "shutdown"]
