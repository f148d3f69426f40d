"""Ember against torch, the same workloads in one process; prints time ratios.

    python bench/run.py [--repeat N]

ratio = ember time / torch time (best of N alternating rounds each); lower is better. The
last rows are fresh processes: the first training step, and ``import`` (whose target is
ember's own time, in seconds, with its bytecode cached and compiled from source). The
machine is shared and noisy: compare ratios, not absolute times. Both run on one thread
(torch's intra-op pool and NumPy's BLAS), unless OMP_NUM_THREADS says otherwise; on one
thread the times are the thread's CPU time, which time spent waiting for a core under load
does not inflate (with more threads, wall time).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")      # before NumPy loads its BLAS

import numpy as np  # noqa: E402

_clock = time.thread_time if os.environ["OMP_NUM_THREADS"] == "1" else time.perf_counter


def best_time(fn, repeat: int, number: int = 1) -> float:
    """Best per-call time of ``fn`` over ``repeat`` rounds of ``number`` calls."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = _clock()
        for _ in range(number):
            fn()
        best = min(best, (_clock() - t0) / number)
    return best


def compare(fe, ft, repeat: int) -> tuple[float, float]:
    """Best times of ember's and torch's workload, measured in alternating rounds so that a
    burst of load on this shared machine hits both rather than one."""
    fe()
    ft()
    number = max(1, int(0.02 / max(best_time(fe, 1), 1e-6)))      # ~20 ms a round
    te = tt = float("inf")
    for _ in range(repeat):
        te = min(te, best_time(fe, 1, number))
        tt = min(tt, best_time(ft, 1, number))
    return te, tt


def op_chain(lib, n_ops: int = 200):
    """Per-op overhead: a 200-op chain on a 4x4 tensor, forward and backward."""
    x = lib.tensor(np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32),
                   requires_grad=True)

    def run():
        y = x
        for _ in range(n_ops // 4):
            y = y * 1.0001
            y = y + 0.5
            y = y.tanh()
            y = y - 0.25
        y.sum().backward()
    return run


def matmul(lib, n: int = 1024):
    """A 1024x1024 matmul, forward and backward."""
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((n, n)).astype(np.float32), requires_grad=True)
    b = lib.tensor(rng.standard_normal((n, n)).astype(np.float32), requires_grad=True)

    def run():
        a.grad = b.grad = None
        (a @ b).sum().backward()
    return run


def _train_step(lib, model, opt, shape):
    """One cross-entropy training step of ``model`` on fixed random inputs of ``shape``."""
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal(shape).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, shape[0]))

    def run():
        opt.zero_grad()
        lib.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return run


def mlp_step(lib, batch: int = 128):
    """One training step of a 784-256-256-10 MLP (SGD), batch 128."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    return _train_step(lib, model, opt, (batch, 784))


def cnn_step(lib, batch: int = 32):
    """One training step of a small CNN: two 3x3 convs + pools on 1x28x28, batch 32."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(16 * 7 * 7, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    return _train_step(lib, model, opt, (batch, 1, 28, 28))


def cnn_adam_step(lib, batch: int = 32):
    """One Adam step of a small CNN: two 3x3 convs + pools, two linear layers, batch 32."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(16 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = lib.optim.Adam(model.parameters(), lr=1e-3)
    return _train_step(lib, model, opt, (batch, 1, 28, 28))


def cifar_tutorial_step(lib, batch: int = 4):
    """One step of the PyTorch CIFAR-10 tutorial's network (two 5x5 convs + pools, three
    linear layers, SGD with momentum) on 3x32x32 images, batch 4 as the tutorial trains."""
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.pool = nn.Conv2d(3, 6, 5), nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1, self.fc2 = nn.Linear(400, 120), nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = lib.flatten(x, 1)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    lib.manual_seed(0)
    model = Net()
    opt = lib.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    return _train_step(lib, model, opt, (batch, 3, 32, 32))


def mnist_example_step(lib, batch: int = 64):
    """One training step of pytorch/examples' MNIST network (3x3 convs 1->32->64, max pool,
    dropout, 9216->128->10, log_softmax and nll_loss, Adadelta), batch 64."""
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1)
            self.dropout1, self.dropout2 = nn.Dropout(0.25), nn.Dropout(0.5)
            self.fc1, self.fc2 = nn.Linear(9216, 128), nn.Linear(128, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
            x = F.relu(self.fc1(lib.flatten(self.dropout1(x), 1)))
            return F.log_softmax(self.fc2(self.dropout2(x)), dim=1)

    lib.manual_seed(0)
    model = Net()
    opt = lib.optim.Adadelta(model.parameters(), lr=1.0)
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((batch, 1, 28, 28)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, batch))

    def run():
        opt.zero_grad()
        F.nll_loss(model(x), y).backward()
        opt.step()
    return run


WORKLOADS = {
    "mlp_train_step_b128": (mlp_step, 1.3),
    "cnn_train_step_b32": (cnn_step, 2.0),
    "cnn_adam_step_b32": (cnn_adam_step, 1.5),
    "cifar_tutorial_step_b4": (cifar_tutorial_step, 2.0),
    "mnist_example_step_b64": (mnist_example_step, 2.0),
    "op_chain_4x4_200ops_fwd_bwd": (op_chain, 3.0),
    "matmul_1024_fwd_bwd": (matmul, 1.2),
}


_COLD = """
import json, sys, time
t0 = time.perf_counter()
import {lib}
t1 = time.perf_counter()
sys.path.insert(0, {bench!r})
import run
step = run.mlp_step({lib})
t2 = time.perf_counter()
step()
print(json.dumps({{"import": t1 - t0, "first_step": time.perf_counter() - t2}}))
"""


def cold(lib: str, repeat: int, pyc: bool = True) -> dict:
    """Fresh-process times (best of ``repeat``, wall clock): ``import lib`` and the first MLP
    SGD step after it. ember runs from a copy of its package, with its bytecode cached in the
    copy (``pyc``, after one warm-up run) or compiled from source every time (as with
    PYTHONDONTWRITEBYTECODE=1 and no ``__pycache__``); torch runs as installed."""
    import json
    import shutil
    import subprocess
    import tempfile
    bench = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        if lib == "ember":
            import ember
            shutil.copytree(os.path.dirname(ember.__file__), os.path.join(tmp, "ember"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            env["PYTHONPATH"] = tmp
            if pyc:
                env.pop("PYTHONDONTWRITEBYTECODE", None)
            else:
                env["PYTHONDONTWRITEBYTECODE"] = "1"
        code = _COLD.format(lib=lib, bench=bench)
        runs = []
        for _ in range(repeat + (1 if pyc else 0)):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                 text=True, check=True, cwd=tmp).stdout
            runs.append(json.loads(out.strip().splitlines()[-1]))
        runs = runs[1:] if pyc else runs
    return {k: min(r[k] for r in runs) for k in runs[0]}


def report_cold(repeat: int) -> None:
    """The fresh-process rows: the first training step (ratio to torch's) and the import."""
    t = cold("torch", repeat)
    e = cold("ember", repeat)
    e_src = cold("ember", repeat, pyc=False)
    rows = [("cold_first_mlp_step", e["first_step"], t["first_step"], 1.5, None),
            ("import_ms_pyc", e["import"], t["import"], None, 0.25),
            ("import_ms_no_pyc", e_src["import"], t["import"], None, 0.25)]
    for name, te, tt, target, limit in rows:
        ratio = te / tt
        ok = ratio <= target if target else te <= limit
        goal = f"{target:6.1f}x" if target else f"{limit:5.2f}s "
        print(f"{name:34s} {te * 1e3:10.3f} {tt * 1e3:10.3f} {ratio:7.2f} {goal} "
              f"{'ok' if ok else 'OVER'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default=None, help="substring of workload names to run")
    args = parser.parse_args(argv)
    import ember
    try:
        import torch
    except ImportError:
        print("torch is not installed: pip install torch==2.13.0", file=sys.stderr)
        return 1
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    print(f"{'workload':34s} {'ember ms':>10s} {'torch ms':>10s} {'ratio':>7s} {'target':>7s}")
    for name, (make, target) in WORKLOADS.items():
        if args.only and args.only not in name:
            continue
        te, tt = compare(make(ember), make(torch), args.repeat)
        ratio = te / tt
        flag = "ok" if ratio <= target else "OVER"
        print(f"{name:34s} {te * 1e3:10.3f} {tt * 1e3:10.3f} {ratio:7.2f} {target:6.1f}x {flag}")
    if not args.only or "memory" in args.only:
        from memory import report
        report()
    if not args.only or "cold" in args.only or "import" in args.only:
        report_cold(min(args.repeat, 5))
    return 0


if __name__ == "__main__":
    sys.exit(main())
