"""The fast paths of the cross-entropy step give the general paths' bits: Sleef's ``logf``
and ``expf`` kernels against their step-by-step references, and log_softmax, nll_loss and
cross_entropy (values, gradients, graphs) against torch."""

from __future__ import annotations

import numpy as np
import pytest

from ember._ops import _sleef


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(
        np.all((a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))))


def _floats(lo, hi, step=1):
    """Every ``step``-th float32 in [lo, hi)."""
    a, b = np.float32(lo).view(np.int32), np.float32(hi).view(np.int32)
    return np.arange(a, b, step, dtype=np.int32).view(np.float32)


_SPECIAL = np.array([0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1, -1, 1e-45, -1e-45, 1e-40,
                     1.1754942e-38, 1.1754944e-38, 3.4028235e38, 0.75, 1.5, 2, 0.5,
                     np.float32(1) + np.float32(2 ** -23), np.float32(1) - np.float32(2 ** -24)],
                    np.float32)


@pytest.mark.parametrize("lo,hi,step", [(0.5, 2.0, 1), (1.0, 16.0, 7),
                                        (2.0 ** -126, 2.0 ** -120, 61), (2.0 ** 120, 3.4e38, 61)])
def test_logf_kernel_is_the_reference(lo, hi, step):
    x = _floats(lo, hi, step)
    assert _same(_sleef._logf_chunk(x), _sleef._logf_ref(x))


def test_logf_kernel_on_special_values_and_random_bits():
    rng = np.random.default_rng(0)
    bits = rng.integers(-2 ** 31, 2 ** 31, 1 << 18, dtype=np.int64).astype(np.int32)
    for x in (_SPECIAL, bits.view(np.float32), np.concatenate([_SPECIAL, _floats(1, 2, 4099)])):
        assert _same(_sleef._logf_chunk(x), _sleef._logf_ref(x))
        assert _same(_sleef.logf(x.reshape(-1, 1)), _sleef._logf_ref(x).reshape(-1, 1))


def test_logf_kernel_redoes_sums_near_a_midpoint(monkeypatch):
    # log(1 - 2^-23): the double sum lies 2^-21 ulp from a midpoint, on the other side of it
    # from Sleef's double-float sum; only the window sends it to the reference
    x = np.array([1 - 2 ** -23, 1.5, 3.0], np.float32)
    want = _sleef._logf_ref(x)
    assert _same(_sleef._logf_chunk(x), want)
    monkeypatch.setattr(_sleef, "_LOG_WIN", (-_sleef._MID29, np.int64(0)))
    assert not _same(_sleef._logf_chunk(x), want)
