"""Runs programs under real torch, each in its own forked child (torch is imported once).

    python _torch_runner.py OUT.json WORKDIR PROGRAM.py...

Each child runs one program as ``__main__`` in ``WORKDIR/<name>`` with its stdout and stderr
captured; OUT.json maps each program's name to ``[returncode, stdout, stderr]``.
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

TIMEOUT_S = 120


def run_one(path: str, workdir: str) -> list:
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
            os._exit(code)
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = -1
            break
        time.sleep(0.01)
    out.seek(0)
    err.seek(0)
    code = os.waitstatus_to_exitcode(status) if status != -1 else -9
    return [code, out.read(), err.read()]


def main() -> None:
    dest, root, *programs = sys.argv[1:]
    torch.set_num_threads(1)
    results = {}
    for path in programs:
        name = os.path.splitext(os.path.basename(path))[0]
        workdir = os.path.join(root, name)
        os.makedirs(workdir, exist_ok=True)
        results[name] = run_one(os.path.abspath(path), workdir)
    with open(dest, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
