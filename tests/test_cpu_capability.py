"""ember reads the CPU capability torch's kernels dispatch on, and the override torch takes."""

import os
import platform
import subprocess
import sys

import pytest

_PROBE = ("import torch, ember; from ember import _cpu; "
          "print(torch.backends.cpu.get_cpu_capability(), ember.backends.cpu.get_cpu_capability(),"
          " _cpu.kernel_step(__import__('numpy').dtype('float32')))")


pytestmark = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="torch names other capabilities off x86")


@pytest.mark.parametrize("asked", [None, "default", "avx2"])
def test_capability_is_torchs(asked):
    env = dict(os.environ)
    env.pop("ATEN_CPU_CAPABILITY", None)
    if asked:
        env["ATEN_CPU_CAPABILITY"] = asked
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0] == out[1]
    assert int(out[2]) == (32 if out[0] == "AVX512" else 16)
