"""Data parallelism with ember.distributed: training steps per second on 1 and 2 ranks, and
``all_reduce`` against mpi4py called directly on NumPy arrays.

    python bench/ddp.py [--batch-size 256] [--steps 30] [--ranks 2]

Each configuration runs as its own MPI job (``python -m ember.distributed.run``), with one
BLAS thread per rank so that one rank uses one core. The 1-rank run trains the plain model
on the whole batch; the N-rank run trains DistributedDataParallel with the batch split
between the ranks (the same global batch, so the same training).

speed-up = steps/s on N ranks / steps/s on 1 rank (target >= 1.6 with 2 ranks on 2 cores);
ceiling = the same with the N ranks training independently, without any communication: the
speed-up the free cores allow at the time (on a busy machine it is well below N);
all_reduce ratio = mpi4py time / ember time, best of several rounds (target >= 0.9).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _mlp(nn):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256),
                         nn.ReLU(), nn.Linear(256, 10))


def _step(model, opt, loss_fn, xb, yb) -> None:
    opt.zero_grad()
    loss_fn(model(xb), yb).backward()
    opt.step()


def worker(args) -> None:
    """One rank: time training steps of both models, then all_reduce; rank 0 prints JSON."""
    import numpy as np

    import ember as torch
    import ember.distributed as dist
    from ember.examples.digits import build_model, load_digits
    from ember.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group()
    rank, world = dist.get_rank(), dist.get_world_size()
    images, labels = load_digits()
    x, y = torch.tensor(images), torch.tensor(labels)
    per_rank = args.batch_size // world
    result = {"world": world, "batch_size": args.batch_size}
    for name, make in (("digits CNN", build_model), ("MLP", _mlp)):
        torch.manual_seed(0)
        model = make(torch.nn)
        if world > 1 and not args.local:
            model = DDP(model)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loss_fn = torch.nn.CrossEntropyLoss()
        starts = [(k * args.batch_size + rank * per_rank) % (len(y) - per_rank)
                  for k in range(args.steps + 3)]

        for s in starts[:3]:
            _step(model, opt, loss_fn, x[s:s + per_rank], y[s:s + per_rank])
        dist.barrier()
        t0 = time.perf_counter()
        for s in starts[3:]:
            _step(model, opt, loss_fn, x[s:s + per_rank], y[s:s + per_rank])
        dist.barrier()
        result[name] = args.steps / (time.perf_counter() - t0)
    if world > 1 and not args.local:
        comm = dist.group.WORLD._comm
        from mpi4py import MPI
        for mb in (1, 64):
            arr = np.ones(mb * 1024 * 1024 // 4, np.float32)
            t = torch.from_numpy(arr.copy())
            reps = 50 if mb == 1 else 5
            best_e = best_m = float("inf")
            for _ in range(5):                 # alternate rounds: load bursts hit both
                dist.barrier()
                t0 = time.perf_counter()
                for _ in range(reps):
                    dist.all_reduce(t)
                best_e = min(best_e, (time.perf_counter() - t0) / reps)
                comm.Barrier()
                t0 = time.perf_counter()
                for _ in range(reps):
                    comm.Allreduce(MPI.IN_PLACE, arr)
                best_m = min(best_m, (time.perf_counter() - t0) / reps)
            result[f"all_reduce {mb} MB"] = {"ember_s": best_e, "mpi4py_s": best_m}
    if rank == 0:
        print("RESULT " + json.dumps(result), flush=True)
    dist.destroy_process_group()


def run_job(ranks: int, args, local: bool = False) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"),
                                           *filter(None, [os.environ.get("PYTHONPATH")])]))
    cmd = [sys.executable, "-m", "ember.distributed.run", "--nproc-per-node", str(ranks),
           __file__, "--worker", "--batch-size", str(args.batch_size), "--steps",
           str(args.steps), *(["--local"] if local else [])]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"benchmark job on {ranks} ranks failed:\n{out.stdout}\n{out.stderr}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch-size", type=int, default=256, help="global batch (all ranks)")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--local", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args)
        return 0
    one, many = run_job(1, args), run_job(args.ranks, args)
    alone = run_job(args.ranks, args, local=True)
    print(f"global batch {args.batch_size}, {args.steps} steps; one BLAS thread per rank")
    print(f"{'model':<12} {'1 rank steps/s':>15} {f'{args.ranks} ranks steps/s':>16} "
          f"{'speed-up':>9} {'ceiling':>8}")
    for name in ("digits CNN", "MLP"):
        print(f"{name:<12} {one[name]:>15.1f} {many[name]:>16.1f} "
              f"{many[name] / one[name]:>8.2f}x {alone[name] / one[name]:>7.2f}x")
    print("ceiling: the same ranks each training on its share with no communication at all "
          "(what the machine's free cores allow now)")
    for mb in (1, 64):
        r = many[f"all_reduce {mb} MB"]
        print(f"all_reduce {mb:>2} MB on {args.ranks} ranks: ember {r['ember_s'] * 1e3:8.3f} ms"
              f"   mpi4py {r['mpi4py_s'] * 1e3:8.3f} ms   ratio "
              f"{r['mpi4py_s'] / r['ember_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
