"""Regression tests for what the fifth round of real programs found, each against torch 2.13:
``float()``/``complex()`` of a tensor that requires grad (grad mode on) warns once per process,
as torch's ``TORCH_WARN_ONCE`` does (``int()``, ``bool()``, ``item()`` never warn);
``nn.init.sparse_`` (and its deprecated alias ``sparse``) was missing, and ``nn.init.__all__``
was not torch's."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch

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


@pytest.mark.parametrize("shape,sparsity,std", [((6, 3), 0.5, 0.01), ((5, 4), 0.1, 1.0),
                                                 ((3, 7), 1.0, 0.5), ((4, 2), 0.0, 0.01)])
def test_init_sparse_draws_torchs_values(shape, sparsity, std):
    outs = []
    for lib in (ember, torch):
        lib.manual_seed(3)
        g = lib.Generator().manual_seed(5)
        a = lib.nn.init.sparse_(lib.empty(*shape), sparsity, std=std)
        b = lib.nn.init.sparse_(lib.empty(*shape), sparsity, std, generator=g)
        outs.append((a.numpy(), b.numpy(), lib.rand(2).numpy()))
    for x, y in zip(*outs):
        np.testing.assert_array_equal(x, y)


def test_init_sparse_errors_alias_and_all():
    errors_alike(lambda lib: lib.nn.init.sparse_(lib.empty(3), 0.5))
    errors_alike(lambda lib: lib.nn.init.sparse_(lib.empty(2, 2, 2), 0.5))
    for lib in (ember, torch):
        with pytest.warns(FutureWarning, match="`nn.init.sparse` is now deprecated in favor of "
                                               "`nn.init.sparse_`."):
            lib.nn.init.sparse(lib.empty(3, 3), 0.3)
    assert ember.nn.init.__all__ == torch.nn.init.__all__
