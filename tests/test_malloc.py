"""ember's malloc tuning: arrays freed by one training step are reused by the next."""

import os
import subprocess
import sys

CHILD = r"""
import resource, sys
import numpy as np
if sys.argv[1] == "ember":
    import ember  # noqa: F401
def step():
    arrays = [np.ones(1 << 20, np.float32) for _ in range(4)]   # 16 MiB live, then freed
    return sum(float(a[0]) for a in arrays)
step()
f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0) // 20)
"""


def _faults_per_step(mode: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_"))}
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True,
                         check=True, env=env)
    return int(out.stdout.strip())


def test_freed_arrays_are_reused_without_page_faults():
    if not sys.platform.startswith("linux"):
        return
    plain = _faults_per_step("numpy")
    tuned = _faults_per_step("ember")
    assert plain > 1000            # glibc alone trims the heap and faults 4k pages back in
    assert tuned < 50


def test_tuning_leaves_a_chosen_malloc_setting_alone(monkeypatch):
    from ember import _malloc
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    assert _malloc.tune() is False
