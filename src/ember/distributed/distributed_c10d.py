"""torch.distributed's process groups and collectives, carried out by MPI.

Every rank and the world size come from MPI (``mpiexec -n N`` or the launcher
``python -m ember.distributed.run``). Tensors travel through MPI's buffer interface straight
from and into their NumPy arrays. Each collective first compares a fingerprint of the call
(its name, dtype, shape, op and root) across the group, so ranks making different calls get
a clear error instead of a hang or garbage, and every wait is bounded by the group's timeout.
"""

from __future__ import annotations

import atexit as _atexit
import os
import pickle
import warnings
from datetime import timedelta
from enum import Enum as _Enum

import numpy as _np

from . import _mpi
from ._mpi import DistBackendError as _DistBackendError

__all__ = ["Backend", "ReduceOp", "ProcessGroup", "GroupMember", "group", "Work",
           "is_mpi_available", "is_gloo_available", "is_nccl_available",
           "is_initialized", "init_process_group", "destroy_process_group", "get_backend",
           "get_default_backend_for_device",
           "get_rank", "get_world_size", "new_group", "get_group_rank", "get_global_rank",
           "get_process_group_ranks", "barrier", "broadcast", "all_reduce", "reduce",
           "all_gather", "all_gather_into_tensor", "reduce_scatter", "reduce_scatter_tensor",
           "gather", "scatter", "send", "recv", "isend", "irecv", "broadcast_object_list",
           "all_gather_object", "default_pg_timeout"]

default_pg_timeout = timedelta(minutes=30)


class Backend(str):
    """Backend names. MPI carries every collective; ``gloo``, torch's CPU backend, names it
    too, and ``get_backend`` reports the name the group was made with, as torch does."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"
    default_device_backend_map = {"cpu": "gloo", "cuda": "nccl", "xpu": "xccl", "mps": "gloo"}

    def __new__(cls, name: str):
        if not isinstance(name, str):
            raise ValueError("Backend constructor parameter must be string-ish")
        return name.lower()          # a plain str, as torch's


class ReduceOp(_Enum):
    """How ``all_reduce`` and its kin combine the ranks' tensors."""

    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7

    def __repr__(self) -> str:
        return f"<RedOpType.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"RedOpType.{self.name}"


class ProcessGroup:
    """A set of ranks that make collective calls together (an MPI communicator)."""

    def __init__(self, comm, ranks: list[int], timeout: timedelta, name: str,
                 backend: str = "undefined") -> None:
        self._backend = Backend(backend)
        errors_return = _mpi.mpi().ERRORS_RETURN     # MPI errors raise, not kill the rank
        comm.Set_errhandler(errors_return)
        self._comm = comm
        self._fp_comm = comm.Dup()           # the calls' fingerprints travel apart from data
        self._fp_comm.Set_errhandler(errors_return)
        self._ranks = ranks                  # global ranks, by group rank
        self._group_rank = {g: i for i, g in enumerate(ranks)}
        self._timeout = timeout.total_seconds()
        self.group_name = name

    def rank(self) -> int:
        """This process's rank in the group."""
        return self._comm.Get_rank()

    def size(self) -> int:
        """The number of ranks in the group."""
        return len(self._ranks)

    def name(self) -> str:
        return self._backend

    def __repr__(self) -> str:
        return f"<ember.distributed.ProcessGroup {self.group_name} ranks={self._ranks}>"


class GroupMember:
    """``GroupMember.WORLD`` is the default group; ``NON_GROUP_MEMBER`` what ``new_group``
    returns to ranks outside the new group."""

    WORLD: ProcessGroup | None = None
    NON_GROUP_MEMBER = object()


class group:
    """``dist.group.WORLD``: the default process group."""

    WORLD: ProcessGroup | None = None


class _World:
    exit_comm = None
    groups: list = []
    backend = None


_world = _World()


class Work:
    """An operation started with ``async_op=True``: ``wait()`` ends it."""

    def __init__(self, request, pg: ProcessGroup, what: str, finish=None, keep=()) -> None:
        self._request, self._pg, self._what = request, pg, what
        self._finish, self._keep = finish, keep
        self._done, self._status, self._exception = False, None, None

    def wait(self, timeout: timedelta | None = None) -> bool:
        """Block until the operation has completed (raising ``DistBackendError`` past the
        group's timeout, or ``timeout`` if given)."""
        if not self._done:
            limit = self._pg._timeout if timeout is None else timeout.total_seconds()
            try:
                self._status = _mpi.wait(self._request, limit, self._what, _global_rank())
            except _DistBackendError as e:
                self._exception = e
                raise
            self._complete()
        return True

    def _complete(self) -> None:
        self._done = True
        if self._finish is not None:
            self._finish()
        self._finish = self._keep = None

    def is_completed(self) -> bool:
        """Whether the operation has finished (without blocking)."""
        if not self._done and self._request.Test():
            self._complete()
        return self._done

    def is_success(self) -> bool:
        return self.is_completed() and self._exception is None

    def exception(self):
        return self._exception

    def source_rank(self) -> int:
        """For ``irecv``: the global rank the message came from."""
        if self._status is None:
            raise RuntimeError("source_rank is only available after a completed irecv")
        return self._pg._ranks[self._status.Get_source()]

    def result(self) -> list:
        return []


# ------------------------------------------------------------------ availability and init

def is_mpi_available() -> bool:
    """Whether the MPI backend is available."""
    return _mpi.available()


def is_gloo_available() -> bool:
    """Whether ``backend="gloo"`` can be asked for (it runs on MPI): MPI is installed."""
    return _mpi.available()


def is_nccl_available() -> bool:
    return False


def is_initialized() -> bool:
    """Whether the default process group has been initialised."""
    return GroupMember.WORLD is not None


def _default() -> ProcessGroup:
    if GroupMember.WORLD is None:
        raise ValueError("Default process group has not been initialized, please make sure to "
                         "call init_process_group.")
    return GroupMember.WORLD


def _global_rank() -> int:
    return _mpi.mpi().COMM_WORLD.Get_rank() if _mpi.initialized() else -1


def _resolve_backend(backend) -> str:
    """The name a group reports for ``backend`` (torch's ``Backend(backend)``), once checked."""
    if backend is None:
        return Backend.UNDEFINED
    name = str(backend).lower()
    for part in name.split(","):               # "cpu:gloo,cuda:nccl"
        b = part.split(":")[-1].strip()
        if b == "nccl" and ":" not in part:
            raise RuntimeError("Distributed package doesn't have NCCL built in")
        if b not in ("mpi", "gloo", "nccl"):
            raise ValueError(f"Invalid backend: '{b}'")
    return Backend(name)


def _check_env(name: str, value: int, mpi_value: int) -> None:
    env = os.environ.get(name)
    if env is not None and env != "" and int(env) != mpi_value:
        raise ValueError(f"environment variable {name}={env} does not match MPI's {mpi_value}; "
                         f"start the ranks with mpiexec or python -m ember.distributed.run")
    if value not in (-1, None) and value != mpi_value:
        raise ValueError(f"{name.lower()}={value} was passed but MPI gives this process "
                         f"{name.lower()} {mpi_value}")


def init_process_group(backend=None, init_method: str | None = None,
                       timeout: timedelta | None = None, world_size: int = -1, rank: int = -1,
                       store=None, group_name: str = "", pg_options=None,
                       device_id=None) -> None:
    """Initialise the default process group over ``MPI.COMM_WORLD``.

    The rank and world size are MPI's; ``rank``, ``world_size`` and the ``RANK`` and
    ``WORLD_SIZE`` environment variables are accepted where they agree. Rendezvous is MPI's
    own, so ``init_method`` (``env://``, ``tcp://…``, ``file://…``) names no address that is
    used. An uncaught exception on any rank afterwards aborts every rank.
    """
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    name = _resolve_backend(backend)
    if init_method is not None and not init_method.startswith(("env://", "tcp://", "file://")):
        raise ValueError(f"unsupported init_method {init_method!r}: MPI starts the ranks "
                         "(use env://, or leave it out)")
    if timeout is not None and not isinstance(timeout, timedelta):
        raise TypeError(f"Expected timeout argument to be of type datetime.timedelta, got "
                        f"{type(timeout)}")
    MPI = _mpi.mpi()
    world = MPI.COMM_WORLD
    _check_env("RANK", rank, world.Get_rank())
    _check_env("WORLD_SIZE", world_size, world.Get_size())
    _mpi.install_abort_on_failure()
    _mpi.watchdog.start()
    comm = world.Dup()
    _world.exit_comm = world.Dup()
    _world.groups = []
    _world.backend = name
    pg = ProcessGroup(comm, list(range(world.Get_size())), timeout or default_pg_timeout,
                      group_name or "0", name)
    GroupMember.WORLD = group.WORLD = pg


def destroy_process_group(group: ProcessGroup | None = None) -> None:
    """Free a group, or with no argument every group and the default one."""
    if group is None or group is GroupMember.WORLD:
        if GroupMember.WORLD is None:
            raise ValueError("Invalid process group specified")
        for pg in (*_world.groups, GroupMember.WORLD):
            pg._comm.Free()
            pg._fp_comm.Free()
        _world.exit_comm.Free()
        _world.groups, _world.exit_comm = [], None
        GroupMember.WORLD = globals()["group"].WORLD = None
        return
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    if group not in _world.groups:
        raise ValueError("Invalid process group specified or has been destroyed.")
    _world.groups.remove(group)
    group._comm.Free()
    group._fp_comm.Free()


def get_backend(group: ProcessGroup | None = None) -> str:
    """The backend name a group was made with (``'undefined'`` when none was given, as in
    torch); MPI carries the collectives whatever the name."""
    pg = _pg(group)
    if pg is GroupMember.NON_GROUP_MEMBER:
        raise ValueError("Invalid process group specified")
    return pg._backend


def get_default_backend_for_device(device) -> str:
    """torch's default backend name for a device type (``'gloo'`` for ``'cpu'``)."""
    from .._device import device as _device
    kind = _device(device).type if isinstance(device, str) else device.type
    if kind not in Backend.default_device_backend_map:
        raise ValueError(f"Default backend not registered for device : {kind}")
    return Backend.default_device_backend_map[kind]


def _pg(grp) -> ProcessGroup:
    if grp is None or grp is GroupMember.WORLD:
        return _default()
    if grp is GroupMember.NON_GROUP_MEMBER:
        return grp
    if not isinstance(grp, ProcessGroup):
        raise ValueError(f"Expecting a ProcessGroup, but got a {type(grp)}.")
    return grp


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank in ``group`` (the default group when None); -1 outside it."""
    pg = _pg(group)
    return -1 if pg is GroupMember.NON_GROUP_MEMBER else pg.rank()


def get_world_size(group: ProcessGroup | None = None) -> int:
    """The number of ranks in ``group``; -1 outside it."""
    pg = _pg(group)
    return -1 if pg is GroupMember.NON_GROUP_MEMBER else pg.size()


def new_group(ranks: list[int] | None = None, timeout: timedelta | None = None, backend=None,
              pg_options=None, use_local_synchronization: bool = False, group_desc=None,
              device_id=None):
    """A group of the given global ranks; every rank of the world must call it."""
    world = _default()
    ranks = sorted(ranks) if ranks else list(range(world.size()))
    for r in ranks:
        if r < 0 or r >= world.size():
            raise ValueError("The new group's rank should be within the world_size set by "
                             "init_process_group")
    if len(set(ranks)) != len(ranks):
        raise ValueError("the new group cannot have duplicate ranks")
    _Fingerprint(world, f"new_group(ranks={ranks})").check()
    MPI = _mpi.mpi()
    comm = world._comm.Create(world._comm.Get_group().Incl(ranks))
    if comm == MPI.COMM_NULL:
        return GroupMember.NON_GROUP_MEMBER
    pg = ProcessGroup(comm, ranks, timeout or timedelta(seconds=world._timeout),
                      str(len(_world.groups) + 1),
                      world._backend if backend is None else _resolve_backend(backend))
    _world.groups.append(pg)
    return pg


def get_group_rank(group: ProcessGroup, global_rank: int) -> int:
    """The rank in ``group`` of a global rank."""
    pg = _pg(group)
    if global_rank not in pg._group_rank:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return pg._group_rank[global_rank]


def get_global_rank(group: ProcessGroup, group_rank: int) -> int:
    """The global rank of a rank of ``group``."""
    pg = _pg(group)
    if not 0 <= group_rank < pg.size():
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return pg._ranks[group_rank]


def get_process_group_ranks(group: ProcessGroup | None) -> list[int]:
    """The global ranks of ``group``, by group rank."""
    return list(_pg(group)._ranks)


def _at_exit() -> None:
    """A rank that ends while others still wait on it would leave them hanging: at exit
    the ranks meet once more, and a rank that does not arrive in time aborts the job."""
    pg = GroupMember.WORLD
    if pg is None or not _mpi.initialized() or _world.exit_comm is None:
        return
    _mpi.watchdog.run("the barrier at exit", pg._timeout, _world.exit_comm.Barrier)


_atexit.register(_at_exit)


# ------------------------------------------------------------------ checks shared by the calls

def _array(tensor, name: str = "tensor") -> _np.ndarray:
    from .._tensor import Tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"torch.Tensor\n             but got {type(tensor)} instead.")
    # a non-contiguous tensor travels through a contiguous copy, written back by _bump
    arr = tensor._data
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


def _tensor_list(tensors, name: str) -> list:
    from .._tensor import Tensor
    if not isinstance(tensors, list):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"List[torch.Tensor]\n             but got {type(tensors)} instead.")
    if not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"List[torch.Tensor]\n             but got {type(tensors)} with "
                        f"elements of type {[type(t) for t in tensors]}.")
    return tensors


def _member(pg, name: str) -> bool:
    if pg is GroupMember.NON_GROUP_MEMBER:
        warnings.warn(f"Running {name} on global rank {_global_rank()} which does not belong "
                      "to the given group.", stacklevel=3)
        return False
    return True


def _root(pg: ProcessGroup, global_rank: int) -> int:
    r = pg._group_rank.get(global_rank)
    if r is None:
        if pg is GroupMember.WORLD:
            raise RuntimeError(f"invalid root rank: {global_rank}")
        raise ValueError(f"Global rank {global_rank} is not part of group {pg}")
    return r


def _describe(tensor) -> str:
    return f"dtype={tensor.dtype}, shape={list(tensor.shape)}"


class _Fingerprint:
    """Every rank's description of the call it is about to make (name, dtype, shape, op,
    root), gathered on the group's fingerprint communicator before the call itself, so that
    ranks making different calls get a clear error instead of a hang or garbage."""

    WIDTH = 256

    def __init__(self, pg: ProcessGroup, desc: str) -> None:
        self.pg, self.desc = pg, desc
        self.mine = desc.encode()[:self.WIDTH].ljust(self.WIDTH)
        self.rows = bytearray(pg.size() * self.WIDTH)

    def check(self) -> None:
        """Gather every rank's description; raise ``DistBackendError`` if they differ."""
        _mpi.watchdog.run(self.desc, self.pg._timeout, self.pg._fp_comm.Allgather, self.mine,
                          self.rows)
        if self.rows == self.mine * self.pg.size():
            return
        me, w = self.pg.rank(), self.WIDTH
        calls = [self.rows[i * w:(i + 1) * w].decode(errors="replace").rstrip()
                 for i in range(self.pg.size())]
        other = next(i for i, c in enumerate(calls) if c != calls[me])
        raise _DistBackendError(
            f"Detected mismatch between collectives on ranks. Rank {self.pg._ranks[me]} is "
            f"running collective: {calls[me]}, but Rank {self.pg._ranks[other]} is running "
            f"collective: {calls[other]}")


def _run(pg: ProcessGroup, desc: str, method: str, args: tuple, kwargs: dict, async_op: bool,
         finish=None, keep=()):
    """Check the call's fingerprint, then make it: MPI's blocking ``method`` under the
    watchdog, or with ``async_op`` its nonblocking form (``I`` + method) as a ``Work``."""
    _Fingerprint(pg, desc).check()
    comm = pg._comm
    try:
        if async_op:
            request = getattr(comm, "I" + method[0].lower() + method[1:])(*args, **kwargs)
            return Work(request, pg, desc, finish, keep)
        _mpi.watchdog.run(desc, pg._timeout, getattr(comm, method), *args, **kwargs)
    except _mpi.mpi().Exception as e:
        raise _DistBackendError(f"MPI error in {desc}: {e.Get_error_string()}") from None
    if finish is not None:
        finish()
    return None


def _op_name(op, tensor, what: str) -> str:
    if not isinstance(op, ReduceOp):
        raise TypeError(f"{what}: op must be a ReduceOp, got {op!r}")
    kind = tensor._data.dtype.kind
    if kind == "c" and op not in (ReduceOp.SUM, ReduceOp.AVG):
        raise ValueError(f"{what} does not support {op} on complex tensors")
    if op is ReduceOp.AVG and not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"{what}: ReduceOp.AVG needs a floating-point or complex tensor, "
                         f"got {tensor.dtype}")
    if op in (ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR) and kind not in "biu":
        raise ValueError(f"{what}: {op} needs an integer or bool tensor, got {tensor.dtype}")
    return "SUM" if op is ReduceOp.AVG else op.name


def _bump(tensor, arr: _np.ndarray) -> None:
    """``tensor`` received ``arr``: copy it back if it was a staging copy; bump the version."""
    if arr is not tensor._data:
        tensor._data[...] = arr.reshape(tensor._data.shape)
    tensor._vc.value += 1


# ------------------------------------------------------------------ collectives

def barrier(group: ProcessGroup | None = None, async_op: bool = False, device_ids=None):
    """Wait until every rank of the group has reached this call."""
    pg = _pg(group)
    if not _member(pg, "barrier"):
        return None
    return _run(pg, "barrier()", "Barrier", (), {}, async_op)


def broadcast(tensor, src: int | None = None, group: ProcessGroup | None = None,
              async_op: bool = False, group_src: int | None = None):
    """Copy ``tensor`` of rank ``src`` (a global rank) into ``tensor`` on every rank."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "broadcast"):
        return None
    root = group_src if group_src is not None else _root(pg, 0 if src is None else src)
    return _run(pg, f"broadcast({_describe(tensor)}, src={pg._ranks[root]})",
                "Bcast", (_mpi.as_bytes(arr),), {"root": root}, async_op,
                lambda: _bump(tensor, arr), (arr,))


def all_reduce(tensor, op: ReduceOp = ReduceOp.SUM, group: ProcessGroup | None = None,
               async_op: bool = False):
    """Reduce ``tensor`` over the group, leaving the result in ``tensor`` on every rank."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "all_reduce"):
        return None
    name = _op_name(op, tensor, "all_reduce")
    desc = f"all_reduce({_describe(tensor)}, op={op.name})"

    def finish():
        if op is ReduceOp.AVG:
            _np.divide(arr, pg.size(), out=arr, casting="unsafe")
        _bump(tensor, arr)

    if _in_ring_order(pg, op, tensor):
        everyone = _np.empty((pg.size(), arr.size), arr.dtype)

        def finish_ring():
            arr.reshape(-1)[...] = _ring_sum(everyone)
            finish()

        return _run(pg, desc, "Allgather", (_mpi.as_bytes(arr), _mpi.as_bytes(everyone)), {},
                    async_op, finish_ring, (arr, everyone))
    mpi_op = _mpi.reduce_op(name, arr.dtype)
    MPI = _mpi.mpi()

    return _run(pg, desc, "Allreduce", (MPI.IN_PLACE, _mpi.as_typed(arr), mpi_op), {},
                async_op, finish, (arr,))


def _in_ring_order(pg, op, tensor) -> bool:
    """Whether a reduction's floating-point sums depend on the order of the ranks' terms
    (more than two ranks), so that it is summed in gloo's order (see ``_ring_sum``)."""
    return (pg.size() > 2 and op in (ReduceOp.SUM, ReduceOp.AVG)
            and tensor.is_floating_point())


def _ring_sum(everyone: _np.ndarray) -> _np.ndarray:
    """The sum over the rows (one per rank) of ``everyone`` in gloo's ring order: the
    buffer is cut into one segment per rank (of twice ``ceil(n / (2 * world))`` elements) and
    segment ``s`` is summed from rank ``s + 1`` round to rank ``s``, rounding after each
    addition, as gloo's ring all-reduce (and reduce-scatter, an all-reduce of the whole
    buffer) adds them."""
    world, n = everyone.shape
    seg = 2 * -(-n // (2 * world))
    out = _np.empty(n, everyone.dtype)
    for s in range(world):
        lo, hi = s * seg, min((s + 1) * seg, n)
        if lo >= hi:
            break
        acc = everyone[(s + 1) % world, lo:hi].copy()
        for k in range(2, world + 1):
            acc += everyone[(s + k) % world, lo:hi]
        out[lo:hi] = acc
    return out


def reduce(tensor, dst: int | None = None, op: ReduceOp = ReduceOp.SUM,
           group: ProcessGroup | None = None, async_op: bool = False,
           group_dst: int | None = None):
    """Reduce ``tensor`` over the group into ``tensor`` on rank ``dst`` only."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "reduce"):
        return None
    root = group_dst if group_dst is not None else _root(pg, 0 if dst is None else dst)
    name = _op_name(op, tensor, "reduce")
    mpi_op = _mpi.reduce_op(name, arr.dtype)
    MPI = _mpi.mpi()
    is_root = pg.rank() == root

    def finish():
        if is_root:
            if op is ReduceOp.AVG:
                _np.divide(arr, pg.size(), out=arr, casting="unsafe")
            _bump(tensor, arr)

    return _run(pg, f"reduce({_describe(tensor)}, op={op.name}, dst={pg._ranks[root]})",
                "Reduce", (MPI.IN_PLACE, _mpi.as_typed(arr)) if is_root
                else (_mpi.as_typed(arr), None), {"op": mpi_op, "root": root}, async_op, finish,
                (arr,))


def _check_same(tensor, others, what: str) -> None:
    for t in others:
        if t.dtype != tensor.dtype:
            raise ValueError(f"{what}: every tensor must have the input's dtype "
                             f"({tensor.dtype}), got {t.dtype}")
        if t.numel() != tensor.numel():
            raise RuntimeError(f"{what}: invalid tensor size (expected "
                               f"{tuple(tensor.shape)}, got {tuple(t.shape)})")


def all_gather(tensor_list: list, tensor, group: ProcessGroup | None = None,
               async_op: bool = False):
    """Gather ``tensor`` from every rank into ``tensor_list`` (one tensor per rank)."""
    _tensor_list(tensor_list, "tensor_list")
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "all_gather"):
        return None
    if len(tensor_list) != pg.size():
        raise ValueError(f"all_gather: tensor_list must hold {pg.size()} tensors (the group's "
                         f"size), got {len(tensor_list)}")
    _check_same(tensor, tensor_list, "all_gather")
    out = _np.empty((pg.size(), *arr.shape), arr.dtype)

    def finish():
        for t, part in zip(tensor_list, out):
            _bump(t, part)

    return _run(pg, f"all_gather({_describe(tensor)})", "Allgather",
                (_mpi.as_bytes(arr), _mpi.as_bytes(out)), {}, async_op, finish, (arr, out))


def all_gather_into_tensor(output_tensor, input_tensor, group: ProcessGroup | None = None,
                           async_op: bool = False):
    """Gather ``input_tensor`` from every rank into ``output_tensor``, rank after rank."""
    out, arr = _array(output_tensor, "output_tensor"), _array(input_tensor, "input_tensor")
    pg = _pg(group)
    if not _member(pg, "all_gather_into_tensor"):
        return None
    if out.dtype != arr.dtype:
        raise ValueError("output tensor must have the same type as input tensor")
    if out.size != arr.size * pg.size():
        raise ValueError("output tensor size must be equal to world_size times input tensor "
                         "size")
    return _run(pg, f"all_gather_into_tensor({_describe(input_tensor)})", "Allgather",
                (_mpi.as_bytes(arr), _mpi.as_bytes(out)), {}, async_op,
                lambda: _bump(output_tensor, out), (arr, out))


def reduce_scatter_tensor(output, input, op: ReduceOp = ReduceOp.SUM,
                          group: ProcessGroup | None = None, async_op: bool = False):
    """Reduce ``input`` over the group and give rank ``i`` the ``i``-th chunk in ``output``."""
    out, arr = _array(output, "output"), _array(input, "input")
    pg = _pg(group)
    if not _member(pg, "reduce_scatter_tensor"):
        return None
    if out.dtype != arr.dtype:
        raise ValueError("input tensor must be the same type as the output tensor.")
    if arr.size != out.size * pg.size():
        raise ValueError("input tensor must be the same size as output size times world size")
    return _reduce_scatter(pg, "reduce_scatter_tensor", output, out, input, arr, op, async_op)


def _reduce_scatter(pg, what: str, output, out, input, arr, op, async_op: bool):
    """Reduce ``arr`` (the group's blocks, one per rank, of ``out``'s size) into ``out``."""
    name = _op_name(op, input, what)
    desc = f"{what}({_describe(input)}, op={op.name})"

    def finish():
        if op is ReduceOp.AVG:
            _np.divide(out, pg.size(), out=out, casting="unsafe")
        _bump(output, out)

    if _in_ring_order(pg, op, input):
        everyone = _np.empty((pg.size(), arr.size), arr.dtype)

        def finish_ring():
            r = pg.rank()
            out.reshape(-1)[...] = _ring_sum(everyone)[r * out.size:(r + 1) * out.size]
            finish()

        return _run(pg, desc, "Allgather", (_mpi.as_bytes(_np.ascontiguousarray(arr)),
                                            _mpi.as_bytes(everyone)), {},
                    async_op, finish_ring, (arr, out, everyone))
    mpi_op = _mpi.reduce_op(name, arr.dtype)
    return _run(pg, desc, "Reduce_scatter_block",
                (_mpi.as_typed(arr), _mpi.as_typed(out), mpi_op), {}, async_op, finish,
                (arr, out))


def reduce_scatter(output, input_list: list, op: ReduceOp = ReduceOp.SUM,
                   group: ProcessGroup | None = None, async_op: bool = False):
    """Reduce the lists over the group; rank ``i`` gets the reduction of every rank's
    ``input_list[i]`` in ``output``."""
    _tensor_list(input_list, "input_list")
    out = _array(output, "output")
    pg = _pg(group)
    if not _member(pg, "reduce_scatter"):
        return None
    if len(input_list) != pg.size():
        raise ValueError(f"reduce_scatter: input_list must hold {pg.size()} tensors (the "
                         f"group's size), got {len(input_list)}")
    _check_same(output, input_list, "reduce_scatter")
    arr = _np.stack([_np.ascontiguousarray(t._data).reshape(out.shape) for t in input_list])
    return _reduce_scatter(pg, "reduce_scatter", output, out, output, arr, op, async_op)


def gather(tensor, gather_list: list | None = None, dst: int | None = None,
           group: ProcessGroup | None = None, async_op: bool = False,
           group_dst: int | None = None):
    """Gather ``tensor`` from every rank into ``gather_list`` on rank ``dst``."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "gather"):
        return None
    root = group_dst if group_dst is not None else _root(pg, 0 if dst is None else dst)
    is_root = pg.rank() == root
    if is_root:
        if not gather_list:
            raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
        _tensor_list(gather_list, "gather_list")
        if len(gather_list) != pg.size():
            raise ValueError(f"gather: gather_list must hold {pg.size()} tensors (the group's "
                             f"size), got {len(gather_list)}")
        _check_same(tensor, gather_list, "gather")
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination "
                         "ranks.")
    out = _np.empty((pg.size(), *arr.shape), arr.dtype) if is_root else None

    def finish():
        if is_root:
            for t, part in zip(gather_list, out):
                _bump(t, part)

    return _run(pg, f"gather({_describe(tensor)}, dst={pg._ranks[root]})",
                "Gather", (_mpi.as_bytes(arr), _mpi.as_bytes(out) if is_root else None),
                {"root": root}, async_op, finish, (arr, out))


def scatter(tensor, scatter_list: list | None = None, src: int | None = None,
            group: ProcessGroup | None = None, async_op: bool = False,
            group_src: int | None = None):
    """Give rank ``i`` the ``i``-th tensor of ``scatter_list`` of rank ``src``."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "scatter"):
        return None
    root = group_src if group_src is not None else _root(pg, 0 if src is None else src)
    is_root = pg.rank() == root
    if is_root:
        if not scatter_list:
            raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
        _tensor_list(scatter_list, "scatter_list")
        if len(scatter_list) != pg.size():
            raise ValueError(f"scatter: scatter_list must hold {pg.size()} tensors (the "
                             f"group's size), got {len(scatter_list)}")
        _check_same(tensor, scatter_list, "scatter")
        send = _np.stack([t._data.reshape(arr.shape) for t in scatter_list])
    elif scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
    else:
        send = None
    return _run(pg, f"scatter({_describe(tensor)}, src={pg._ranks[root]})",
                "Scatter", (_mpi.as_bytes(send) if is_root else None, _mpi.as_bytes(arr)),
                {"root": root}, async_op, lambda: _bump(tensor, arr), (arr, send))


# ------------------------------------------------------------------ point to point

def _peer(pg: ProcessGroup, rank: int, what: str) -> int:
    if rank == _global_rank():
        raise ValueError(f"Invalid {what} rank: {what} rank should not be the same as the "
                         "rank of the current process.")
    return _root(pg, rank)


def isend(tensor, dst: int | None = None, group: ProcessGroup | None = None, tag: int = 0,
          group_dst: int | None = None) -> Work | None:
    """Start sending ``tensor`` to global rank ``dst``; returns a ``Work``."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "isend"):
        return None
    peer = group_dst if group_dst is not None else _peer(pg, dst, "destination")
    return Work(pg._comm.Isend(_mpi.as_bytes(arr), dest=peer, tag=tag), pg,
                f"isend({_describe(tensor)}, dst={pg._ranks[peer]}, tag={tag})", keep=(arr,))


def irecv(tensor, src: int | None = None, group: ProcessGroup | None = None, tag: int = 0,
          group_src: int | None = None) -> Work | None:
    """Start receiving into ``tensor`` from global rank ``src`` (any rank when None)."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "irecv"):
        return None
    MPI = _mpi.mpi()
    if group_src is not None:
        peer = group_src
    else:
        peer = MPI.ANY_SOURCE if src is None else _peer(pg, src, "source")
    return Work(pg._comm.Irecv(_mpi.as_bytes(arr), source=peer, tag=tag), pg,
                f"irecv({_describe(tensor)}, src={src}, tag={tag})", lambda: _bump(tensor, arr),
                (arr,))


def send(tensor, dst: int | None = None, group: ProcessGroup | None = None, tag: int = 0,
         group_dst: int | None = None) -> None:
    """Send ``tensor`` to global rank ``dst``."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "send"):
        return
    peer = group_dst if group_dst is not None else _peer(pg, dst, "destination")
    what = f"send({_describe(tensor)}, dst={pg._ranks[peer]}, tag={tag})"
    _p2p(pg, what, pg._comm.Send, _mpi.as_bytes(arr), dest=peer, tag=tag)


def recv(tensor, src: int | None = None, group: ProcessGroup | None = None, tag: int = 0,
         group_src: int | None = None) -> int:
    """Receive into ``tensor`` from global rank ``src`` (any when None); returns the sender."""
    arr = _array(tensor)
    pg = _pg(group)
    if not _member(pg, "recv"):
        return -1
    MPI = _mpi.mpi()
    if group_src is not None:
        peer = group_src
    else:
        peer = MPI.ANY_SOURCE if src is None else _peer(pg, src, "source")
    status = MPI.Status()
    what = f"recv({_describe(tensor)}, src={src}, tag={tag})"
    _p2p(pg, what, pg._comm.Recv, _mpi.as_bytes(arr), source=peer, tag=tag, status=status)
    _bump(tensor, arr)
    return pg._ranks[status.Get_source()]


def _p2p(pg: ProcessGroup, what: str, fn, *args, **kwargs) -> None:
    try:
        _mpi.watchdog.run(what, pg._timeout, fn, *args, **kwargs)
    except _mpi.mpi().Exception as e:
        raise _DistBackendError(f"MPI error in {what}: {e.Get_error_string()}") from None


# ------------------------------------------------------------------ Python objects

def _gather_bytes(pg: ProcessGroup, payload: bytes) -> list[bytes]:
    """Every rank's bytes, by group rank (sizes first, then the padded payloads)."""
    from .._tensor import Tensor
    size = Tensor._wrap(_np.array([len(payload)], _np.int64))
    sizes = Tensor._wrap(_np.empty(pg.size(), _np.int64))
    all_gather_into_tensor(sizes, size, group=pg)
    width = int(sizes._data.max())
    mine = Tensor._wrap(_np.frombuffer(payload.ljust(width, b"\0"), _np.uint8).copy())
    everyone = Tensor._wrap(_np.empty(width * pg.size(), _np.uint8))
    all_gather_into_tensor(everyone, mine, group=pg)
    rows = everyone._data.reshape(pg.size(), width)
    return [rows[i, :n].tobytes() for i, n in enumerate(sizes._data)]


def all_gather_object(object_list: list, obj, group: ProcessGroup | None = None) -> None:
    """Fill ``object_list`` with every rank's (picklable) ``obj``, by rank."""
    pg = _pg(group)
    if not _member(pg, "all_gather_object"):
        return
    if len(object_list) != pg.size():
        raise ValueError(f"all_gather_object: object_list must hold {pg.size()} entries (the "
                         f"group's size), got {len(object_list)}")
    for i, raw in enumerate(_gather_bytes(pg, pickle.dumps(obj))):
        object_list[i] = pickle.loads(raw)


def broadcast_object_list(object_list: list, src: int | None = None,
                          group: ProcessGroup | None = None, device=None,
                          group_src: int | None = None) -> None:
    """Replace ``object_list``'s entries by rank ``src``'s (lists of the same length)."""
    from .._tensor import Tensor
    pg = _pg(group)
    if not _member(pg, "broadcast_object_list"):
        return
    root = group_src if group_src is not None else _root(pg, 0 if src is None else src)
    mine = pickle.dumps(list(object_list)) if pg.rank() == root else b""
    size = Tensor._wrap(_np.array([len(mine)], _np.int64))
    broadcast(size, group=pg, group_src=root)
    data = Tensor._wrap(_np.frombuffer(mine, _np.uint8).copy() if mine
                        else _np.empty(int(size._data[0]), _np.uint8))
    broadcast(data, group=pg, group_src=root)
    if pg.rank() != root:
        theirs = pickle.loads(data._data.tobytes())
        if len(theirs) != len(object_list):
            raise ValueError(f"broadcast_object_list: rank {pg._ranks[root]} sent "
                             f"{len(theirs)} objects into a list of {len(object_list)}")
        object_list[:] = theirs


def _start_all_reduce(arr: _np.ndarray, pg: ProcessGroup, what: str) -> Work:
    """A SUM all_reduce of a contiguous array in place, started without the fingerprint
    exchange (for callers such as DDP's reducer that already know every rank makes the same
    calls, and must not wait for the others before starting)."""
    MPI = _mpi.mpi()
    return Work(pg._comm.Iallreduce(MPI.IN_PLACE, _mpi.as_typed(arr),
                                    _mpi.reduce_op("SUM", arr.dtype)), pg, what, keep=(arr,))


del annotations  # keep dir() to torch's names
