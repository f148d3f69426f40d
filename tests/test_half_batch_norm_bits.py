"""float16/bfloat16 batch norm with float32 parameters or ones of the input's dtype against
torch's CPU kernels, bit for bit."""

import numpy as np
import pytest
import torch

import ember

SHAPES = [(4, 3, 5, 7), (2, 5, 16, 16), (8, 4, 33), (3, 6, 64, 10), (2, 3, 40), (16, 7),
          (2, 3, 4, 5, 6), (1, 2, 300, 9), (2, 40),
          (40, 37), (3, 50)]


def _pair(shape, dtype, seed=0, same=False):
    g = np.random.default_rng(seed)
    x = (g.standard_normal(shape) * 3 + 1).astype(np.float32)
    c = shape[1]
    p = [g.standard_normal(c).astype(np.float32) for _ in range(3)]
    p.append((g.random(c) + 0.5).astype(np.float32))
    t = [torch.tensor(x).to(getattr(torch, dtype))] + [torch.tensor(a) for a in p]
    e = [ember.tensor(x).to(getattr(ember, dtype))] + [ember.tensor(a) for a in p]
    if same:
        t = [t[0]] + [a.to(t[0].dtype) for a in t[1:]]
        e = [e[0]] + [a.to(e[0].dtype) for a in e[1:]]
    return t, e


def _bits(a):
    """The values as float32 (exact for float16/bfloat16), for either library."""
    return a.detach().float().numpy()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", SHAPES)
def test_eval_forward_float_params(shape, dtype, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype)
    want = torch.nn.functional.batch_norm(tx, trm, trv, tw, tb, False)
    got = ember.nn.functional.batch_norm(ex, erm, erv, ew, eb, False)
    assert got.dtype == ex.dtype
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", SHAPES)
def test_train_forward_float_params(shape, dtype, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype)
    want = torch.nn.functional.batch_norm(tx, trm, trv, tw, tb, True, 0.1, 1e-5)
    got = ember.nn.functional.batch_norm(ex, erm, erv, ew, eb, True, 0.1, 1e-5)
    np.testing.assert_array_equal(erm.numpy(), trm.numpy())
    np.testing.assert_array_equal(erv.numpy(), trv.numpy())
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (2, 40, 3, 3), (5, 33, 4, 2)])
@pytest.mark.parametrize("training", [True, False])
def test_channels_last_forward_float_params(shape, dtype, training, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype)
    tx = tx.contiguous(memory_format=torch.channels_last)
    ex = ex.contiguous(memory_format=ember.channels_last)
    want = torch.nn.functional.batch_norm(tx, trm, trv, tw, tb, training)
    got = ember.nn.functional.batch_norm(ex, erm, erv, ew, eb, training)
    assert got.is_contiguous(memory_format=ember.channels_last)
    np.testing.assert_array_equal(erm.numpy(), trm.numpy())
    np.testing.assert_array_equal(erv.numpy(), trv.numpy())
    np.testing.assert_array_equal(_bits(got), _bits(want))


def _grads(mod, x, w, b, rm, rv, training, g):
    x = x.detach().requires_grad_()
    w = w.detach().requires_grad_()
    b = b.detach().requires_grad_()
    y = mod.nn.functional.batch_norm(x, rm, rv, w, b, training)
    y.backward(g)
    return x.grad, w.grad, b.grad


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (2, 5, 16, 16), (8, 4, 33), (3, 6, 64, 10),
                                   (2, 3, 4, 5, 6), (16, 7)])
@pytest.mark.parametrize("training", [True, False])
def test_backward_float_params(shape, dtype, training, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype)
    gt = torch.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    want = _grads(torch, tx, tw, tb, trm, trv, training, gt.to(tx.dtype))
    got = _grads(ember, ex, ew, eb, erm, erv, training, ember.tensor(gt.numpy()).to(ex.dtype))
    for a, b in zip(got, want):
        assert a.dtype == getattr(ember, str(b.dtype).split(".")[1])
        np.testing.assert_array_equal(_bits(a), _bits(b))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("training", [True, False])
def test_forward_same_dtype_params(shape, dtype, training, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype, same=True)
    want = torch.nn.functional.batch_norm(tx, trm, trv, tw, tb, training, 0.1, 1e-5)
    got = ember.nn.functional.batch_norm(ex, erm, erv, ew, eb, training, 0.1, 1e-5)
    np.testing.assert_array_equal(_bits(erm), _bits(trm))
    np.testing.assert_array_equal(_bits(erv), _bits(trv))
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (2, 5, 16, 16), (8, 4, 33), (2, 3, 4, 5, 6),
                                   (3, 6, 64, 10), (40, 37)])
@pytest.mark.parametrize("training", [True, False])
def test_backward_same_dtype_params(shape, dtype, training, threads):
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype, same=True)
    gt = torch.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    want = _grads(torch, tx, tw, tb, trm, trv, training, gt.to(tx.dtype))
    got = _grads(ember, ex, ew, eb, erm, erv, training, ember.tensor(gt.numpy()).to(ex.dtype))
    for a, b in zip(got, want):
        assert a.dtype == ex.dtype
        np.testing.assert_array_equal(_bits(a), _bits(b))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("same", [False, True])
@pytest.mark.parametrize("training", [True, False])
def test_channels_last_backward(same, training, dtype, threads):
    """Outside the reduced contiguous kernel: torch's float kernel on float copies."""
    shape = (4, 16, 6, 5)
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype, same=same)
    tx = tx.contiguous(memory_format=torch.channels_last)
    ex = ex.contiguous(memory_format=ember.channels_last)
    gt = torch.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    gt = gt.to(tx.dtype).contiguous(memory_format=torch.channels_last)
    ge = ember.tensor(gt.float().numpy()).to(ex.dtype).contiguous(
        memory_format=ember.channels_last)
    want = _grads(torch, tx, tw, tb, trm, trv, training, gt)
    got = _grads(ember, ex, ew, eb, erm, erv, training, ge)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(_bits(a), _bits(b))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("x_channels_last", [True, False])
@pytest.mark.parametrize("same", [False, True])
@pytest.mark.parametrize("training", [True, False])
def test_backward_mixed_layouts(x_channels_last, same, training, dtype):
    """Input and gradient in different layouts: torch's accessor path, in c10's reduced-type
    arithmetic."""
    shape = (4, 3, 5, 7)
    (tx, tw, tb, trm, trv), (ex, ew, eb, erm, erv) = _pair(shape, dtype, same=same)
    gt = torch.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    gt = gt.to(tx.dtype)
    ge = ember.tensor(gt.float().numpy()).to(ex.dtype)
    if x_channels_last:
        tx = tx.contiguous(memory_format=torch.channels_last)
        ex = ex.contiguous(memory_format=ember.channels_last)
    else:
        gt = gt.contiguous(memory_format=torch.channels_last)
        ge = ge.contiguous(memory_format=ember.channels_last)
    want = _grads(torch, tx, tw, tb, trm, trv, training, gt)
    got = _grads(ember, ex, ew, eb, erm, erv, training, ge)
    for a, b in zip(got, want):
        assert a.dtype == getattr(ember, str(b.dtype).split(".")[1])
        assert a.stride() == b.stride()
        np.testing.assert_array_equal(_bits(a), _bits(b))
