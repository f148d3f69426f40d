"""One rank of ``python -m ember.distributed.run``: torchrun's environment from MPI's, then
the script; a failure on this rank aborts the whole job instead of leaving it hanging.

    python -m ember.distributed._rank [-m] TARGET ARGS...
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback

from . import _mpi


def torchrun_environment(env=os.environ) -> dict[str, str]:
    """``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, … from the variables MPICH's or Open MPI's
    launcher gives each process."""
    def first(*names, default=None):
        for n in names:
            if env.get(n) not in (None, ""):
                return env[n]
        return default

    rank = int(first("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", default="0"))
    size = int(first("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", default="1"))
    local = int(first("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", default=str(rank)))
    local_size = int(first("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", default=str(size)))
    return {"RANK": str(rank), "WORLD_SIZE": str(size), "LOCAL_RANK": str(local),
            "LOCAL_WORLD_SIZE": str(local_size), "GROUP_RANK": str(rank // max(local_size, 1)),
            "ROLE_RANK": str(rank), "ROLE_WORLD_SIZE": str(size),
            "MASTER_ADDR": env.get("MASTER_ADDR", "127.0.0.1"),
            "MASTER_PORT": env.get("MASTER_PORT", "29500")}


def main(argv: list[str]) -> int:
    as_module = bool(argv) and argv[0] == "-m"
    if as_module:
        argv = argv[1:]
    if not argv:
        sys.stderr.write("usage: python -m ember.distributed._rank [-m] TARGET ARGS...\n")
        return 2
    os.environ.update(torchrun_environment())
    sys.argv = list(argv)
    try:
        if as_module:
            runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code in (None, 0):
            return 0
        if not isinstance(code, int):
            sys.stderr.write(f"{code}\n")
            code = 1
        _mpi.abort(code, f"exit status {code}")
    except BaseException:
        traceback.print_exc()
        _mpi.abort(1, "uncaught exception")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
