"""``ember.distributed.autograd``: gradients across RPC calls, as torch's distributed autograd.

Inside ``with context() as context_id``, every RPC message that carries tensors requiring
grad adds a ``SendRpcBackward`` node on the sender (its edges lead to the sent tensors) and
a ``RecvRpcBackward`` node on the receiver (the received tensors are its outputs); both
remember the context and the message's id. ``backward(context_id, roots)`` runs the local
graph from the roots, stopping at the leaves, whose gradients it adds into the context (not
into ``.grad``), and at the ``RecvRpcBackward`` nodes, whose gradients it sends to the
worker that sent those tensors; that worker runs its graph on from the matching
``SendRpcBackward`` the same way, and answers when everything beyond has finished
(torch's "FAST mode"). ``get_gradients(context_id)`` returns what this worker gathered.
"""

from __future__ import annotations

import contextlib as _contextlib
import itertools as _itertools
import threading as _threading

from ...autograd import engine as _engine
from ...autograd.graph import AccumulateGrad as _AccumulateGrad
from ...autograd.graph import Node as _Node

_NOT_INITIALIZED = ("Need to initialize distributed autograd using "
                    "torch.distributed.autograd.init()")

_local = _threading.local()            # .ctx: the context of this thread's calls
_lock = _threading.Lock()
_contexts: dict = {}
_ids = {"context": None, "message": None}


class _SendRpcBackward(_Node):
    """The sender's node of a message's tensors: passes the gradients that come back for
    them on to the tensors' own nodes."""

    __slots__ = ()
    _name = "torch::distributed::autograd::SendRpcBackward"

    def __init__(self, edges) -> None:
        super().__init__()
        self.next_functions = tuple(edges)

    def apply(self, grads: list):
        return list(grads)


class _RecvRpcBackward(_Node):
    """The receiver's node of a message's tensors (its outputs): their gradients go back to
    the sender's ``SendRpcBackward``."""

    __slots__ = ("n", "src", "message_id")
    _name = "torch::distributed::autograd::RecvRpcBackward"

    def __init__(self, n: int, src: int, message_id: int) -> None:
        super().__init__()
        self.next_functions = ()
        self.n, self.src, self.message_id = n, src, message_id

    @property
    def num_outputs(self) -> int:
        return self.n


# torch has no Python class for these two C++ nodes: ``type(grad_fn).__name__`` is
# 'CppFunction' there (and tensors print the node's ``name()``)
for _cls in (_SendRpcBackward, _RecvRpcBackward):
    _cls.__name__ = _cls.__qualname__ = "CppFunction"
del _cls


class _Context:
    def __init__(self, context_id: int) -> None:
        self.id = context_id
        self.sends: dict = {}          # message id -> _SendRpcBackward
        self.recvs: list = []          # kept alive as long as the context
        self.grads: dict = {}          # leaf tensor -> gradient
        self.workers: set = set()      # workers this context exchanged messages with
        self.lock = _threading.Lock()


def _agent():
    from ..rpc.api import _state
    agent = _state.agent
    if agent is None:
        raise RuntimeError(_NOT_INITIALIZED)
    return agent


def _next(kind: str) -> int:
    agent = _agent()
    with _lock:
        if _ids[kind] is None:
            _ids[kind] = _itertools.count(agent.id << 48)
        return next(_ids[kind])


def _clear() -> None:
    """Forget every context (at RPC shutdown)."""
    with _lock:
        _contexts.clear()
        _ids["context"] = _ids["message"] = None


def _retrieve(context_id: int) -> _Context:
    with _lock:
        ctx = _contexts.get(context_id)
    if ctx is None:
        raise RuntimeError(f"Could not find autograd context with id: {context_id}")
    return ctx


class context:
    """``with context() as context_id``: a distributed autograd context around the RPC
    calls and the ``backward`` whose gradients belong together; released on exit, here and
    on every worker it reached."""

    def __enter__(self) -> int:
        _agent()
        if getattr(_local, "ctx", None) is not None:
            raise RuntimeError("Already have an autograd context id for this thread.")
        ctx = _Context(_next("context"))
        with _lock:
            _contexts[ctx.id] = ctx
        _local.ctx = ctx
        self.autograd_context = ctx
        return ctx.id

    def __exit__(self, *exc) -> None:
        _local.ctx = None
        _release(self.autograd_context.id, None)


def _release(context_id: int, sender) -> None:
    with _lock:
        ctx = _contexts.pop(context_id, None)
    if ctx is None:
        return
    from .. import rpc
    agent = _agent()
    for w in ctx.workers - {sender, agent.id}:
        rpc.rpc_async(w, _release, args=(context_id, agent.id))


@_contextlib.contextmanager
def _current(ctx):
    """Run the body with ``ctx`` as this thread's context (serving a request)."""
    prev = getattr(_local, "ctx", None)
    _local.ctx = ctx
    try:
        yield
    finally:
        _local.ctx = prev


def _record_send(tensors: list, dst: int, ctx, force: bool):
    """The autograd metadata of a message to ``dst`` carrying ``tensors`` inside a context
    (a request always carries it, as torch's Python calls; a reply only when it carries a
    tensor that requires grad), with a ``SendRpcBackward`` for the tensors when one of
    them requires grad; None outside a context."""
    ctx = ctx if ctx is not None else getattr(_local, "ctx", None)
    if ctx is None:
        return None
    requires_grad = any(t.requires_grad for t in tensors)
    if not (force or requires_grad):
        return None
    message_id = _next("message")
    with ctx.lock:
        if requires_grad:
            ctx.sends[message_id] = _SendRpcBackward([t._edge() for t in tensors])
        ctx.workers.add(dst)
    return (ctx.id, message_id)


def _record_recv(meta, tensors: list, src: int) -> _Context:
    """The message's context (made here on its first message); the received ``tensors``
    that require grad become outputs of a ``RecvRpcBackward``."""
    context_id, message_id = meta
    with _lock:
        ctx = _contexts.get(context_id)
        if ctx is None:
            ctx = _contexts[context_id] = _Context(context_id)
    with ctx.lock:
        ctx.workers.add(src)
    if not any(t._requires_grad for t in tensors):
        return ctx
    node = _RecvRpcBackward(len(tensors), src, message_id)
    for i, t in enumerate(tensors):
        if t._requires_grad:
            t._requires_grad = False
            t.grad_fn, t._output_nr = node, i
    with ctx.lock:
        ctx.recvs.append(node)
    return ctx


def _execute(ctx: _Context, buffers: dict, roots: list, retain_graph: bool) -> None:
    """Run this worker's part of the graph from ``roots``; leaves' gradients go into the
    context, ``RecvRpcBackward`` gradients to their senders (whose answers it waits for)."""
    targets = []
    seen, stack = set(roots), list(roots)
    while stack:
        node = stack.pop()
        if node.__class__ is _AccumulateGrad:
            targets.append((node, 0))
        elif node.__class__ is _RecvRpcBackward:
            targets += [(node, i) for i in range(node.n)]
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    grads = _engine.run(buffers, roots, retain_graph, False, targets, accumulate=False,
                        allow_unused=True)
    outgoing: dict = {}
    for (node, nr), g in zip(targets, grads):
        if g is None:
            continue
        if node.__class__ is _AccumulateGrad:
            with ctx.lock:
                old = ctx.grads.get(node.variable)
                ctx.grads[node.variable] = g.detach().clone() if old is None else old + g
        else:
            outgoing.setdefault(node, [None] * node.n)[nr] = g
    if outgoing:
        from .. import rpc
        with _current(None):
            futs = [rpc.rpc_async(node.src, _propagate,
                                  args=(ctx.id, node.message_id, grads, retain_graph))
                    for node, grads in outgoing.items()]
        errors = [f.wait() for f in futs]          # all answered before raising
        for error in errors:
            if error is not None:
                raise RuntimeError(error)


def _propagate(context_id: int, message_id: int, grads: list, retain_graph: bool):
    """The gradients of a message's tensors, come back to the worker that sent them: run
    on from its ``SendRpcBackward``. Returns None, or the error as torch words it
    (``Error on Node <id>: <message>``, each worker on the way back adding its own)."""
    try:
        ctx = _retrieve(context_id)
        send = ctx.sends.get(message_id)
        if send is None:
            raise RuntimeError(f"Could not find send function with id {message_id} in "
                               f"autograd context {context_id}")
        _execute(ctx, {send: list(grads)}, [send], retain_graph)
    except Exception as e:   # noqa: BLE001  (reported to the worker that sent the gradients)
        return f"Error on Node {_agent().id}: {e}"
    return None


def backward(context_id: int, roots: list, retain_graph: bool = False) -> None:
    """Backward from ``roots`` (scalar tensors) across every worker the context's RPC
    calls reached; the gradients land in each worker's context (``get_gradients``)."""
    _agent()
    ctx = _retrieve(context_id)
    from ..._tensor import Tensor
    buffers: dict = {}
    order = []
    for t in roots:
        if not isinstance(t, Tensor):
            raise TypeError("backward(): argument 'roots' must be a list of tensors")
        if t._data.size != 1:
            raise RuntimeError(" is not a scalar, all roots need to be scalar")
        if not t.requires_grad:
            raise RuntimeError("requires_grad not set on root")
        node, nr = t._edge()
        if node not in buffers:
            buffers[node] = [None] * node.num_outputs
            order.append(node)
        one = t.new_ones(t.shape).detach()
        buffers[node][nr] = one if buffers[node][nr] is None else buffers[node][nr] + one
    try:
        _execute(ctx, buffers, order, retain_graph)
    except RuntimeError as e:
        raise RuntimeError(f"Error on Node {_agent().id}: {e}") from None


def get_gradients(context_id: int) -> dict:
    """``{tensor: gradient}`` of the leaves on this worker that ``backward`` reached in the
    context."""
    _agent()
    ctx = _retrieve(context_id)
    with ctx.lock:
        return dict(ctx.grads)


def is_available() -> bool:
    """Whether distributed autograd can run (with RPC, on MPI)."""
    from .. import _mpi
    return _mpi.available()


__all__ = ["backward", "context", "get_gradients", "is_available"]
