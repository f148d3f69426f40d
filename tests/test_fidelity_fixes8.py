"""Differences from torch found in a scan of leftovers, each case compared with torch itself."""

import zlib

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _bits_equal(t, e):
    a = t.detach().float().numpy()
    b = e.detach().float().numpy()
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), np.argwhere(a != b)[:5]


# ------------------------------------------------------------- float16 softmax backward


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize(
    "shape,dim,transposed",
    [((64, 37), 0, False), ((64, 37), 1, False), ((5, 37, 9), 1, False), ((8, 200), 1, False),
     ((16,), 0, False), ((3, 40, 17), 2, True), ((300, 5), 0, False), ((5, 3000), 1, False),
     ((50, 33, 41), 1, False), ((3, 24), 1, False), ((64, 37), 1, True)],
)
def test_half_softmax_backward_bits(fn, shape, dim, transposed):
    rng = np.random.default_rng(zlib.crc32(repr((fn, shape, dim)).encode()))
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    grads = []
    for lib in (torch, ember):
        t = lib.from_numpy(x).half()
        gt = lib.from_numpy(g).half()
        if transposed:
            t, gt = t.transpose(0, -1), gt.transpose(0, -1)
        t.requires_grad_()
        getattr(lib, fn)(t, dim).backward(gt)
        grads.append(t.grad)
    assert str(grads[1].dtype) == str(grads[0].dtype)
    _bits_equal(*grads)
