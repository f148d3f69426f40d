"""Regression tests for what the fifth round of real programs found, each against torch 2.13:
``float()``/``complex()`` of a tensor that requires grad (grad mode on) warns once per process,
as torch's ``TORCH_WARN_ONCE`` does (``int()``, ``bool()``, ``item()`` never warn)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from .helpers import torch

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

_SCALAR_SCRIPT = """
import warnings
import torch
leaf = torch.ones(1, requires_grad=True)
x = leaf * 2
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    int(x), bool(x), x.item(), x.tolist(), float(x.detach())
    with torch.no_grad():
        float(x)
    print(len(w))
    float(x)
    complex(leaf)
    float(leaf)
    print([(c.category.__name__, str(c.message).split(" (Triggered")[0]) for c in w])
"""


def _run(*launcher: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *launcher, "-c", _SCALAR_SCRIPT], env=env,
                          capture_output=True, text=True, check=True).stdout


def test_float_of_a_tensor_that_requires_grad_warns_once_like_torch():
    assert torch is not None
    ours, theirs = _run("-m", "ember"), _run()
    assert ours == theirs
    assert ours.startswith("0\n") and ours.count("UserWarning") == 1
