"""float16/bfloat16 group norm as torch's reduced-type kernels (``group_norm_kernel.cpp``'s
mixed-type paths): the forward in float with the reduced type's ``RowwiseMoments``, rounded
once; the backward's ``ds``/``db`` over reduced-type vectors of two float halves, the mean
and rstd read back in the parameters' type (float32 for the mixed-type kernel), ``dx``,
``dγ`` and ``dβ`` each rounded once."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember

from .helpers import torch

SHAPES = [((2, 6, 5, 5), 3), ((3, 32, 4, 4), 8), ((2, 64, 7, 9), 4), ((1, 8, 40, 40), 2),
          ((2, 10, 3, 3, 3), 5), ((4, 12, 17), 6), ((2, 48, 6, 6), 1), ((3, 20, 33), 4)]


def _group_norm(lib, x, w, b, go, groups, dtype, wdtype, channels_last):
    X = lib.tensor(x).to(getattr(lib, dtype))
    if channels_last:
        X = X.contiguous(memory_format=lib.channels_last if x.ndim == 4
                         else lib.channels_last_3d)
    X.requires_grad_()
    params = [None if v is None else lib.tensor(v).to(getattr(lib, wdtype)).requires_grad_()
              for v in (w, b)]
    y = lib.nn.functional.group_norm(X, groups, *params)
    y.backward(lib.tensor(go).to(y.dtype))
    return [y, X.grad] + [p.grad for p in params if p is not None]


def _compare(shape, groups, dtype, wdtype, affine, channels_last):
    rng = np.random.default_rng(shape[1] * 10 + groups)
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    c = shape[1]
    w = rng.standard_normal(c).astype(np.float32) if affine != "none" else None
    b = rng.standard_normal(c).astype(np.float32) if affine == "both" else None
    go = rng.standard_normal(shape).astype(np.float32)
    got = [_group_norm(lib, x, w, b, go, groups, dtype, wdtype, channels_last)
           for lib in (torch, ember)]
    for t, e in zip(*got):
        assert str(t.dtype) == str(e.dtype)
        assert tuple(t.stride()) == tuple(e.stride())
        assert t.float().detach().numpy().tobytes() == e.float().detach().numpy().tobytes()


@pytest.mark.parametrize("affine", ["both", "weight", "none"])
@pytest.mark.parametrize("dtype,wdtype", [("bfloat16", "bfloat16"), ("bfloat16", "float32"),
                                          ("float16", "float16"), ("float16", "float32")])
@pytest.mark.parametrize("shape,groups", SHAPES)
def test_reduced_group_norm_bits(shape, groups, dtype, wdtype, affine, threads):
    _compare(shape, groups, dtype, wdtype, affine, False)


@pytest.mark.parametrize("affine", ["both", "weight", "none"])
@pytest.mark.parametrize("dtype,wdtype", [("bfloat16", "bfloat16"), ("bfloat16", "float32"),
                                          ("float16", "float16"), ("float16", "float32")])
@pytest.mark.parametrize("shape,groups", [s for s in SHAPES if len(s[0]) > 3]
                         + [((1, 8, 46, 46), 4), ((2, 40, 33, 32), 2), ((1, 24, 48, 48), 3)])
def test_reduced_group_norm_channels_last_bits(shape, groups, dtype, wdtype, affine, threads):
    """Both channels-last kernels: by groups below 1024 (2048 backward) positions, by rows
    from there (only these split by the thread count)."""
    if threads == 2 and math.prod(shape[2:]) < 1024:
        pytest.skip("below 1024 positions no kernel splits by the thread count")
    _compare(shape, groups, dtype, wdtype, affine, True)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("wdtype", ["same", "float32"])
def test_reduced_group_norm_scalar_tail_statistics(dtype, wdtype):
    """Groups shorter than a vector: ``RowwiseMoments``' scalar Welford steps (fused in
    the float16 instance, not in the bfloat16 one), whose last bits show in the backward."""
    rng = np.random.default_rng(3)
    for scale, offset in ((300, 1), (1, -50), (30, 10)):
        x = (rng.standard_normal((48, 12, 7)) * scale + offset).astype(np.float32)
        w, b = rng.standard_normal((2, 12)).astype(np.float32)
        go = x / np.abs(x).max()
        got = [_group_norm(lib, x, w, b, go, 6, dtype, dtype if wdtype == "same" else wdtype,
                           False) for lib in (torch, ember)]
        for t, e in zip(*got):
            assert t.float().detach().numpy().tobytes() == e.float().detach().numpy().tobytes()
