"""torch.distributed.rpc and distributed autograd on 2 workers; every line it prints starts
with the worker's rank, and the test compares them with torch's own run of this file."""

import os
import sys

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
from torch.distributed.optim import DistributedOptimizer

R, W = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


def say(*what):
    # one write per line: torchrun's workers write unbuffered into one pipe
    sys.stdout.write(" ".join(map(str, (f"R{R}", *what))) + "\n")
    sys.stdout.flush()


def first_lines(e):
    # (the traceback's frames, and the frame rpc_sync names after it, differ)
    head, _, tail = str(e).partition("Traceback (most recent call last):")
    return type(e).__name__, head, [line for line in tail.replace("\\n", "\n").split("\n")
                                    if line.startswith(("ValueError", "KeyError"))]


for call in (lambda: rpc.rpc_sync("worker1", torch.add, args=(1, 2)),
             lambda: rpc.get_worker_info(), lambda: rpc.shutdown(),
             lambda: dist_autograd.context().__enter__()):
    try:
        call()
    except RuntimeError as e:
        say("before init:", e)

rpc.init_rpc(f"worker{R}", rank=R, world_size=W,
             rpc_backend_options=rpc.TensorPipeRpcBackendOptions(num_worker_threads=8))


def boom(x):
    raise ValueError(f"bad {x}")


def boom_key(x):
    raise KeyError(x)


def flags(t):
    return t.requires_grad, t.is_leaf, t.dtype, t.shape


def add_then_call_back(x, y):
    # runs on worker1: computes, then calls worker0 back with the result
    z = x * y + 1
    return rpc.rpc_sync("worker0", torch.sin, args=(z,)) * y


@rpc.functions.async_execution
def chained(to, x, y, z):
    return rpc.rpc_async(to, torch.add, args=(x, y)).then(lambda fut: fut.wait() + z)


class Counter:
    def __init__(self, start):
        self.n = start

    def bump(self, k):
        self.n += k
        return self.n

    @rpc.functions.async_execution
    def later(self, k):
        fut = torch.futures.Future()
        fut.set_result(self.n * k)
        return fut


WEIGHT = {}


def make_weight(seed):
    torch.manual_seed(seed)
    w = torch.randn(3, 4, requires_grad=True)
    WEIGHT["w"] = w
    return w


def weight_grad(ctx):
    return dist_autograd.get_gradients(ctx)[WEIGHT["w"]]


SCALE = torch.full((2,), 2.0, requires_grad=True)


def scaled(t):
    return t * SCALE


def bump_scale():
    with torch.no_grad():
        SCALE.add_(1)


def linear(w_rref, x):
    return x @ w_rref.local_value()


if R == 0:
    me, other = rpc.get_worker_info(), rpc.get_worker_info("worker1")
    say("worker info:", me, repr(other), me.id, me.name, other == rpc.get_worker_info(1))
    for call in (lambda: rpc.rpc_sync("nobody", torch.add, args=(1, 2)),
                 lambda: rpc.get_worker_info("nobody"),
                 lambda: rpc.rpc_sync("worker1", boom, args=(3,)),
                 lambda: rpc.rpc_async("worker1", boom, args=(4,)).wait(),
                 lambda: rpc.rpc_sync("worker1", boom_key, args=(6,)),
                 lambda: rpc.remote("worker1", boom, args=(5,)).to_here()):
        try:
            call()
        except (RuntimeError, ValueError) as e:
            say("error:", first_lines(e))
    fut = rpc.rpc_async("worker1", torch.add, args=(torch.ones(2), 3))
    say("rpc_async:", type(fut).__name__, fut.wait())
    say("futures:", torch.futures.wait_all([rpc.rpc_async(1, torch.mul, args=(torch.ones(2), i))
                                            for i in range(3)]))
    t = torch.ones(2, requires_grad=True)
    say("no context:", rpc.rpc_sync("worker1", flags, args=(t,)))
    say("to self:", rpc.rpc_sync("worker0", torch.add, args=(t, 1)))
    say("async_execution:", rpc.rpc_sync("worker1", chained,
                                         args=("worker0", torch.ones(2), 1, 2)))

    # RRefs
    rr = rpc.remote("worker1", torch.add, args=(torch.ones(2), 1))
    say("rref:", rr, rr.owner(), rr.owner_name(), rr.is_owner())
    say("to_here:", rr.to_here())
    try:
        rr.local_value()
    except RuntimeError as e:
        say("local_value:", e)
    say("proxies:", rr.rpc_sync().sum(), rr.rpc_async().mul(2).wait(),
        rr.remote().neg().to_here())
    lr = rpc.RRef(torch.zeros(1))
    say("local rref:", lr, lr.is_owner(), lr.local_value(), lr.to_here(), lr.owner())
    c = rpc.remote("worker1", Counter, args=(10,))
    say("remote object:", c.rpc_sync().bump(1), c.rpc_async().bump(2).wait(),
        c.remote().bump(3).to_here(), c.rpc_sync().later(2))

    # distributed autograd
    with dist_autograd.context() as cid:
        say("context id:", cid)
        y = rpc.rpc_sync("worker1", torch.mul, args=(t, 3))
        say("received:", y, type(y.grad_fn).__name__, y.grad_fn.name(), y.requires_grad, y.is_leaf)
        dist_autograd.backward(cid, [(y * y).sum()])
        g = dist_autograd.get_gradients(cid)
        say("gradients:", type(g).__name__, list(g.values()), g[t], t.grad)
    with dist_autograd.context() as cid2:
        say("next context id:", cid2)
    try:
        dist_autograd.get_gradients(cid)
    except RuntimeError as e:
        say("released:", e)

    # gradients through a call that calls back
    torch.manual_seed(0)
    a, b = torch.randn(4, requires_grad=True), torch.randn(4, requires_grad=True)
    with dist_autograd.context() as cid:
        out = rpc.rpc_sync("worker1", add_then_call_back, args=(a, b))
        loss = out.pow(2).sum()
        dist_autograd.backward(cid, [loss])
        g = dist_autograd.get_gradients(cid)
        say("call back:", loss.item(), g[a].tolist(), g[b].tolist())

    # a parameter on worker1 (an RRef), used through rpc and to_here, stepped by
    # DistributedOptimizer
    w = rpc.remote("worker1", make_weight, args=(7,))
    opt = DistributedOptimizer(torch.optim.SGD, [w], lr=0.1, momentum=0.9)
    torch.manual_seed(1)
    x = torch.randn(5, 3)
    for step in range(3):
        with dist_autograd.context() as cid:
            h = rpc.rpc_sync("worker1", linear, args=(w, x))
            loss = (h.tanh() * w.to_here().sum()).mean()
            dist_autograd.backward(cid, [loss])
            say("step", step, loss.item(), rpc.rpc_sync("worker1", weight_grad,
                                                          args=(cid,)).tolist())
            opt.step(cid)
    say("weight after 3 steps:", w.to_here().tolist())
    with dist_autograd.context() as cid:           # a saved tensor changed on worker1
        y = rpc.rpc_sync("worker1", scaled, args=(t,))
        rpc.rpc_sync("worker1", bump_scale)
        try:
            dist_autograd.backward(cid, [y.sum()])
        except RuntimeError as e:
            say("error in backward:", str(e).split("\n")[0])
    try:
        dist_autograd.backward(0, [loss])
    except RuntimeError as e:
        say("unknown context:", e)
    with dist_autograd.context() as cid:
        for roots in ([torch.ones(2, requires_grad=True) * 2], [torch.ones(())]):
            try:
                dist_autograd.backward(cid, roots)
            except RuntimeError as e:
                say("bad root:", str(e).split("\n")[0])

rpc.shutdown()
say("shut down")
try:
    rpc.get_worker_info()
except RuntimeError as e:
    say("after shutdown:", e)
