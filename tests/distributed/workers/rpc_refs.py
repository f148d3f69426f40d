"""RRefs let go on 3 workers: the values their owners keep go with the last reference (own
RRefs, remote() results, forks sent on to a third worker or back to the owner), and not
before."""

import gc

import ember as torch
import ember.distributed.rpc as rpc
from ember.distributed.rpc.api import _state

rank = int(__import__("os").environ["RANK"])
rpc.init_rpc(f"w{rank}", rank=rank, world_size=3)
STASH = {}


def owned() -> int:
    gc.collect()
    return len(_state.agent.owned)


def settle():
    # collected RRefs queue their release; it leaves with this worker's next message
    gc.collect()
    for w in ("w0", "w1", "w2"):
        rpc.rpc_sync(w, gc.collect)
    for w in ("w0", "w1", "w2"):
        rpc.rpc_sync(w, owned)


def total(rref):
    return rref.to_here().sum().item()


def stash(rref):
    STASH["r"] = rref


def stashed_total():
    return STASH["r"].to_here().sum().item()


def stashed_local():
    return STASH["r"].local_value().sum().item()


def unstash():
    STASH.clear()


if rank == 0:
    base = [rpc.rpc_sync(w, owned) for w in ("w0", "w1", "w2")]
    for i in range(30):                       # own RRefs used by another worker
        r = rpc.RRef(torch.full((100,), float(i)))
        assert rpc.rpc_sync("w1", total, args=(r,)) == 100.0 * i
        del r
    for i in range(30):                       # remote() results, fetched
        r = rpc.remote("w1", torch.full, args=((10,), float(i)))
        assert r.to_here().sum().item() == 10.0 * i
        del r
    settle()
    assert [rpc.rpc_sync(w, owned) for w in ("w0", "w1", "w2")] == base, base

    r = rpc.remote("w1", torch.ones, args=(3,))   # a fork held by a third worker
    rpc.rpc_sync("w2", stash, args=(r,))
    q = rpc.remote("w1", torch.ones, args=(4,))   # a fork held by the owner itself
    rpc.rpc_sync("w1", stash, args=(q,))
    del r, q
    settle()
    assert rpc.rpc_sync("w2", stashed_total) == 3.0
    assert rpc.rpc_sync("w1", stashed_local) == 4.0
    rpc.rpc_sync("w2", unstash)
    rpc.rpc_sync("w1", unstash)
    settle()
    settle()
    assert [rpc.rpc_sync(w, owned) for w in ("w0", "w1", "w2")] == base
    print("OK references", base, flush=True)
rpc.shutdown()
print(f"OK rank {rank}", flush=True)
