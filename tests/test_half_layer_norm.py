"""float16/bfloat16 layer norm as torch's reduced-type kernels (the forward's
``layer_norm_kernel_mixed_type``, ``LayerNormBackwardKernelImpl``): statistics by the
two-half ``RowwiseMoments``, stored in the weight's type (float32 for the mixed-type
kernel); ``dγ``/``dβ`` folded per thread into buffers of the input's type, ``ds``/``db``
summed over reduced-type vectors of two float halves, ``dx`` rounded once."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

SHAPES = [((4, 37), (37,)), ((3, 5, 64), (64,)), ((2, 300), (300,)), ((8, 6, 10), (6, 10)),
          ((5, 7), (7,)), ((6, 20), (20,)), ((33, 45), (45,)), ((2, 3, 16), (3, 16)),
          ((4, 6, 5, 5), (5, 5))]


def _grads(lib, x, w, b, go, ns, dtype, wdtype):
    X = lib.tensor(x).to(getattr(lib, dtype)).requires_grad_()
    params = [None if v is None else lib.tensor(v).to(getattr(lib, wdtype)).requires_grad_()
              for v in (w, b)]
    y = lib.nn.functional.layer_norm(X, ns, *params)
    y.backward(lib.tensor(go).to(getattr(lib, dtype)))
    return [y, X.grad] + [p.grad for p in params if p is not None]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
@pytest.mark.parametrize("dtype,wdtype", [("bfloat16", "bfloat16"), ("bfloat16", "float32"),
                                          ("float16", "float16"), ("float16", "float32")])
@pytest.mark.parametrize("shape,ns", SHAPES)
def test_reduced_layer_norm_backward_bits(shape, ns, dtype, wdtype, affine, threads):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    w = rng.standard_normal(ns).astype(np.float32) if affine != "none" else None
    b = rng.standard_normal(ns).astype(np.float32) if affine == "both" else None
    go = rng.standard_normal(shape).astype(np.float32)
    saved = torch.get_num_threads(), ember.get_num_threads()
    torch.set_num_threads(threads)
    ember.set_num_threads(threads)
    try:
        got = [_grads(lib, x, w, b, go, ns, dtype, wdtype) for lib in (torch, ember)]
    finally:
        torch.set_num_threads(saved[0])
        ember.set_num_threads(saved[1])
    for t, e in zip(*got):
        assert str(t.dtype) == str(e.dtype)
        assert t.float().detach().numpy().tobytes() == e.float().detach().numpy().tobytes()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("wdtype", ["same", "float32"])
def test_reduced_layer_norm_scalar_tail_statistics(dtype, wdtype):
    """Rows shorter than a vector: ``RowwiseMoments``' scalar Welford steps, whose
    ``m2 += delta * (x - m1)`` the float16 instance fuses and the bfloat16 one does not (the
    statistics differ in their last bit, which shows in a few outputs of large inputs)."""
    rng = np.random.default_rng(9)
    wd = dtype if wdtype == "same" else wdtype
    for scale, offset, eps in ((300, 1, 1e-5), (1, -50, 1e-3), (30, 10, 1e-5), (0.01, 1, 1e-5)):
        x = (rng.standard_normal((48, 6, 5, 5)) * scale + offset).astype(np.float32)
        w, b = rng.standard_normal((2, 5, 5)).astype(np.float32)
        go = x / np.abs(x).max()
        got = []
        for lib in (torch, ember):
            X = lib.tensor(x).to(getattr(lib, dtype)).requires_grad_()
            ps = [lib.tensor(v).to(getattr(lib, wd)).requires_grad_() for v in (w, b)]
            y = lib.nn.functional.layer_norm(X, (5, 5), *ps, eps=eps)
            y.backward(lib.tensor(go).to(y.dtype))
            got.append([a.detach().float().numpy() for a in (y, X.grad, *(p.grad for p in ps))])
        for t, e in zip(*got):
            assert t.tobytes() == e.tobytes()
