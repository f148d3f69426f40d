"""RPC round trips with ember.distributed.rpc (MPI) against torch's own (TensorPipe).

    python bench/rpc.py [--calls 300]

Two workers on this machine, each its own job: Ember's under ``python -m
ember.distributed.run`` (MPI), torch's under torchrun. Worker 0 times ``rpc_sync`` of
``torch.add`` on worker 1 for a small tensor (16 floats) and a large one (1M floats, 4 MB
each way), and a distributed-autograd step (forward through an rpc, backward back); median
microseconds per call. One BLAS thread per worker.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _median_us(fn, n: int) -> float:
    for _ in range(min(n, 20)):
        fn()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def worker(calls: int) -> None:
    import torch
    import torch.distributed.autograd as dist_autograd
    import torch.distributed.rpc as rpc
    rank = int(os.environ["RANK"])
    rpc.init_rpc(f"w{rank}", rank=rank, world_size=2)
    if rank == 0:
        small, large = torch.ones(16), torch.ones(1 << 20)
        p = torch.ones(16, requires_grad=True)

        def step():
            with dist_autograd.context() as cid:
                y = rpc.rpc_sync("w1", torch.mul, args=(p, 2))
                dist_autograd.backward(cid, [y.sum()])
        out = {"small": _median_us(lambda: rpc.rpc_sync("w1", torch.add, args=(small, 1)),
                                   calls),
               "large": _median_us(lambda: rpc.rpc_sync("w1", torch.add, args=(large, 1)),
                                   max(calls // 10, 10)),
               "autograd step": _median_us(step, calls)}
        print("RESULT " + json.dumps(out), flush=True)
    rpc.shutdown()


def _run(cmd: list, env: dict) -> dict:
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600).stdout
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(f"no result from {' '.join(cmd)}:\n{out}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=300)
    args = p.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    ember_env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [os.path.join(ROOT, "src"),
                                                                  env.get("PYTHONPATH")])))
    me = [os.path.abspath(__file__), "--worker", "--calls", str(args.calls)]
    ours = _run([sys.executable, "-m", "ember.distributed.run", "--nproc-per-node", "2", "-m",
                 "ember", *me], ember_env)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    torch_env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    theirs = _run([sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2",
                   "--master-port", str(port), *me], torch_env)
    print(f"{'rpc_sync, median us':24} {'ember (MPI)':>12} {'torch (TensorPipe)':>19}")
    for k in ours:
        print(f"{k:24} {ours[k]:12.0f} {theirs[k]:19.0f}")


if __name__ == "__main__":
    if "--worker" in sys.argv:
        sys.argv.remove("--worker")
        worker(argparse.ArgumentParser().parse_known_args()[0] and
               int(sys.argv[sys.argv.index("--calls") + 1]))
    else:
        main()
