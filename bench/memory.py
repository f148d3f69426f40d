"""Peak memory of an MLP forward at batch 4096, ember against torch, each in a fresh process.

    python bench/memory.py

Each measurement runs in its own interpreter: build the model and the input, record the
resident set size, run one forward (under no_grad, or with grad and keeping the graph), and
report the growth of the peak RSS. ratio = ember / torch.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys
import numpy as np
lib = __import__(sys.argv[1])
grad = sys.argv[2] == "grad"
nn = lib.nn
lib.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                      nn.Linear(1024, 10))
x = lib.tensor(np.random.default_rng(0).standard_normal((4096, 784)).astype(np.float32))
def rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
try:                        # hand freed heap memory back first, so that memory freed while
    import ctypes           # building the model is not reused by the forward unseen
    ctypes.CDLL(None).malloc_trim(0)
except (OSError, AttributeError):
    pass
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")            # reset the peak (VmHWM) to the current RSS
before = rss()
if grad:
    out = model(x).sum()
else:
    with lib.no_grad():
        out = model(x).sum()
print(json.dumps({"peak_growth": rss() - before}))
"""


def measure(lib: str, mode: str) -> int:
    res = subprocess.run([sys.executable, "-c", CHILD, lib, mode], capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])["peak_growth"]


def report() -> None:
    targets = {"no_grad": 1.0, "grad": 1.2}
    for mode, target in targets.items():
        e, t = measure("ember", mode), measure("torch", mode)
        ratio = e / t
        flag = "ok" if ratio <= target else "OVER"
        print(f"{'mlp_forward_b4096_' + mode + '_peak_MB':34s} {e / 2**20:10.1f} "
              f"{t / 2**20:10.1f} {ratio:7.2f} {target:6.1f}x {flag}")


if __name__ == "__main__":
    report()
