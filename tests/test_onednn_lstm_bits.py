"""float32 ``nn.LSTM`` on unpacked input, which torch runs on oneDNN's RNN primitive: the
outputs, the final ``(h, c)`` and the gradients are torch's bits, in training (``ref`` RNN,
grad enabled) and in inference (``brgemm``, under ``no_grad``), for one and several layers,
both directions, batch-first, a batch of one (oneDNN's gemv) and an input as wide as the
hidden state (the fused brgemm); the cases torch does not send to oneDNN keep the composed
path."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _onednn, _onednn_rnn

from .helpers import torch

pytestmark = pytest.mark.skipif(not _onednn.avx512(), reason="oneDNN's AVX512 kernels")

CONFIGS = [  # input, hidden, layers, bidirectional, batch_first, steps, batch
    (10, 20, 1, False, False, 5, 3),
    (16, 16, 2, False, False, 7, 4),
    (33, 50, 2, False, True, 6, 1),
    (12, 24, 2, True, True, 5, 6),
    (8, 8, 3, True, False, 4, 1),
    (20, 20, 1, False, False, 3, 2),
    (451, 24, 1, False, False, 2, 3),     # the sgemm driver's blocks: two halves
    (1000, 8, 1, False, True, 2, 2),      # input 1000: blocks 384, 308, 308
]


def _bits(a):
    return a.detach().numpy().view(np.uint32)


def _run(L, cfg, grad, hx=False, bias=True):
    size, hidden, layers, bi, bf, steps, batch = cfg
    L.manual_seed(7)
    m = L.nn.LSTM(size, hidden, layers, bias=bias, bidirectional=bi, batch_first=bf)
    rng = np.random.default_rng(1)
    x = L.tensor(rng.standard_normal((batch, steps, size) if bf else (steps, batch, size)),
                 dtype=L.float32)
    state = None
    if hx:
        shape = (layers * (2 if bi else 1), batch, hidden)
        state = tuple(L.tensor(rng.standard_normal(shape), dtype=L.float32) for _ in "hc")
    with L.set_grad_enabled(grad):
        y, (h, c) = m(x, state)
    return y, h, c


@pytest.mark.parametrize("grad", [True, False])
@pytest.mark.parametrize("cfg", CONFIGS)
def test_lstm_forward_is_torchs_bits(cfg, grad):
    got = _run(ember, cfg, grad)
    want = _run(torch, cfg, grad)
    for a, b in zip(got, want):
        assert np.array_equal(_bits(a), _bits(b))
    if grad:
        assert type(got[0].grad_fn).__name__ == type(want[0].grad_fn).__name__


@pytest.mark.parametrize("grad", [True, False])
def test_lstm_with_state_and_no_bias(grad):
    for cfg in CONFIGS[:3]:
        got = _run(ember, cfg, grad, hx=True, bias=False)
        want = _run(torch, cfg, grad, hx=True, bias=False)
        for a, b in zip(got, want):
            assert np.array_equal(_bits(a), _bits(b))


def test_activations_are_the_injectors():
    x = np.random.default_rng(2).standard_normal(20000).astype(np.float32)
    x *= np.exp(np.random.default_rng(3).uniform(-15, 3, x.size)).astype(np.float32)
    hidden = x.size
    m = torch.nn.LSTM(1, hidden)
    with torch.no_grad():
        for p in m.parameters():
            p.zero_()
        b = m.bias_ih_l0
        b[:hidden] = torch.from_numpy(x)      # c = sigmoid(x) * tanh(30) = sigmoid(x)
        b[2 * hidden:] = 30
        _, (_, c) = m(torch.zeros(1, 1, 1))
        assert np.array_equal(c.numpy().ravel(), _onednn_rnn.logistic(x))
        b[:hidden] = 30                       # c = tanh(x)
        b[2 * hidden:3 * hidden] = torch.from_numpy(x)
        _, (_, c) = m(torch.zeros(1, 1, 1))
        assert np.array_equal(c.numpy().ravel(), _onednn_rnn.tanh(x))


def _grads(L, cfg, hx):
    size, hidden, layers, bi, bf, steps, batch = cfg
    L.manual_seed(7)
    m = L.nn.LSTM(size, hidden, layers, bidirectional=bi, batch_first=bf)
    rng = np.random.default_rng(1)
    x = L.tensor(rng.standard_normal((batch, steps, size) if bf else (steps, batch, size)),
                 dtype=L.float32, requires_grad=True)
    state = None
    if hx:
        shape = (layers * (2 if bi else 1), batch, hidden)
        state = tuple(L.tensor(rng.standard_normal(shape), dtype=L.float32,
                               requires_grad=True) for _ in "hc")
    y, (h, c) = m(x, state)
    gy = L.tensor(rng.standard_normal(tuple(y.shape)), dtype=L.float32)
    ((y * gy).sum() + h.sum() + (c * c).sum()).backward()
    return [x.grad] + [p.grad for p in m.parameters()] + ([t.grad for t in state] if hx else [])


@pytest.mark.parametrize("hx", [False, True])
@pytest.mark.parametrize("cfg", CONFIGS[:6])
def test_lstm_gradients_are_torchs_bits(cfg, hx):
    """oneDNN's backward: the input's, the initial state's and every weight's gradient."""
    for a, b in zip(_grads(ember, cfg, hx), _grads(torch, cfg, hx)):
        assert np.array_equal(a.numpy().view(np.uint32), b.numpy().view(np.uint32))


def test_cases_off_onednn_keep_the_composed_path():
    """float64, projections and a disabled oneDNN are not oneDNN's: torch's native cells."""
    data = np.random.default_rng(0).standard_normal((5, 2, 6))
    for kwargs, dtype, enabled in (({}, "float64", True), ({"proj_size": 3}, "float32", True),
                                   ({}, "float32", False)):
        got = []
        for L in (ember, torch):
            L.manual_seed(3)
            m = L.nn.LSTM(6, 5, **kwargs).to(getattr(L, dtype))
            before = L.backends.mkldnn.enabled
            L.backends.mkldnn.enabled = enabled
            try:
                y, (h, c) = m(L.tensor(data, dtype=getattr(L, dtype)))
            finally:
                L.backends.mkldnn.enabled = before
            got.append((y, h, c, type(y.grad_fn).__name__))
        for a, b in zip(got[0][:3], got[1][:3]):
            assert np.array_equal(a.detach().numpy(), b.detach().numpy())
        assert got[0][3] == got[1][3]
