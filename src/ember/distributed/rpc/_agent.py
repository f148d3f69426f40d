"""The RPC agent: torch's TensorPipe agent's job, carried out by MPI.

Every worker is one MPI rank. The agent owns a communicator of its own (a ``Dup`` of
``COMM_WORLD``, so its messages never meet the collectives'), and two kinds of threads:

* one listener, which matches whatever arrives with ``MPI_Improbe`` and receives it with the
  matched ``MPI_Mrecv`` (so no other thread can take its message between the probe and the
  receive) and hands the bytes to the pool. It only probes and receives, never runs user
  code, so a request that waits on another request cannot stall it. An idle listener backs
  off from spinning to short sleeps, so a worker waiting for work leaves the cores to the
  others.
* a pool of ``num_worker_threads`` threads, which unpickle, run the requested functions,
  complete the callers' futures and send the replies (``MPI_Isend``, any thread at once).

This needs MPI's ``THREAD_MULTIPLE`` (mpi4py asks for it; MPICH and Open MPI grant it). Where
the library only grants ``THREAD_SERIALIZED``, every MPI call of the agent takes one lock and
no call blocks inside MPI (sends and receives are started, then tested), which keeps the
serialisation MPI asks for at the cost of some latency; below that, ``init_rpc`` refuses.

A message is a pickled header and a pickled body, one after the other (the body unpickled
from the received buffer without a copy): requests go with tag ``REQUEST`` and header
``(message id, autograd metadata, RRef id or None)``, replies with tag ``RESPONSE`` and header
``(message id, ok, autograd metadata)``. The body's tensors travel as arrays with their
``requires_grad``; ``ember.distributed.autograd`` hooks in where they are pickled and
unpickled.
"""

from __future__ import annotations

import collections
import contextlib
import heapq
import io
import itertools
import pickle
import struct
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

from ... import futures as _futures
from .. import _mpi

REQUEST, RESPONSE, STOP = 1, 2, 3
_HEADER_SIZE = struct.Struct("<I")     # a message: the header's length, header, body


class WorkerInfo:
    """A worker's name and id (its rank), as ``get_worker_info`` returns it."""

    __slots__ = ("name", "id")

    def __init__(self, name: str, id: int) -> None:
        self.name, self.id = name, id

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, name={self.name})"

    def __eq__(self, other) -> bool:
        return isinstance(other, WorkerInfo) and (self.id, self.name) == (other.id, other.name)

    def __hash__(self) -> int:
        return hash((self.id, self.name))

    def __reduce__(self):
        return WorkerInfo, (self.name, self.id)


class RemoteException:
    """An exception raised by a remote function, as it travels back: torch's message (the
    worker, the exception's repr and its traceback) and its class, raised anew on the caller."""

    def __init__(self, msg: str, exception_type: type) -> None:
        self.msg, self.exception_type = msg, exception_type

    def exception(self) -> BaseException:
        """The exception as ``to_here`` raises it: its own class, torch's message."""
        try:
            e = self.exception_type(self.msg)
        except Exception:   # noqa: BLE001  (a class that takes other arguments)
            e = RuntimeError(self.msg)
        e._rpc_message = self.msg      # passed on as it is if raised on again
        return e

    def future_error(self) -> BaseException:
        """The exception as the future of ``rpc_sync``/``rpc_async`` raises it: in torch it
        crosses C++, which keeps ``ValueError`` and ``TypeError`` and makes every other class
        a ``RuntimeError``, with the class name before the message and the raising frame
        after it."""
        try:
            _handle_exception(self)
        except BaseException as e:   # noqa: BLE001
            tb = e.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            code = tb.tb_frame.f_code
            kind = ValueError if isinstance(e, ValueError) else TypeError \
                if isinstance(e, TypeError) else RuntimeError
            return kind(f"{type(e).__name__}: {e}\n\nAt:\n  {code.co_filename}({tb.tb_lineno}): "
                        f"{code.co_name}\n")
        raise AssertionError("unreachable")


def _handle_exception(result: RemoteException):
    raise result.exception()


_guids = itertools.count()   # RRef and fork ids (torch's local_id): one count per process,
# on across init_rpc/shutdown as torch's
_wire = threading.local()          # the tensors of the message being (un)pickled


def _tensor_from_wire(data, requires_grad: bool):
    from ..._tensor import _rebuild
    t = _rebuild(data, requires_grad)
    _wire.tensors.append(t)
    return t


class _Pickler(pickle.Pickler):
    """Pickles a message: tensors as their arrays (gathered in ``tensors`` for autograd),
    RRefs as a fork of the reference."""

    def __init__(self, file, agent, dst: int) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.agent, self.dst, self.tensors, self.rrefs = agent, dst, [], []

    def reducer_override(self, obj):
        from ..._tensor import Tensor
        if isinstance(obj, Tensor) and not obj.is_sparse:
            self.tensors.append(obj)
            return _tensor_from_wire, (obj._data, obj.requires_grad)
        from .api import RRef
        if isinstance(obj, RRef):
            self.rrefs.append(obj)
            return obj._fork(self.agent, self.dst)
        return NotImplemented


class Agent:
    """This worker's end of the RPC world: names, the MPI communicator, the listener and the
    pool, the futures of calls under way and the values this worker owns for RRefs."""

    def __init__(self, name: str, rank: int, world_size: int, num_worker_threads: int,
                 rpc_timeout: float) -> None:
        MPI = _mpi.mpi()
        level = MPI.Query_thread()
        if level < MPI.THREAD_SERIALIZED:
            raise RuntimeError("ember.distributed.rpc needs an MPI library initialised with "
                               "MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE; this one gives "
                               f"level {level}")
        self._lock = contextlib.nullcontext() if level >= MPI.THREAD_MULTIPLE \
            else threading.Lock()
        self._blocking = level >= MPI.THREAD_MULTIPLE
        world = MPI.COMM_WORLD
        for what, given, mpi_value in (("rank", rank, world.Get_rank()),
                                       ("world_size", world_size, world.Get_size())):
            if given is not None and given != mpi_value:
                raise ValueError(f"{what}={given} was passed but MPI gives this process "
                                 f"{what} {mpi_value}; start the workers with mpiexec or "
                                 "python -m ember.distributed.run")
        self.comm = world.Dup()
        self.id = self.comm.Get_rank()
        names = self.comm.allgather(name)
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise RuntimeError(f"RPC worker name {dup} is not unique.")
        self.workers = [WorkerInfo(n, i) for i, n in enumerate(names)]
        self.by_name = {w.name: w for w in self.workers}
        self.info = self.workers[self.id]
        self.rpc_timeout = rpc_timeout
        self._ids = itertools.count()          # message ids
        self._state = threading.Lock()
        self.pending: dict = {}                # message id -> Future of the reply
        self._deadlines: list = []             # heap of (deadline, message id, timeout)
        self.owned: dict = {}                  # RRef id -> Future of the value
        self.refs: dict = {}                   # RRef id -> references to it that count
        self.dropped = collections.deque()     # (owner id, RRef id) of references let go
        self.pool = ThreadPoolExecutor(num_worker_threads, thread_name_prefix="ember-rpc")
        self.listener = threading.Thread(target=self._listen, name="ember.distributed.rpc "
                                         "listener", daemon=True)
        self.listener.start()

    # ----- ids and names
    def new_guid(self) -> tuple[int, int]:
        """A new ``GloballyUniqueId``: (this worker's id, the next local id)."""
        return (self.id, next(_guids))

    def worker(self, to) -> WorkerInfo:
        """The ``WorkerInfo`` named by a name, an id or a ``WorkerInfo``."""
        if isinstance(to, WorkerInfo):
            return to
        if isinstance(to, str):
            w = self.by_name.get(to)
        elif isinstance(to, int) and not isinstance(to, bool):
            w = self.workers[to] if 0 <= to < len(self.workers) else None
        else:
            raise ValueError(f"Cannot get WorkerInfo from name {to}")
        if w is None:
            kind = "name" if isinstance(to, str) else "id"
            raise RuntimeError(f"name:{self.info.name},rank:{self.id} could not find "
                               f"destination {kind} {to}")
        return w

    def owned_value(self, guid) -> _futures.Future:
        """The future of the value this worker owns under ``guid`` (made on first use)."""
        with self._state:
            fut = self.owned.get(guid)
            if fut is None:
                fut = self.owned[guid] = _futures.Future()
            return fut

    # ----- references that keep an owned value
    # An owned value lives while RRefs to it exist: the owner counts its own ``RRef(value)``,
    # the one ``remote`` returns, and every fork: one the owner sends, before it leaves; one
    # a user sends to a third worker, by a call to the owner the user waits for first; one
    # a user sends to the owner, when it arrives (a request's sender keeps its own RRef
    # until the reply; a reply is taken before that user's later messages). An RRef that
    # is collected queues its release, which this worker sends with its next message (not
    # from the collector, which may run anywhere, inside a lock too).
    def add_ref(self, guid, n: int = 1) -> None:
        with self._state:
            self.refs[guid] = self.refs.get(guid, 0) + n

    def release_ref(self, guid) -> None:
        """One counting reference fewer; the value goes with the last (once it is made)."""
        def drop(_fut):
            with self._state:
                left = self.refs.get(guid, 0) - 1
                if left > 0:
                    self.refs[guid] = left
                else:
                    self.refs.pop(guid, None)
                    self.owned.pop(guid, None)
        self.owned_value(guid).add_done_callback(drop)

    def _send_released(self) -> None:
        mine, theirs = [], {}
        while self.dropped:
            owner, guid = self.dropped.popleft()
            (mine if owner == self.id else theirs.setdefault(owner, [])).append(guid)
        for guid in mine:
            self.release_ref(guid)
        for owner, guids in theirs.items():
            self.call(self.workers[owner], _release_refs, (guids,), {})

    # ----- pickling
    def encode(self, obj, dst: int, header_of, ctx=None, force_autograd=False,
               keep=None) -> bytes:
        """The bytes of a message carrying ``obj`` to ``dst``; ``header_of(meta)`` makes the
        header from the autograd metadata recorded for the message's tensors (if any). The
        RRefs it carries are added to ``keep``."""
        from .. import autograd as dist_autograd
        buf = io.BytesIO()
        p = _Pickler(buf, self, dst)
        p.dump(obj)
        if keep is not None:
            keep += p.rrefs
        meta = dist_autograd._record_send(p.tensors, dst, ctx, force_autograd)
        header = pickle.dumps(header_of(meta), protocol=pickle.HIGHEST_PROTOCOL)
        return b"".join((_HEADER_SIZE.pack(len(header)), header, buf.getbuffer()))

    def decode(self, body: bytes, meta, src: int):
        """The object of a message body from ``src``; with autograd metadata, its tensors
        become outputs of a ``RecvRpcBackward`` node. Returns (object, autograd context)."""
        from .. import autograd as dist_autograd
        _wire.tensors = []
        try:
            obj = pickle.loads(body)
            tensors = _wire.tensors
        finally:
            _wire.tensors = None
        ctx = dist_autograd._record_recv(meta, tensors, src) if meta is not None else None
        return obj, ctx

    # ----- MPI
    def _wait(self, request) -> None:
        delay = 0.0
        while True:
            with self._lock:
                if request.Test():
                    return
            time.sleep(delay)
            delay = min(delay * 2 or 1e-5, 1e-3)

    def send(self, dst: int, tag: int, data: bytes) -> None:
        """Send ``data`` to ``dst`` (from any thread)."""
        MPI = _mpi.mpi()
        if self._blocking:
            self.comm.Send([data, MPI.BYTE], dst, tag)
            return
        with self._lock:
            request = self.comm.Isend([data, MPI.BYTE], dst, tag)
        self._wait(request)

    def _listen(self) -> None:
        MPI = _mpi.mpi()
        status = MPI.Status()
        comm, lock = self.comm, self._lock
        last = time.monotonic()
        while True:
            with lock:
                message = comm.Improbe(MPI.ANY_SOURCE, MPI.ANY_TAG, status)
            if self._deadlines and self._deadlines[0][0] <= time.monotonic():
                self._expire()
            if message is None:
                # just after traffic, replies tend to follow at once: look again after the
                # shortest sleep (a real one: a thread that only yielded would take the GIL
                # back before the pool's threads could, and they would wait for Python's
                # 5 ms switch interval); after a quiet while, sleep longer between looks
                idle = time.monotonic() - last
                time.sleep(1e-5 if idle < 0.002 else min(idle / 20, 1e-3))
                continue
            tag, src = status.Get_tag(), status.Get_source()
            data = bytearray(status.Get_count(MPI.BYTE))
            if self._blocking:
                message.Recv([data, MPI.BYTE])
            else:
                with lock:
                    request = message.Irecv([data, MPI.BYTE])
                self._wait(request)
            if tag == STOP:
                return
            if tag == RESPONSE:
                # a reply only completes a future: done here, saving a thread hand-off
                # (the future's callbacks, which may block, go to the pool)
                self._handle(tag, src, data)
            else:
                self._submit(self._handle, tag, src, data)
            if self.dropped:
                self._submit(self._send_released)
            last = time.monotonic()

    def _submit(self, fn, *args) -> None:
        try:
            self.pool.submit(fn, *args)
        except RuntimeError:           # the pool has shut down: the worker is stopping
            pass

    # ----- calls
    def call(self, dst: WorkerInfo, func, args, kwargs, rref_id=None,
             plain_errors: bool = False, timeout: float = 0) -> _futures.Future:
        """Send a request to run ``func(*args, **kwargs)`` on ``dst``; the future of its
        result (of its completion, for ``remote``, whose value ``dst`` keeps), failed with
        torch's error if no reply has come within ``timeout`` seconds (0: no limit). A
        remote exception comes as ``rpc_sync`` raises it, or as ``to_here`` does with
        ``plain_errors``."""
        if self.dropped:
            self._send_released()
        msg_id = next(self._ids)
        fut = _futures.Future()
        fut._plain_errors = plain_errors
        with self._state:
            self.pending[msg_id] = fut
            if timeout and timeout > 0:
                heapq.heappush(self._deadlines, (time.monotonic() + timeout, msg_id, timeout))
        # the RRefs sent stay alive (and so counted by their owner) until the reply: the
        # references the receiver makes of them are counted before they can be let go
        fut._keep = []
        try:
            data = self.encode((func, args, kwargs), dst.id,
                               lambda meta: (msg_id, meta, rref_id), None, True, fut._keep)
            self.send(dst.id, REQUEST, data)
        except BaseException:
            with self._state:
                self.pending.pop(msg_id, None)
            raise
        return fut

    def _handle(self, tag: int, src: int, data: bytearray) -> None:
        try:
            n = _HEADER_SIZE.unpack_from(data)[0]
            start = _HEADER_SIZE.size
            view = memoryview(data)
            header, body = pickle.loads(view[start:start + n]), view[start + n:]
            if tag == RESPONSE:
                self._on_response(src, header, body)
            else:
                self._on_request(src, header, body)
        except BaseException:   # noqa: BLE001  (a pool thread has no caller to raise to)
            traceback.print_exc()

    def _on_response(self, src: int, header, body: bytes) -> None:
        msg_id, ok, meta = header
        with self._state:
            fut = self.pending.pop(msg_id, None)
        if fut is None:                # too late: the call has timed out
            return
        fut._keep = None
        try:
            value, _ = self.decode(body, meta, src)
        except BaseException as e:   # noqa: BLE001  (delivered to the waiter)
            fut._complete(None, e, self.pool)
            return
        if ok:
            fut._complete(value, None, self.pool)
        else:
            fut._complete(None, value.exception() if fut._plain_errors
                          else value.future_error(), self.pool)

    def _on_request(self, src: int, header, body: bytes) -> None:
        from .. import autograd as dist_autograd
        msg_id, meta, rref_id = header
        ctx = None
        try:
            (func, args, kwargs), ctx = self.decode(body, meta, src)
            with dist_autograd._current(ctx):
                result = func(*(args or ()), **(kwargs or {}))
            if getattr(func, "_wrapped_async_rpc_function", None) is not None:
                if not isinstance(result, _futures.Future):
                    raise TypeError(f"Functions decorated with @rpc.async_function must return "
                                    f"a torch.futures.Future object, but got {type(result)}")
                result.add_done_callback(
                    lambda fut: self._reply_with(fut, src, msg_id, ctx, rref_id))
                return
        except BaseException as e:   # noqa: BLE001  (raised again on the caller)
            self._reply(src, msg_id, ctx, rref_id, False, self._remote_exception(e))
            return
        self._reply(src, msg_id, ctx, rref_id, True, result)

    def _reply_with(self, fut, src, msg_id, ctx, rref_id) -> None:
        try:
            value = fut.wait()
        except BaseException as e:   # noqa: BLE001
            self._reply(src, msg_id, ctx, rref_id, False, self._remote_exception(e))
            return
        self._reply(src, msg_id, ctx, rref_id, True, value)

    def _remote_exception(self, e: BaseException) -> RemoteException:
        msg = getattr(e, "_rpc_message", None)
        if msg is not None:            # an error another worker raised: as it came
            return RemoteException(msg, type(e))
        msg = (f"On {self.info}:\n{e!r}\n"
               + "".join(traceback.format_exception(type(e), e, e.__traceback__)))
        try:
            pickle.dumps(type(e))
        except Exception:   # noqa: BLE001  (a class the caller could not look up)
            return RemoteException(msg, RuntimeError)
        return RemoteException(msg, type(e))

    def _reply(self, dst: int, msg_id: int, ctx, rref_id, ok: bool, value) -> None:
        if rref_id is not None:        # remote(): the value stays here, the caller gets an ack
            owned = self.owned_value(rref_id)
            self.add_ref(rref_id)      # the caller's reference
            if ok:
                owned.set_result(value)
                value = None
            else:
                owned.set_exception(value.exception())
        try:
            data = self.encode(value, dst, lambda meta: (msg_id, ok, meta), ctx)
        except BaseException as e:   # noqa: BLE001  (an unpicklable result)
            ok = False
            data = self.encode(self._remote_exception(e), dst,
                               lambda meta: (msg_id, False, meta))
        self.send(dst, RESPONSE, data)

    def _expire(self) -> None:
        """Fail the calls whose time is up (the listener looks at each turn)."""
        now, expired = time.monotonic(), []
        with self._state:
            while self._deadlines and self._deadlines[0][0] <= now:
                _, msg_id, timeout = heapq.heappop(self._deadlines)
                fut = self.pending.pop(msg_id, None)
                if fut is not None:
                    expired.append((fut, timeout))
        for fut, timeout in expired:
            fut._keep = None
            fut._complete(None, RuntimeError(
                f"RPCErr:1:RPC ran for more than set timeout ({int(timeout * 1000)} ms) and "
                "will now be marked with an error"), self.pool)

    # ----- the end
    def wait_pending(self, timeout: float) -> None:
        """Wait until every call this worker made has been answered."""
        deadline = time.monotonic() + timeout
        while True:
            with self._state:
                left = list(self.pending.values())
            if not left:
                return
            for fut in left:
                with fut._cond:
                    if not fut._cond.wait_for(fut.done, max(deadline - time.monotonic(), 0)
                                              if timeout < float("inf") else None):
                        raise RuntimeError(f"RPC shutdown: calls of this worker still "
                                           f"unanswered after {timeout:g} s")

    def barrier(self, timeout: float) -> None:
        """Meet every worker (``MPI_Ibarrier``, tested while the listener keeps serving)."""
        with self._lock:
            request = self.comm.Ibarrier()
        deadline = time.monotonic() + timeout
        delay = 0.0
        while True:
            with self._lock:
                if request.Test():
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"RPC shutdown: not every worker reached shutdown within "
                                   f"{timeout:g} s")
            time.sleep(delay)
            delay = min(delay * 2 or 1e-5, 1e-3)

    def stop(self) -> None:
        """Stop the pool, then the listener (which meanwhile takes what still arrives, such
        as late replies to calls that timed out, and drops it), and free the
        communicator."""
        self.pool.shutdown(wait=True)
        if self.listener.is_alive():
            self.send(self.id, STOP, b"")
            self.listener.join()
        self.comm.Free()


def _release_refs(guids: list) -> None:
    """On the owner: references that another worker let go."""
    from .api import _agent_or_raise
    agent = _agent_or_raise()
    for guid in guids:
        agent.release_ref(guid)
