"""Runs programs, each in its own forked child, with ``torch`` imported once in the parent.

    python _runner.py OUT.json WORKDIR JOBS PROGRAM.py...            (real torch)
    python -m ember _runner.py OUT.json WORKDIR JOBS PROGRAM.py...   (Ember, as ``torch``)

Under ``python -m ember`` the ``import torch`` below, and each program's, resolve to Ember, so
the programs run as ``python -m ember PROGRAM.py`` runs them, less one interpreter start and one
import each. Each child runs one program as ``__main__`` in ``WORKDIR/<name>`` with its stdout
and stderr captured, at most JOBS at a time. OUT.json maps each program's name to
``[returncode, stdout, stderr, cpu_seconds]``.
"""

import json
import os
import runpy
import signal
import sys
import tempfile
import time
import traceback

import torch
import torch._dynamo  # noqa: F401  (torch's first optimizer imports it: 1.5 s in every child)

TIMEOUT_S = 240


def start(path: str, workdir: str):
    """Fork a child that runs ``path``; (pid, stdout file, stderr file, deadline)."""
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                                      # the child: run the program, then leave
        code = 0
        try:
            os.chdir(workdir)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.argv = [path]
            sys.path[0] = os.path.dirname(path)
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)                            # no interpreter shutdown: it is slow
    return pid, out, err, time.monotonic() + TIMEOUT_S


def finish(status: int, rusage, out, err) -> list:
    out.seek(0)
    err.seek(0)
    code = os.waitstatus_to_exitcode(status)
    return [code, out.read(), err.read(), round(rusage.ru_utime + rusage.ru_stime, 3)]


def main() -> None:
    dest, root, jobs, *programs = sys.argv[1:]
    torch.set_num_threads(1)
    pending = [os.path.abspath(p) for p in programs]
    running, results = {}, {}
    while pending or running:
        while pending and len(running) < int(jobs):
            path = pending.pop(0)
            name = os.path.splitext(os.path.basename(path))[0]
            workdir = os.path.join(root, name)
            os.makedirs(workdir, exist_ok=True)
            pid, out, err, deadline = start(path, workdir)
            running[pid] = name, out, err, deadline
        pid, status, rusage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for pid, (name, *_, deadline) in running.items():
                if now > deadline:
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
            continue
        name, out, err, _ = running.pop(pid)
        results[name] = finish(status, rusage, out, err)
    with open(dest, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
