"""Every collective on 2 or 3 ranks, against NumPy's answer, for several dtypes and shapes.

Each rank's data is drawn from a seed of (rank, case), so every rank knows every other
rank's data and computes the expected result itself. The values are small integers, so sums
and products are exact in every dtype and the comparisons are exact.
"""

import warnings
import zlib
from datetime import timedelta

import numpy as np

import ember as torch
import ember.distributed as dist
from ember.utils.data import DataLoader, DistributedSampler, TensorDataset

try:
    dist.get_rank()
except ValueError as e:
    assert "Default process group has not been initialized" in str(e)
else:
    raise AssertionError("get_rank before init_process_group did not raise")
assert not dist.is_initialized() and dist.is_available() and dist.is_mpi_available()
dist.init_process_group(backend="mpi", init_method="env://", timeout=timedelta(seconds=20))
assert dist.is_initialized() and dist.get_backend() == "mpi"
R, W = dist.get_rank(), dist.get_world_size()
Op = dist.ReduceOp

DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "int64": torch.int64, "int32": torch.int32, "int8": torch.int8,
          "uint8": torch.uint8, "bool": torch.bool, "complex64": torch.complex64}
SHAPES = [(), (7,), (3, 4), (2, 0, 3), (1000,)]


def data(rank, name, shape, case):
    rng = np.random.RandomState(zlib.crc32(repr((rank, name, shape, case)).encode()))
    np_dtype = torch.empty(0, dtype=DTYPES[name]).numpy().dtype
    if name == "bool":
        return np.asarray(rng.randint(0, 2, shape)).astype(bool)
    lo = 0 if name == "uint8" else -2
    a = rng.randint(lo, 3, shape)
    if name == "complex64":
        a = a + 1j * rng.randint(-2, 3, shape)
    return np.asarray(a).astype(np_dtype)


def tensor(a):
    return torch.from_numpy(a.copy())


def same(t, expected, what):
    got = t.numpy()
    assert got.dtype == expected.dtype, (what, got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected, err_msg=str(what))


def reference(op, arrays):
    stack = np.stack(arrays)
    if stack.dtype == bool:
        return {Op.SUM: np.any, Op.MAX: np.any, Op.PRODUCT: np.all,
                Op.MIN: np.all}[op](stack, axis=0)
    if op is Op.AVG:
        return (stack.sum(0) / np.array(W, stack.dtype)).astype(stack.dtype)
    f = {Op.SUM: np.sum, Op.PRODUCT: np.prod, Op.MIN: np.min, Op.MAX: np.max}[op]
    return f(stack, axis=0).astype(stack.dtype)


def ops_for(name):
    if name == "bool":
        return [Op.SUM, Op.PRODUCT, Op.MIN, Op.MAX]
    if name == "complex64":
        return [Op.SUM, Op.AVG]
    if name.startswith(("int", "uint")):
        return [Op.SUM, Op.PRODUCT, Op.MIN, Op.MAX]
    return [Op.SUM, Op.AVG, Op.PRODUCT, Op.MIN, Op.MAX]


for name in DTYPES:
    for shape in SHAPES:
        mine = [data(r, name, shape, 0) for r in range(W)]
        for op in ops_for(name):
            t = tensor(mine[R])
            dist.all_reduce(t, op=op)
            same(t, reference(op, mine), ("all_reduce", name, shape, op))
            for dst in range(W):
                t = tensor(mine[R])
                dist.reduce(t, dst=dst, op=op)
                if R == dst:
                    same(t, reference(op, mine), ("reduce", name, shape, op, dst))
        for src in range(W):
            t = tensor(mine[R])
            dist.broadcast(t, src=src)
            same(t, mine[src], ("broadcast", name, shape, src))
        outs = [torch.empty(shape, dtype=DTYPES[name]) for _ in range(W)]
        dist.all_gather(outs, tensor(mine[R]))
        for r in range(W):
            same(outs[r], mine[r], ("all_gather", name, shape, r))
        out = torch.empty((W * max(1, int(np.prod(shape))),) if shape == () else
                          (W * shape[0], *shape[1:]), dtype=DTYPES[name])
        dist.all_gather_into_tensor(out, tensor(mine[R]))
        same(out, np.concatenate([m.reshape(-1) if shape == () else m for m in mine]),
             ("all_gather_into_tensor", name, shape))
        for dst in range(W):
            glist = [torch.empty(shape, dtype=DTYPES[name]) for _ in range(W)] \
                if R == dst else None
            dist.gather(tensor(mine[R]), glist, dst=dst)
            if R == dst:
                for r in range(W):
                    same(glist[r], mine[r], ("gather", name, shape, dst))
            slist = [tensor(data(dst, name, shape, 10 + r)) for r in range(W)] \
                if R == dst else None
            t = torch.empty(shape, dtype=DTYPES[name])
            dist.scatter(t, slist, src=dst)
            same(t, data(dst, name, shape, 10 + R), ("scatter", name, shape, dst))
    # reduce_scatter_tensor: rank i gets the i-th chunk of the reduction
    big = [data(r, name, (W * 4, 3), 1) for r in range(W)]
    for op in ops_for(name):
        out = torch.empty(4, 3, dtype=DTYPES[name])
        dist.reduce_scatter_tensor(out, tensor(big[R]), op=op)
        same(out, reference(op, big)[R * 4:(R + 1) * 4], ("reduce_scatter_tensor", name, op))

# a non-contiguous tensor is reduced through a copy and written back
t = tensor(np.arange(12.0).reshape(3, 4)).t()
dist.all_reduce(t)
same(t, (np.arange(12.0).reshape(3, 4) * W).T, "non-contiguous")

# async: Work.wait / is_completed, in place
t = tensor(np.full(1 << 16, R + 1.0, np.float32))
work = dist.all_reduce(t, async_op=True)
assert isinstance(work, dist.Work)
assert work.wait() is True and work.is_completed()
same(t, np.full(1 << 16, W * (W + 1) / 2, np.float32), "async all_reduce")
assert dist.barrier(async_op=True).wait()

# point to point: a ring of send/recv, isend/irecv, and recv from any source
nxt, prv = (R + 1) % W, (R - 1) % W
got = torch.empty(5)
if R % 2 == 0:
    dist.send(tensor(np.full(5, R, np.float32)), nxt)
    assert dist.recv(got, prv) == prv
else:
    assert dist.recv(got, prv) == prv
    dist.send(tensor(np.full(5, R, np.float32)), nxt)
same(got, np.full(5, prv, np.float32), "send/recv")
reqs = [dist.isend(tensor(np.arange(3) + 10 * R), nxt, tag=7)]
got = torch.empty(3, dtype=torch.int64)
reqs.append(dist.irecv(got, prv, tag=7))
for w in reqs:
    w.wait()
same(got, np.arange(3) + 10 * prv, "isend/irecv")
if R == 0:
    senders = set()
    for _ in range(W - 1):
        t = torch.empty(1, dtype=torch.int64)
        s = dist.recv(t)
        assert t.item() == s * 100
        senders.add(s)
    assert senders == set(range(1, W))
else:
    dist.send(torch.tensor([R * 100]), 0)
try:
    dist.send(torch.ones(1), R)
except ValueError as e:
    assert "Invalid destination rank" in str(e)
else:
    raise AssertionError("send to self did not raise")

# Python objects
objs = [None] * W
dist.all_gather_object(objs, {"rank": R, "name": "r" * R})
assert objs == [{"rank": r, "name": "r" * r} for r in range(W)], objs
lst = [R, f"from {R}", None] if R == W - 1 else [0, 0, 0]
dist.broadcast_object_list(lst, src=W - 1)
assert lst == [W - 1, f"from {W - 1}", None], lst

# a group of ranks 0 and 1: collectives inside it; the others are outside
sub = dist.new_group([0, 1])
if R < 2:
    assert dist.get_rank(sub) == R and dist.get_world_size(sub) == 2
    t = torch.tensor([float(R + 1)])
    dist.all_reduce(t, group=sub)
    assert t.item() == 3.0
    t = torch.tensor([float(R)])
    dist.broadcast(t, src=1, group=sub)
    assert t.item() == 1.0
    assert dist.get_process_group_ranks(sub) == [0, 1]
else:
    assert sub is dist.GroupMember.NON_GROUP_MEMBER and dist.get_rank(sub) == -1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert dist.all_reduce(torch.ones(1), group=sub) is None
    assert "does not belong to the given group" in str(caught[0].message)

# torch's errors for bad calls (raised on every rank alike, before any communication)
def raises(kind, text, f):
    try:
        f()
    except kind as e:
        assert text in str(e), (text, str(e))
    else:
        raise AssertionError(f"no {kind.__name__} ({text})")


raises(ValueError, "all_reduce does not support RedOpType.MAX on complex tensors",
       lambda: dist.all_reduce(torch.ones(2, dtype=torch.complex64), op=Op.MAX))
raises(ValueError, "output tensor size must be equal to world_size times input tensor size",
       lambda: dist.all_gather_into_tensor(torch.empty(W * 2 + 1), torch.ones(2)))
raises(ValueError, "output tensor must have the same type as input tensor",
       lambda: dist.all_gather_into_tensor(torch.empty(W * 2, dtype=torch.float64),
                                           torch.ones(2)))
raises(RuntimeError, "invalid tensor size",
       lambda: dist.all_gather([torch.empty(3) for _ in range(W)], torch.ones(2)))
raises(TypeError, "Expected parameter `tensor` of type torch.Tensor",
       lambda: dist.all_reduce(np.ones(2)))
raises(RuntimeError, "invalid root rank: 9", lambda: dist.broadcast(torch.ones(1), 9))
raises(ValueError, "must NOT be specified on non-destination ranks" if R else
       "must be specified on destination rank",
       lambda: dist.gather(torch.ones(1), [torch.ones(1)] * W if R else None, dst=0))
raises(ValueError, "trying to initialize the default process group twice!",
       dist.init_process_group)

# the sampler's defaults come from the group; the ranks' shares cover the data set
ds = TensorDataset(torch.arange(23))
sampler = DistributedSampler(ds, seed=5)
assert sampler.num_replicas == W and sampler.rank == R
mine = [int(x) for (b,) in DataLoader(ds, batch_size=4, sampler=sampler) for x in b]
everyone = [None] * W
dist.all_gather_object(everyone, mine)
assert sorted(set(sum(everyone, []))) == list(range(23))

dist.barrier()
dist.destroy_process_group()
assert not dist.is_initialized()
print(f"OK rank {R}", flush=True)
