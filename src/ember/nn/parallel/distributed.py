"""``DistributedDataParallel``: one model replica per rank, gradients averaged by MPI.

As torch's: the parameters and buffers are broadcast from rank 0 when the wrapper is built;
the gradients are averaged with ``all_reduce`` in buckets of about ``bucket_cap_mb`` (the
first one 1 MiB, the parameters taken in reverse order, as they become ready in backward),
and each bucket's reduction starts from the parameters' post-accumulate-grad hooks while
backward is still running; the buckets start in the same order on every rank.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as _np

from ... import distributed as dist
from ...autograd.grad_mode import is_grad_enabled as _is_grad_enabled
from ...distributed import distributed_c10d as _c10d
from ..modules.module import Module

__all__ = ["DistributedDataParallel"]

_FIRST_BUCKET_BYTES = 1024 * 1024
_DEFAULT_BUCKET_MB = 25

_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new one. "
    "This error indicates that your module has parameters that were not used in producing "
    "loss. You can enable unused parameter detection by passing the keyword argument "
    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by \n"
    "making sure all `forward` function outputs participate in calculating loss. \n"
    "Parameter indices which did not receive grad for rank {rank}: {missing}")


class _Bucket:
    """Gradients of a few parameters of one dtype, reduced with one ``all_reduce``."""

    def __init__(self, params: list, indices: list[int]) -> None:
        self.params, self.indices = params, indices
        self.sizes = [p.numel() for p in params]
        self.offsets = _np.cumsum([0, *self.sizes]).tolist()
        self.flat = _np.empty(self.offsets[-1], params[0]._data.dtype)
        self.pending = len(params)
        self.work = None

    def slot(self, k: int) -> _np.ndarray:
        return self.flat[self.offsets[k]:self.offsets[k + 1]]


def _assign_buckets(params: list, cap: int) -> list[list[int]]:
    """torch's ``compute_bucket_assignment_by_size``: parameters in reverse order, a bucket
    per dtype closed once it holds ``cap`` bytes (the first one 1 MiB)."""
    open_: dict = {}
    limits: dict = {}
    done = []
    for i in reversed(range(len(params))):
        p = params[i]
        key = p._data.dtype
        b = open_.setdefault(key, [[], 0])
        b[0].append(i)
        b[1] += p._data.nbytes
        limit = limits.setdefault(key, min(_FIRST_BUCKET_BYTES, cap))
        if b[1] >= limit:
            done.append(b[0])
            del open_[key]
            limits[key] = cap
    done.extend(b[0] for b in open_.values() if b[0])
    return sorted(done, key=lambda idx: -max(idx))


class _Reducer:
    """Marks parameters ready from their hooks and all-reduces full buckets in order."""

    def __init__(self, params: list, pg, cap: int, find_unused: bool) -> None:
        self.params, self.pg, self.find_unused = params, pg, find_unused
        self.world = pg.size()
        self.buckets = [_Bucket([params[i] for i in idx], idx)
                        for idx in _assign_buckets(params, cap)]
        self.where = {}
        for b in self.buckets:
            for k, i in enumerate(b.indices):
                self.where[id(params[i])] = (b, k)
        self.expecting = False
        self.ready: set[int] = set()
        self.unused: set[int] = set()
        self.next = 0

    def prepare(self, outputs) -> None:
        """Called after a forward pass that backward will sync: reset the buckets and, with
        ``find_unused``, mark the parameters that the outputs do not depend on."""
        for b in self.buckets:
            b.pending, b.work = len(b.params), None
        self.ready, self.next = set(), 0
        self.unused = set()
        if self.find_unused:
            used = _leaves_reached(outputs)
            for i, p in enumerate(self.params):
                if id(p) not in used:
                    self.unused.add(i)
                    self.where[id(p)][0].pending -= 1
        self.expecting = True

    def check_finished(self) -> None:
        if self.expecting and self.ready:
            missing = [i for i in range(len(self.params))
                       if i not in self.ready and i not in self.unused]
            raise RuntimeError(_UNFINISHED.format(rank=dist.get_rank(), missing=missing))

    def hook(self, p) -> None:
        if not self.expecting:
            return
        b, k = self.where[id(p)]
        i = b.indices[k]
        if i in self.ready or i in self.unused:
            raise RuntimeError(
                f"Expected to mark a variable ready only once. This error is caused by one of "
                f"the following reasons: 1) Use of a module parameter outside the `forward` "
                f"function. 2) Reused parameters in multiple reentrant backward passes. "
                f"Parameter at index {i} has been marked as ready twice.")
        self.ready.add(i)
        _np.multiply(p._grad._data.reshape(-1), 1.0 / self.world, out=b.slot(k),
                    casting="unsafe")
        b.pending -= 1
        if b.pending == 0:
            self._launch()

    def _launch(self) -> None:
        buckets = self.buckets
        while self.next < len(buckets) and buckets[self.next].pending == 0:
            b = buckets[self.next]
            for k, i in enumerate(b.indices):
                if i in self.unused:             # its slot: its own gradient, if any, or zeros
                    g = b.params[k]._grad
                    if g is None:
                        b.slot(k)[...] = 0
                    else:
                        _np.multiply(g._data.reshape(-1), 1.0 / self.world, out=b.slot(k),
                                    casting="unsafe")
            b.work = _c10d._start_all_reduce(b.flat, self.pg, f"DDP bucket {self.next}")
            self.next += 1
            for earlier in buckets[:self.next - 1]:  # let MPI move the earlier ones along
                earlier.work.is_completed()
        if self.next == len(buckets):
            self._finish()

    def _finish(self) -> None:
        """Every bucket is on its way: wait, then write the averages into ``.grad``."""
        self.expecting = False
        for b in self.buckets:
            b.work.wait()
        skip = set()
        if self.find_unused:
            used = _np.zeros(len(self.params), _np.int32)
            used[list(self.ready)] = 1
            _c10d._start_all_reduce(used, self.pg, "DDP used parameters").wait()
            skip = {i for i in self.unused if used[i] == 0}
        from ..._tensor import Tensor
        for b in self.buckets:
            for k, (p, i) in enumerate(zip(b.params, b.indices)):
                if i in skip:
                    continue
                avg = b.slot(k).reshape(p._data.shape)
                if p._grad is None:
                    p._grad = Tensor._wrap(avg.copy())
                else:
                    p._grad._data[...] = avg
                    p._grad._vc.value += 1
        self.ready = set()


def _leaves_reached(outputs) -> set[int]:
    """The ids of the leaf tensors whose gradients backward from ``outputs`` would reach."""
    from ..._tensor import Tensor
    from ...autograd.graph import AccumulateGrad
    stack, seen, leaves = [], set(), set()

    def collect(o):
        if isinstance(o, Tensor):
            if o.grad_fn is not None:
                stack.append(o.grad_fn)
            elif o.requires_grad:
                leaves.add(id(o))
        elif isinstance(o, (list, tuple)):
            for x in o:
                collect(x)
        elif isinstance(o, dict):
            for x in o.values():
                collect(x)

    collect(outputs)
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is AccumulateGrad:
            leaves.add(id(node.variable))
            continue
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _broadcast_coalesced(tensors: list, pg, src: int = 0) -> None:
    """Broadcast tensors from ``src``, one flat message per dtype."""
    from ..._tensor import Tensor
    by_dtype: dict = {}
    for t in tensors:
        by_dtype.setdefault(t._data.dtype, []).append(t)
    for group in by_dtype.values():
        flat = Tensor._wrap(_np.concatenate([t._data.reshape(-1) for t in group]))
        dist.broadcast(flat, src=src, group=pg)
        offset = 0
        for t in group:
            n = t._data.size
            t._data[...] = flat._data[offset:offset + n].reshape(t._data.shape)
            t._vc.value += 1
            offset += n


class DistributedDataParallel(Module):
    """Data parallelism over the ranks of a process group (torch's DDP).

    Each rank runs ``module`` on its own share of each batch; after ``backward`` every
    parameter's ``.grad`` holds the average over the ranks, so ``optimizer.step()`` keeps the
    replicas equal. ``no_sync()`` accumulates gradients locally for a while;
    ``find_unused_parameters`` lets a forward pass leave parameters out; with
    ``broadcast_buffers`` rank 0's buffers (batch-norm statistics) are copied to the others
    before each forward. ``state_dict`` keys carry the ``module.`` prefix, as torch's.
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0,
                 broadcast_buffers: bool = True, init_sync: bool = True, process_group=None,
                 bucket_cap_mb: float | None = None, find_unused_parameters: bool = False,
                 check_reduction: bool = False, gradient_as_bucket_view: bool = False,
                 static_graph: bool = False, delay_all_reduce_named_params=None,
                 param_to_hook_all_reduce=None, mixed_precision=None, device_mesh=None,
                 skip_all_reduce_unused_params: bool = False) -> None:
        super().__init__()
        if device_ids or output_device is not None:
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work with "
                "single-device/multiple-device GPU modules or CPU modules, but got device_ids "
                f"{device_ids}, output_device {output_device}, and module parameters "
                "{device(type='cpu')}.")
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        self.module = module
        pg = _c10d._pg(process_group)
        self.process_group = pg
        self.dim = dim
        self.device_ids = None
        self.output_device = None
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.bucket_bytes_cap = int((_DEFAULT_BUCKET_MB if bucket_cap_mb is None
                                     else bucket_cap_mb) * 1024 * 1024)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self._buffers_to_sync = list(module.buffers())
        _verify_same_model(params, pg)
        if init_sync:
            src = pg._ranks[0]
            _broadcast_coalesced(list(module.parameters()) + self._buffers_to_sync, pg, src)
        self.reducer = _Reducer(params, pg, self.bucket_bytes_cap, find_unused_parameters)
        self._hooks_handles = [p.register_post_accumulate_grad_hook(self.reducer.hook)
                               for p in params]

    def forward(self, *inputs, **kwargs):
        sync = _is_grad_enabled() and self.require_backward_grad_sync
        if sync:
            self.reducer.check_finished()
        if self.require_forward_param_sync and self.broadcast_buffers and self._buffers_to_sync:
            _broadcast_coalesced(self._buffers_to_sync, self.process_group,
                                 self.process_group._ranks[0])
        out = self.module(*inputs, **kwargs)
        if sync:
            self.require_forward_param_sync = True
            self.reducer.prepare(out)
        else:
            self.require_forward_param_sync = False
            self.reducer.expecting = False
        return out

    @contextmanager
    def no_sync(self):
        """Within this context backward accumulates gradients locally, without all_reduce;
        the first backward after it averages the accumulated gradients."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old


def _verify_same_model(params: list, pg) -> None:
    """torch's check that every rank wraps a model with the same parameter shapes."""
    mine = [(tuple(p.shape), str(p.dtype)) for p in params]
    everyone = [None] * pg.size()
    dist.all_gather_object(everyone, mine, group=pg)
    for r, theirs in enumerate(everyone):
        if len(theirs) != len(mine):
            raise RuntimeError(
                f"DDP expects same model across all ranks, but Rank {pg.rank()} has "
                f"{len(mine)} params, while rank {pg._ranks[r]} has inconsistent "
                f"{len(theirs)} params.")
        for i, (a, b) in enumerate(zip(mine, theirs)):
            if a != b:
                raise RuntimeError(
                    f"DDP expects same model across all ranks, but Rank {pg.rank()} has "
                    f"parameter {i} of shape {list(a[0])} ({a[1]}), while rank "
                    f"{pg._ranks[r]} has one of shape {list(b[0])} ({b[1]}).")


del annotations  # keep dir() to torch's names
