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
    # log(1 - 2^-23): the double sum lies about 2^-25 ulp from a midpoint, on the other side
    # of it from Sleef's double-float sum; only the window sends it to the reference
    x = np.array([1 - 2 ** -23, 1.5, 3.0], np.float32)
    want = _sleef._logf_ref(x)
    assert _same(_sleef._logf_chunk(x), want)
    monkeypatch.setattr(_sleef, "_LOG_WIN", (-_sleef._MID29, np.int64(0)))
    assert not _same(_sleef._logf_chunk(x), want)


# ------------------------------------------------------------------- cross_entropy vs torch

def _logits(shape, dt, special, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * np.exp(rng.uniform(-2, 3, shape))).astype(np.float32)
    if special:
        vals = np.array([0.0, -0.0, 1e-45, -1e-40, 1.2e-38, np.inf, -np.inf, np.nan, 1e4, -1e4,
                         88.7, -104.0, 3e38, -3e38], np.float32)
        m = rng.random(shape) < special
        a[m] = rng.choice(vals, int(m.sum()))
    return a.astype(dt) if dt != "bfloat16" else a


def _tensor(lib, a, dt, requires_grad=False):
    t = lib.tensor(a)
    if dt == "bfloat16":
        t = t.to(lib.bfloat16)
    return t.requires_grad_(requires_grad)


def _names(t):
    out, stack = [], [t.grad_fn]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        out.append(n.name())
        stack.extend(f for f, _ in n.next_functions)
    return out


def _bits_of(t):
    a = t.detach().float().numpy() if str(t.dtype).endswith("bfloat16") else t.detach().numpy()
    return np.ascontiguousarray(a)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16, "bfloat16"])
@pytest.mark.parametrize("shape,special", [((128, 10), 0.0), ((128, 10), 0.05), ((64, 100), 0.0),
                                           ((7, 130), 0.02), ((10,), 0.0), ((5, 3, 4, 2), 0.0)])
@pytest.mark.parametrize("kw", [{}, {"reduction": "sum"}, {"reduction": "none"},
                                {"ignore_index": 2}, {"label_smoothing": 0.1},
                                {"weight": True}, {"weight": True, "ignore_index": 1,
                                                   "label_smoothing": 0.2}])
def test_cross_entropy_step_is_torchs(dt, shape, special, kw):
    torch = pytest.importorskip("torch")
    import ember
    x = _logits(shape, dt, special)
    c = shape[0] if len(shape) == 1 else shape[1]
    rng = np.random.default_rng(1)
    tgt = rng.integers(0, c, () if len(shape) == 1 else (shape[0],) + shape[2:])
    w = (rng.random(c) + 0.5).astype(np.float32)
    res = []
    saved = torch.get_num_threads()
    torch.set_num_threads(ember.get_num_threads())
    try:
        for lib in (torch, ember):
            args = dict(kw)
            if args.get("weight"):
                args["weight"] = _tensor(lib, w.astype(dt) if dt != "bfloat16" else w, dt)
            xt = _tensor(lib, x, dt, True)
            loss = lib.nn.functional.cross_entropy(xt, lib.tensor(tgt), **args)
            loss.backward(lib.ones_like(loss))
            res.append((_bits_of(loss), _bits_of(xt.grad), _names(loss)))
    finally:
        torch.set_num_threads(saved)
    (lt, gt, nt), (le, ge, ne) = res
    assert nt == ne
    for a, b in ((lt, le), (gt, ge)):
        assert a.dtype == b.dtype and a.shape == b.shape
        nan = np.isnan(a)
        assert np.array_equal(nan, np.isnan(b))
        assert np.array_equal(a[~nan].view(np.uint8), b[~nan].view(np.uint8))


def test_cross_entropy_graph_of_a_3d_input_is_torchs():
    torch = pytest.importorskip("torch")
    import ember
    x = _logits((5, 3, 4), np.float32, 0.0)
    tgt = np.random.default_rng(1).integers(0, 3, (5, 4))
    names = [_names(lib.nn.functional.cross_entropy(lib.tensor(x, requires_grad=True),
                                                    lib.tensor(tgt)))
             for lib in (torch, ember)]
    assert names[0] == names[1]


@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 3, 4, 5, 2), (2, 3, 0), (0, 3, 4)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("transposed", [False, True])
def test_nll_loss_of_other_ranks_views_as_torch_does(shape, reduction, transposed):
    """``nll_loss_nd``: 3-d and 5-d+ inputs are made contiguous and viewed as (N, C, 1, -1)
    (an empty one as (N, C, 0, 0)); the unreduced loss is viewed back. Same nodes, same
    values and gradients as torch."""
    torch = pytest.importorskip("torch")
    import ember
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(np.float32)
    tgt = rng.integers(0, 3, (shape[0], *shape[2:]))
    res = []
    for lib in (torch, ember):
        leaf = lib.tensor(x, requires_grad=True)
        inp = leaf.mT.contiguous().mT if transposed else leaf
        loss = lib.nn.functional.nll_loss(inp, lib.tensor(tgt), reduction=reduction)
        names = []
        node = loss.grad_fn
        while node is not None:
            names.append(node.name())
            node = node.next_functions[0][0] if node.next_functions else None
        loss.backward(lib.ones_like(loss))
        res.append((names, tuple(loss.shape), loss.detach().numpy(), leaf.grad.numpy()))
    (nt, st, lt, gt), (ne, se, le, ge) = res
    assert nt[:-1] == ne[:-1] and st == se
    assert np.array_equal(lt, le, equal_nan=True) and np.array_equal(gt, ge)
