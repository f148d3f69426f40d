"""``F.scaled_dot_product_attention`` on torch's CPU flash kernel gives torch's bits where
MKL's BLAS is installed: its query/key blocks, ``exp_u20`` on full vectors and the C
library's double ``exp`` on the rest, the vector-folded sums, the running rescaling across
key blocks of 512, and its gemms written into torch's per-thread scratch layout (MKL rounds a
small product according to its output's alignment), on 1 and 2 threads."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _gemm

from .helpers import torch

pytestmark = pytest.mark.skipif(not _gemm.available(np.float32),
                                reason="MKL's runtime is not installed")

SHAPES = [(2, 4, 10, 10, 16), (1, 2, 40, 40, 8), (2, 2, 7, 600, 8), (1, 1, 200, 30, 5),
          (3, 2, 17, 33, 64), (1, 1, 3, 16, 8), (1, 1, 31, 520, 8), (2, 1, 5, 48, 12)]
CALLS = {
    "plain": lambda F, q, k, v, m, b: F(q, k, v),
    "causal": lambda F, q, k, v, m, b: F(q, k, v, is_causal=True),
    "float_mask": lambda F, q, k, v, m, b: F(q, k, v, attn_mask=m),
    "bool_mask": lambda F, q, k, v, m, b: F(q, k, v, attn_mask=b),
    "scale": lambda F, q, k, v, m, b: F(q, k, v, scale=0.3),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", sorted(CALLS))
def test_flash_forward_is_torchs_bits(call, dtype, threads):
    rng = np.random.default_rng(0)
    for b, h, lq, s, e in SHAPES:
        arrays = [rng.standard_normal(shape) for shape in ((b, h, lq, e), (b, h, s, e),
                                                            (b, h, s, e), (lq, s))]
        keep = rng.random((b, 1, lq, s)) > 0.3
        got = []
        for L in (ember, torch):
            q, k, v, m = (L.tensor(a, dtype=getattr(L, dtype)) for a in arrays)
            out = CALLS[call](L.nn.functional.scaled_dot_product_attention, q, k, v, m,
                              L.tensor(keep))
            got.append(out.numpy())
        assert np.array_equal(got[0], got[1]), (b, h, lq, s, e)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", ["plain", "causal", "float_mask", "bool_mask"])
def test_flash_backward_is_torchs_bits(call, dtype, threads):
    """The three gradients come from torch's backward kernel (recomputed probabilities from
    the log-sum-exp, its five gemms per block, gradients laid out (batch, length, heads, size)
    as torch allocates them)."""
    rng = np.random.default_rng(1)
    for b, h, lq, s, e in SHAPES[:6]:
        arrays = [rng.standard_normal(shape) for shape in ((b, h, lq, e), (b, h, s, e),
                                                            (b, h, s, e), (lq, s), (b, h, lq, e))]
        keep = rng.random((b, 1, lq, s)) > 0.3
        got = []
        for L in (ember, torch):
            q, k, v, m, g = (L.tensor(a, dtype=getattr(L, dtype)) for a in arrays)
            for t in (q, k, v):
                t.requires_grad_()
            out = CALLS[call](L.nn.functional.scaled_dot_product_attention, q, k, v, m,
                              L.tensor(keep))
            grads = L.autograd.grad(out, (q, k, v), g)
            got.append([x.numpy() for x in grads])
        for x, y in zip(*got):
            assert np.array_equal(x, y), (b, h, lq, s, e)
