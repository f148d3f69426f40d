"""torch.distributed.rpc's Python API over the MPI agent of ``_agent``."""

from __future__ import annotations

import atexit as _atexit
import enum as _enum
import functools
import os as _os

from ... import futures as _futures
from . import _agent
from ._agent import WorkerInfo

UNSET_RPC_TIMEOUT = -1.0
DEFAULT_RPC_TIMEOUT_SEC = 60.0
DEFAULT_SHUTDOWN_TIMEOUT = 0.0
DEFAULT_NUM_WORKER_THREADS = 16

_NOT_INITIALIZED = "RPC has not been initialized. Call torch.distributed.rpc.init_rpc first."

_state = type("_State", (), {"agent": None})()


class BackendType(_enum.Enum):
    """The RPC backends torch names (``TENSORPIPE``); MPI carries every one of them."""

    TENSORPIPE = "TENSORPIPE"

    def __repr__(self) -> str:
        return f"BackendType.{self.name}"


class RpcBackendOptions:
    """The options every backend takes: the default timeout of a call, in seconds, and
    the address of the rendezvous (accepted; MPI starts and connects the workers)."""

    def __init__(self, rpc_timeout: float = DEFAULT_RPC_TIMEOUT_SEC,
                 init_method: str = "env://") -> None:
        self.rpc_timeout = float(rpc_timeout)
        self.init_method = init_method


class TensorPipeRpcBackendOptions(RpcBackendOptions):
    """torch's TensorPipe options: ``num_worker_threads`` (the threads that serve
    requests) and ``rpc_timeout`` are used; device maps, devices, transports and channels
    are accepted (there is only the CPU, and MPI picks the transport)."""

    def __init__(self, *, num_worker_threads: int = DEFAULT_NUM_WORKER_THREADS,
                 rpc_timeout: float = DEFAULT_RPC_TIMEOUT_SEC, init_method: str = "env://",
                 device_maps=None, devices=None, _transports=None, _channels=None) -> None:
        super().__init__(rpc_timeout, init_method)
        self.num_worker_threads = int(num_worker_threads)
        self.device_maps = dict(device_maps or {})
        self.devices = list(devices or [])
        self._transports, self._channels = _transports, _channels

    def set_device_map(self, to: str, device_map: dict) -> None:
        """Record a device map for ``to`` (only the CPU exists here)."""
        self.device_maps.setdefault(to, {}).update(device_map)

    def set_devices(self, devices: list) -> None:
        """Record the devices this worker uses (only the CPU exists here)."""
        self.devices = list(devices)


def _require_initialized(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if _state.agent is None:
            raise RuntimeError(_NOT_INITIALIZED)
        return func(*args, **kwargs)
    return wrapper


def _agent_or_raise() -> _agent.Agent:
    a = _state.agent
    if a is None:
        raise RuntimeError(_NOT_INITIALIZED)
    return a


def init_rpc(name: str, backend=None, rank: int = -1, world_size: int | None = None,
             rpc_backend_options: RpcBackendOptions | None = None) -> None:
    """Start this worker's RPC agent (and distributed autograd) as worker ``name``.

    Every worker of the MPI job must call it. ``rank`` and ``world_size`` are MPI's
    (values passed, or ``RANK``/``WORLD_SIZE`` in the environment, must agree);
    ``MASTER_ADDR``/``MASTER_PORT`` and the options' ``init_method`` are accepted, as MPI
    does the rendezvous.
    """
    if backend is not None and not isinstance(backend, BackendType):
        raise TypeError("Argument backend must be a member of BackendType")
    if rpc_backend_options is not None and not isinstance(rpc_backend_options,
                                                          RpcBackendOptions):
        raise TypeError("Argument rpc_backend_options must be an instance of "
                        "RpcBackendOptions")
    if not isinstance(name, str):
        raise TypeError(f"Argument name must be a string, got {type(name)}")
    if _state.agent is not None:
        raise RuntimeError("RPC is already initialized")
    opts = rpc_backend_options or TensorPipeRpcBackendOptions()
    env_rank, env_size = _os.environ.get("RANK"), _os.environ.get("WORLD_SIZE")
    rank = rank if rank not in (None, -1) else int(env_rank) if env_rank else None
    world_size = world_size if world_size is not None else int(env_size) if env_size else None
    _state.agent = _agent.Agent(name, rank, world_size,
                                getattr(opts, "num_worker_threads", DEFAULT_NUM_WORKER_THREADS),
                                opts.rpc_timeout)
    from .. import _mpi
    _mpi.install_abort_on_failure()


@_require_initialized
def shutdown(graceful: bool = True, timeout: float = DEFAULT_SHUTDOWN_TIMEOUT) -> None:
    """Stop this worker's agent. With ``graceful``, first wait until this worker's calls
    are answered and every worker has reached ``shutdown`` (its requests keep being served
    meanwhile)."""
    agent = _state.agent
    if graceful:
        limit = timeout if timeout and timeout > 0 else float("inf")
        agent.wait_pending(limit)
        agent.barrier(limit)
    _state.agent = None
    from .. import autograd as dist_autograd
    dist_autograd._clear()
    agent.stop()


def _shutdown_at_exit() -> None:
    # a listener left inside MPI when mpi4py finalises at exit would crash the process
    agent = _state.agent
    if agent is not None:
        _state.agent = None
        agent.stop()


_atexit.register(_shutdown_at_exit)


def get_worker_info(worker_name: str | None = None) -> WorkerInfo:
    """The ``WorkerInfo`` of ``worker_name``, or of this worker."""
    agent = _agent_or_raise()
    return agent.info if worker_name is None else agent.worker(worker_name)


def _timeout(agent, timeout) -> float:
    return agent.rpc_timeout if timeout is None or timeout == UNSET_RPC_TIMEOUT else timeout


def _invoke(to, func, args, kwargs, timeout) -> _futures.Future:
    if not callable(func):
        raise TypeError("function should be callable.")
    agent = _agent_or_raise()
    return agent.call(agent.worker(to), func, tuple(args or ()), dict(kwargs or {}),
                      timeout=_timeout(agent, timeout))


def rpc_sync(to, func, args=None, kwargs=None, timeout: float = UNSET_RPC_TIMEOUT):
    """Run ``func(*args, **kwargs)`` on worker ``to`` and return its result (an exception
    it raised is raised here, with the remote worker and traceback in its message)."""
    return _invoke(to, func, args, kwargs, timeout).wait()


def rpc_async(to, func, args=None, kwargs=None,
              timeout: float = UNSET_RPC_TIMEOUT) -> _futures.Future:
    """Start ``func(*args, **kwargs)`` on worker ``to``; a ``torch.futures.Future`` of the
    result (failed with torch's error when ``timeout`` seconds pass without one; 0: no
    limit)."""
    return _invoke(to, func, args, kwargs, timeout)


def remote(to, func, args=None, kwargs=None, timeout: float = UNSET_RPC_TIMEOUT) -> RRef:
    """Run ``func(*args, **kwargs)`` on worker ``to``, which keeps the result; an ``RRef``
    to it, returned at once."""
    if not callable(func):
        raise TypeError("function should be callable.")
    agent = _agent_or_raise()
    dst = agent.worker(to)
    if dst.id == agent.id:
        rref = RRef._make(agent, dst, agent.new_guid(), None)
    else:
        rref = RRef._make(agent, dst, agent.new_guid(), agent.new_guid())
    fut = agent.call(dst, func, tuple(args or ()), dict(kwargs or {}), rref_id=rref._rref_id,
                     plain_errors=True, timeout=_timeout(agent, timeout))
    rref._creation = fut
    return rref


def _guid(g) -> str:
    return f"GloballyUniqueId(created_on={g[0]}, local_id={g[1]})"


class RRef:
    """A reference to a value that one worker (the owner) holds.

    ``RRef(value)`` makes this worker the owner of ``value``; ``remote`` returns one owned
    by the worker that computes it. ``to_here()`` copies the value here (a tensor that
    requires grad carries gradients back under distributed autograd); ``rpc_sync()``,
    ``rpc_async()`` and ``remote()`` call the value's methods on its owner.
    """

    def __init__(self, value, type_hint=None) -> None:
        agent = _state.agent
        if agent is None:
            raise RuntimeError("Current RPC agent is not set! Did you initialize the RPC "
                               "framework (e.g. by calling `rpc.init_rpc`)?")
        self._init(agent, agent.info, agent.new_guid(), None)
        agent.owned_value(self._rref_id).set_result(value)
        agent.add_ref(self._rref_id)
        self._type = type_hint

    @classmethod
    def _make(cls, agent, owner: WorkerInfo, rref_id, fork_id) -> RRef:
        r = cls.__new__(cls)
        r._init(agent, owner, rref_id, fork_id)
        return r

    def _init(self, agent, owner, rref_id, fork_id) -> None:
        self._owner, self._rref_id, self._fork_id = owner, rref_id, fork_id
        self._me, self._agent = agent.info, agent
        self._creation = None          # the future of the owner's answer to remote()
        self._type = None

    def _fork(self, agent, dst: int):
        """How this RRef travels to worker ``dst``: a new fork of it. The owner counts it
        before it leaves (a user sending it to a third worker asks the owner to, and
        waits); one a user sends to the owner is counted when it arrives there."""
        counted = True
        if self.is_owner():
            agent.add_ref(self._rref_id)
        elif dst != self._owner.id:
            agent.call(self._owner, _add_ref, (self._rref_id,), {}).wait()
        else:
            counted = False
        return _rref_from_wire, (self._owner, self._rref_id, agent.new_guid(), counted)

    def __del__(self):
        agent = getattr(self, "_agent", None)
        if agent is not None and _state.agent is agent:      # (none after shutdown)
            agent.dropped.append((self._owner.id, self._rref_id))

    def __reduce__(self):
        raise RuntimeError("Can not pickle rref in python pickler, rref can only be pickled "
                           "when using RPC")

    def is_owner(self) -> bool:
        """Whether this worker owns the value."""
        return self._owner.id == self._me.id

    def owner(self) -> WorkerInfo:
        """The owner's ``WorkerInfo``."""
        return self._owner

    def owner_name(self) -> str:
        """The owner's name."""
        return self._owner.name

    def confirmed_by_owner(self) -> bool:
        """Whether the owner has confirmed it holds (or is making) the value."""
        return self.is_owner() or self._creation is None or self._creation.done()

    def _check_created(self) -> None:
        if self._creation is not None and self._creation.done():
            self._creation.wait()        # raises the owner's error, if any

    def local_value(self):
        """The value itself (on the owner only)."""
        if not self.is_owner():
            raise RuntimeError(
                f"For UserRRef(rref_id={_guid(self._rref_id)}, fork_id={_guid(self._fork_id)}), "
                f"can't call localValue() on user {self._me}. Call it on owner {self._owner}")
        return _agent_or_raise().owned_value(self._rref_id).wait()

    def to_here(self, timeout: float = UNSET_RPC_TIMEOUT):
        """A copy of the value, fetched from its owner (the value itself on the owner)."""
        if self.is_owner():
            return self.local_value()
        agent = _agent_or_raise()
        return agent.call(self._owner, _fetch, (self._rref_id,), {}, plain_errors=True,
                          timeout=_timeout(agent, timeout)).wait()

    def _get_type(self, timeout: float = UNSET_RPC_TIMEOUT, blocking: bool = True):
        """The type of the value (asked of the owner once, then remembered)."""
        if self._type is None:
            if self.is_owner():
                self._type = type(self.local_value())
            else:
                self._type = rpc_sync(self._owner, _type_on_owner, args=(self,),
                                      timeout=timeout)
        if blocking:
            return self._type
        fut = _futures.Future()
        fut.set_result(self._type)
        return fut

    def rpc_sync(self, timeout: float = UNSET_RPC_TIMEOUT):
        """A proxy whose method calls run on the owner with ``rpc_sync``."""
        return RRefProxy(self, rpc_sync, timeout)

    def rpc_async(self, timeout: float = UNSET_RPC_TIMEOUT):
        """A proxy whose method calls run on the owner with ``rpc_async``."""
        return RRefProxy(self, rpc_async, timeout)

    def remote(self, timeout: float = UNSET_RPC_TIMEOUT):
        """A proxy whose method calls run on the owner with ``remote``."""
        return RRefProxy(self, remote, timeout)

    def backward(self, dist_autograd_ctx_id: int = -1, retain_graph: bool = False) -> None:
        """Run (distributed) backward from the value, a scalar tensor, on its owner."""
        if not self.is_owner():
            rpc_sync(self._owner, _backward_on_owner,
                     args=(self, dist_autograd_ctx_id, retain_graph))
            return
        _backward_on_owner(self, dist_autograd_ctx_id, retain_graph)

    def __repr__(self) -> str:
        if self.is_owner():
            return f"OwnerRRef({_guid(self._rref_id)})"
        return (f"UserRRef(RRefId = {_guid(self._rref_id)}, ForkId = "
                f"{_guid(self._fork_id)})")

    __str__ = __repr__

    def __class_getitem__(cls, item):
        return cls


def _rref_from_wire(owner: WorkerInfo, rref_id, fork_id, counted: bool) -> RRef:
    agent = _agent_or_raise()
    if not counted:
        # a user's fork, come back to the owner: in a request, whose sender keeps its own
        # RRef until the reply, or in a reply, which the owner takes before any later
        # message of that user (such as a release)
        agent.add_ref(rref_id)
    return RRef._make(agent, owner, rref_id, fork_id)


def _add_ref(rref_id) -> None:
    _agent_or_raise().add_ref(rref_id)


def _fetch(rref_id):
    return _agent_or_raise().owned_value(rref_id).wait()


def _type_on_owner(rref: RRef) -> type:
    return type(rref.local_value())


def _backward_on_owner(rref: RRef, ctx_id: int, retain_graph: bool) -> None:
    value = rref.local_value()
    if ctx_id == -1:
        value.backward(retain_graph=retain_graph)
    else:
        from .. import autograd as dist_autograd
        dist_autograd.backward(ctx_id, [value], retain_graph=retain_graph)


def _local_invoke(rref: RRef, func_name: str, args, kwargs):
    return getattr(rref.local_value(), func_name)(*args, **kwargs)


def _local_invoke_async_execution(rref: RRef, func_name: str, args, kwargs):
    return getattr(rref.local_value(), func_name)(*args, **kwargs)


_local_invoke_async_execution._wrapped_async_rpc_function = _local_invoke_async_execution


class RRefProxy:
    """``rref.rpc_sync()``/``rpc_async()``/``remote()``: each method call on it runs
    ``getattr(value, name)(*args, **kwargs)`` on the owner."""

    def __init__(self, rref: RRef, rpc_api, timeout: float = UNSET_RPC_TIMEOUT) -> None:
        self.rref, self.rpc_api, self.rpc_timeout = rref, rpc_api, timeout

    def __getattr__(self, func_name: str):
        return functools.partial(_invoke_on_owner, self.rref, self.rpc_api, func_name,
                                 self.rpc_timeout)


def _invoke_on_owner(rref: RRef, rpc_api, func_name: str, timeout, *args, **kwargs):
    invoke = _local_invoke
    if hasattr(getattr(rref._get_type(timeout), func_name, None),
               "_wrapped_async_rpc_function"):
        invoke = _local_invoke_async_execution
    return rpc_api(rref.owner(), invoke, args=(rref, func_name, args, kwargs), timeout=timeout)


del annotations  # keep dir() to torch's names
