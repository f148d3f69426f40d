"""The intra-op thread count: torch's default and OMP_NUM_THREADS, and its effect on results."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import ember

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _counts(lib: str, omp: str | None) -> str:
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    env.pop("OMP_NUM_THREADS", None)
    if omp is not None:
        env["OMP_NUM_THREADS"] = omp
    code = f"import {lib} as t; print(t.get_num_threads(), t.get_num_interop_threads())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


@pytest.mark.parametrize("omp", [None, "1", "3", "0", "abc"])
def test_thread_counts_follow_omp_num_threads_as_torchs(omp):
    assert _counts("ember", omp) == _counts("torch", omp)


def test_set_num_threads_splits_reductions_as_torch():
    x = np.random.default_rng(0).standard_normal(300_000).astype(np.float32) * 100
    before_e, before_t = ember.get_num_threads(), torch.get_num_threads()
    try:
        for n in (1, 2):
            ember.set_num_threads(n)
            torch.set_num_threads(n)
            assert ember.get_num_threads() == torch.get_num_threads() == n
            got = ember.tensor(x).sum().numpy()
            want = torch.tensor(x).sum().numpy()
            assert got.tobytes() == want.tobytes(), (n, got, want)
    finally:
        ember.set_num_threads(before_e)
        torch.set_num_threads(before_t)
