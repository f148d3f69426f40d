"""Moving a DTensor's local pieces between placements, one mesh dimension at a time, by the
collectives of that dimension's process group; differentiable.

Gradient convention: the gradient of a local piece is, on every rank, the local piece of the
gradient laid out as ``Shard`` where the tensor is sharded and as ``Replicate`` (the whole
gradient) where it is replicated or partial (torch's placements of gradients, Partial
normalised to Replicate). Each move's backward is the move between those layouts the other
way round.
"""

from __future__ import annotations

import numpy as np

from .. import distributed_c10d as c10d
from .placement_types import Replicate, Shard


def _pow(arr: np.ndarray, exponent: float) -> np.ndarray:
    """``arr ** exponent`` by torch's kernel (its square root is not NumPy's on every
    value)."""
    from ..._tensor import Tensor
    return Tensor._wrap(arr).pow(exponent)._data

_REDUCE = {"sum": "SUM", "avg": "AVG", "max": "MAX", "min": "MIN", "product": "PRODUCT"}


def grad_placement(p):
    """The placement of the gradient of a tensor laid out as ``p``."""
    return Replicate() if p.is_partial() else p


def chunk_bounds(size: int, n: int, i: int) -> tuple[int, int]:
    """Start and stop of piece ``i`` of ``size`` split ``n`` ways as ``torch.chunk`` splits."""
    length, start = Shard.local_shard_size_and_offset(size, n, i)
    return start, start + length


def level_size(shape, mesh, placements, dim: int, mesh_dim: int) -> int:
    """The size of tensor dimension ``dim`` that mesh dimension ``mesh_dim`` splits: the
    global size cut by the mesh dimensions before it that shard ``dim``."""
    size = shape[dim]
    coord = mesh.get_coordinate()
    for j in range(mesh_dim):
        if placements[j].is_shard(dim):
            a, b = chunk_bounds(size, mesh.size(j), coord[j])
            size = b - a
    return size


def local_shape(shape, mesh, placements) -> tuple[int, ...]:
    """This rank's piece's shape of a tensor of global ``shape``."""
    out = list(shape)
    coord = mesh.get_coordinate()
    for j, p in enumerate(placements):
        if p.is_shard():
            a, b = chunk_bounds(out[p.dim], mesh.size(j), coord[j])
            out[p.dim] = b - a
    return tuple(out)


def _wrap(arr):
    from ..._tensor import Tensor
    return Tensor._wrap(arr)


def _take(arr, dim: int, a: int, b: int):
    index = [slice(None)] * arr.ndim
    index[dim] = slice(a, b)
    return np.ascontiguousarray(arr[tuple(index)])


def _pad(arr, dim: int, width: int):
    if arr.shape[dim] == width:
        return np.ascontiguousarray(arr)
    shape = list(arr.shape)
    shape[dim] = width
    out = np.zeros(shape, arr.dtype)
    out[tuple(slice(0, s) for s in arr.shape)] = arr
    return out


def all_gather(arr, mesh, mesh_dim: int, dim: int, size: int):
    """The whole of tensor dimension ``dim`` (of ``size``) from every rank's piece."""
    group, n = mesh.get_group(mesh_dim), mesh.size(mesh_dim)
    full = -(-size // n) if size else 0
    mine = np.moveaxis(_pad(arr, dim, full), dim, 0)
    out = np.empty((n, *mine.shape), arr.dtype)
    c10d.all_gather_into_tensor(_wrap(out), _wrap(np.ascontiguousarray(mine)), group=group)
    pieces = [out[i][:chunk_bounds(size, n, i)[1] - chunk_bounds(size, n, i)[0]]
              for i in range(n)]
    return np.ascontiguousarray(np.moveaxis(np.concatenate(pieces, 0), 0, dim))


def chunk(arr, mesh, mesh_dim: int, dim: int):
    """This rank's piece of tensor dimension ``dim``."""
    a, b = chunk_bounds(arr.shape[dim], mesh.size(mesh_dim), mesh.get_local_rank(mesh_dim))
    return _take(arr, dim, a, b)


def all_reduce(arr, mesh, mesh_dim: int, op: str):
    out = np.array(arr, copy=True, order="C")
    c10d.all_reduce(_wrap(out), getattr(c10d.ReduceOp, _REDUCE[op]),
                    group=mesh.get_group(mesh_dim))
    return out


def reduce_scatter(arr, mesh, mesh_dim: int, op: str, dim: int):
    """The reduction over the ranks, of which each keeps its piece of ``dim``."""
    group, n = mesh.get_group(mesh_dim), mesh.size(mesh_dim)
    size = arr.shape[dim]
    full = -(-size // n) if size else 0
    whole = np.moveaxis(_pad(arr, dim, full * n), dim, 0)
    whole = np.ascontiguousarray(whole)
    out = np.empty((full, *whole.shape[1:]), arr.dtype)
    c10d.reduce_scatter_tensor(_wrap(out), _wrap(whole), getattr(c10d.ReduceOp, _REDUCE[op]),
                               group=group)
    a, b = chunk_bounds(size, n, mesh.get_local_rank(mesh_dim))
    return np.ascontiguousarray(np.moveaxis(out[:b - a], 0, dim))


def move(arr, mesh, mesh_dim: int, src, dst, size: int):
    """One mesh dimension's move of a local piece from ``src`` to ``dst`` (``size``: the
    split dimension's size at this level, for a ``Shard`` source)."""
    if src == dst:
        return arr
    n = mesh.size(mesh_dim)
    if src.is_shard():
        whole = all_gather(arr, mesh, mesh_dim, src.dim, size)
        if dst.is_replicate():
            return whole
        if dst.is_shard():
            return chunk(whole, mesh, mesh_dim, dst.dim)
        return move(whole, mesh, mesh_dim, Replicate(), dst, size)
    if src.is_replicate():
        if dst.is_shard():
            return chunk(arr, mesh, mesh_dim, dst.dim)
        norm = getattr(dst, "norm_type", None)
        if norm is not None and float(norm) not in (0.0, 1.0):
            return (arr / n ** (1.0 / norm)).astype(arr.dtype, copy=False)
        if dst.reduce_op == "sum":
            return (arr / n).astype(arr.dtype, copy=False)
        return np.array(arr, copy=True)
    # a Partial source
    norm = getattr(src, "norm_type", None)
    if norm is not None and float(norm) not in (0.0, 1.0):
        whole = _pow(all_reduce(_pow(arr, norm), mesh, mesh_dim, "sum"), 1.0 / norm)
        return whole if dst.is_replicate() else move(whole, mesh, mesh_dim, Replicate(), dst,
                                                     size)
    if dst.is_replicate():
        return all_reduce(arr, mesh, mesh_dim, src.reduce_op)
    if dst.is_shard():
        return reduce_scatter(arr, mesh, mesh_dim, src.reduce_op, dst.dim)
    whole = all_reduce(arr, mesh, mesh_dim, src.reduce_op)
    return move(whole, mesh, mesh_dim, Replicate(), dst, size)


def _plan(src, dst) -> list:
    """The moves (mesh dim, from, to) taking ``src`` to ``dst``. First, innermost mesh
    dimension first, every changing placement is made Replicate (a partial going to a
    shard of a dimension nothing else splits is reduce-scattered at once), and so is a
    shard that a changing outer mesh dimension would have to split before it; then,
    outermost first, the targets are cut, so that every split sees its level's sizes."""
    n = len(src)
    steps, current = [], list(src)

    def touched(k, d):
        return current[k] != dst[k] and (src[k].is_shard(d) or dst[k].is_shard(d))

    for i in reversed(range(n)):
        p, q = current[i], dst[i]
        reset = p != q or (p.is_shard() and any(touched(k, p.dim) for k in range(i)))
        if not reset or p.is_replicate():
            continue
        if p.is_partial() and q.is_shard() and not any(
                k != i and (current[k].is_shard(q.dim) or dst[k].is_shard(q.dim))
                for k in range(n)):
            steps.append((i, p, q))
            current[i] = q
            continue
        steps.append((i, p, Replicate()))
        current[i] = Replicate()
    for i in range(n):
        if current[i] != dst[i]:
            steps.append((i, current[i], dst[i]))
            current[i] = dst[i]
    return steps


def redistribute_array(arr, shape, mesh, src, dst):
    """``arr`` (this rank's piece of a tensor of global ``shape`` laid out as ``src``) laid
    out as ``dst``."""
    current = list(src)
    for i, a, b in _plan(tuple(src), tuple(dst)):
        size = level_size(shape, mesh, current, a.dim, i) if a.is_shard() else 0
        arr = move(arr, mesh, i, a, b, size)
        current[i] = b
    return arr


def _function():
    from ...autograd import Function

    class Redistribute(Function):
        """A local piece laid out again; the gradient goes back the other way."""

        @staticmethod
        def forward(ctx, local, shape, mesh, src, dst):
            ctx.args = (shape, mesh, tuple(grad_placement(p) for p in dst),
                        tuple(grad_placement(p) for p in src))
            return _wrap(redistribute_array(local._data, shape, mesh, src, dst))

        @staticmethod
        def backward(ctx, grad):
            shape, mesh, gsrc, gdst = ctx.args
            return (_wrap(redistribute_array(grad._data, shape, mesh, gsrc, gdst)),
                    None, None, None, None)

    class GradAllReduce(Function):
        """The identity whose backward sums the gradient over one mesh dimension: a
        replicated input of a local computation whose result is sharded or partial sees
        on each rank only its rank's term of its gradient."""

        @staticmethod
        def forward(ctx, local, mesh, mesh_dim):
            ctx.args = (mesh, mesh_dim)
            return local.view_as(local)

        @staticmethod
        def backward(ctx, grad):
            mesh, mesh_dim = ctx.args
            return _wrap(all_reduce(grad._data, mesh, mesh_dim, "sum")), None, None

    return Redistribute, GradAllReduce


_FUNCTIONS: list = []


def functions():
    """The autograd functions (made on first use: ``ember.autograd`` loads late)."""
    if not _FUNCTIONS:
        _FUNCTIONS.extend(_function())
    return _FUNCTIONS


def redistribute_local(local, shape, mesh, src, dst):
    """``local`` laid out from ``src`` to ``dst`` (differentiable)."""
    src, dst = tuple(src), tuple(dst)
    if src == dst:
        return local
    return functions()[0].apply(local, tuple(shape), mesh, src, dst)


def grad_all_reduce(local, mesh, mesh_dim: int):
    """``local``, whose gradient is summed over ``mesh_dim`` in backward."""
    return functions()[1].apply(local, mesh, mesh_dim)


del annotations
