"""``python -m ember.distributed.run``: torchrun's command line, starting the ranks with MPI.

    python -m ember.distributed.run --nproc-per-node 4 train.py --epochs 3
    python -m ember.distributed.run --nnodes 2 --nproc-per-node 8 --hostfile hosts train.py

It runs ``mpiexec`` (the one installed beside this Python, else the first on ``PATH``) with
``nnodes × nproc-per-node`` ranks, each running the script (or ``-m module``) with torchrun's
environment (``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE``, ``GROUP_RANK``,
``MASTER_ADDR``, ``MASTER_PORT``). A rank that raises or exits with a non-zero status aborts
all of them; the launcher exits with mpiexec's status. MPI starts every node's ranks from
this one command, so torchrun's rendezvous flags (``--node-rank``, ``--rdzv-*``,
``--master-*``) are accepted for compatibility and only exported.
"""

from __future__ import annotations

import argparse as _argparse
import os
import shutil as _shutil
import signal as _signal
import subprocess as _subprocess
import sys


def _flag(p, *names, **kw):
    """A flag under torchrun's dashed and underscored spellings."""
    spellings = []
    for n in names:
        spellings.append(n)
        if "-" in n[2:]:
            spellings.append("--" + n[2:].replace("-", "_"))
    p.add_argument(*spellings, **kw)


def parse_args(argv=None) -> _argparse.Namespace:
    p = _argparse.ArgumentParser(prog="python -m ember.distributed.run",
                                description="Start the ranks of a distributed script with MPI.")
    _flag(p, "--nproc-per-node", default="1",
          help="ranks per node: a number, or 'cpu'/'auto' for the number of cores")
    _flag(p, "--nnodes", default="1", help="number of nodes (a range MIN:MAX takes MAX)")
    _flag(p, "--hostfile", default=None, help="MPI host file naming the nodes")
    _flag(p, "--hosts", default=None, help="comma-separated node names")
    _flag(p, "--node-rank", type=int, default=0)
    _flag(p, "--master-addr", default="127.0.0.1")
    _flag(p, "--master-port", type=int, default=29500)
    _flag(p, "--standalone", action="store_true")
    _flag(p, "--rdzv-backend", default="static")
    _flag(p, "--rdzv-endpoint", default="")
    _flag(p, "--rdzv-id", default="none")
    _flag(p, "--rdzv-conf", default="")
    _flag(p, "--max-restarts", type=int, default=0)
    _flag(p, "--monitor-interval", type=float, default=0.1)
    _flag(p, "--start-method", default="spawn")
    _flag(p, "--role", default="default")
    _flag(p, "--log-dir", default=None)
    _flag(p, "--mpiexec", default=None, help="the mpiexec to run (default: found)")
    p.add_argument("-m", "--module", action="store_true",
                   help="run the target as a module, as python -m does")
    _flag(p, "--no-python", action="store_true",
          help="run the target as a program, not with Python")
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=_argparse.REMAINDER)
    return p.parse_args(argv)


def _find_mpiexec(explicit: str | None = None) -> str:
    """The ``mpiexec`` beside this Python (a venv's, from the mpich wheel), else on PATH."""
    if explicit:
        return explicit
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.exists(here):
        return here
    found = _shutil.which("mpiexec")
    if found is None:
        raise SystemExit("ember.distributed.run: no mpiexec found; pip install 'ember[dist]' "
                         "(mpi4py and mpich)")
    return found


def _command(args: _argparse.Namespace) -> list[str]:
    """The mpiexec command line for the parsed arguments."""
    per_node = args.nproc_per_node
    per_node = os.cpu_count() or 1 if per_node in ("cpu", "auto") else int(per_node)
    nnodes = int(str(args.nnodes).split(":")[-1])
    if args.max_restarts:
        raise SystemExit("ember.distributed.run: --max-restarts is not supported (an MPI job "
                         "runs once)")
    cmd = [_find_mpiexec(args.mpiexec), "-n", str(per_node * nnodes)]
    if nnodes > 1 or args.hostfile or args.hosts:
        if not (args.hostfile or args.hosts):
            raise SystemExit("ember.distributed.run: --nnodes > 1 needs --hostfile or --hosts "
                             "(MPI starts every node's ranks from here)")
        cmd += ["-ppn", str(per_node)]
        cmd += ["-f", args.hostfile] if args.hostfile else ["-hosts", args.hosts]
    if args.no_python:
        target = [args.training_script]
    else:
        target = [sys.executable, "-m", "ember.distributed._rank"]
        target += ["-m"] if args.module else []
        target += [args.training_script]
    return cmd + target + list(args.training_script_args)


def main(argv=None) -> int:
    args = parse_args(argv)
    os.environ.update(MASTER_ADDR=args.master_addr, MASTER_PORT=str(args.master_port),
                      TORCHELASTIC_RUN_ID=args.rdzv_id)
    proc = _subprocess.Popen(_command(args))
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(_signal.SIGINT)
        try:
            return proc.wait(timeout=10)
        except _subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()


if __name__ == "__main__":
    sys.exit(main())


del annotations  # keep dir() to torch's names
