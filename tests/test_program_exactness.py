"""Differences found by comparing the programs' output byte for byte with torch's (rather
than within the tolerance of ``test_real_programs``), each checked against torch bit for bit:
``quantile``/``nanquantile`` compute their ranks and weights in ``q``'s dtype (float32 for
float32 input), as torch's ``quantile_compute`` does, not in float64; ``x ** 0.8`` computes the
elements torch runs one by one with ``std::pow(x, double(0.8))``, the exponent not rounded to
float32 first; ``nn.RNN``/``GRU``/``LSTM``
compute the input's gates of a whole sequence (or packed batch) in one ``linear``, as torch's
CPU layers do, and step the cells from them, with ATen's cell formulas (a GRU's
``(h - n) * z + n``), so outputs and every weight's gradient are torch's bits (float32 LSTMs
on unpacked input run oneDNN's RNN primitive in torch: ``test_onednn_lstm_bits``); ``cdist``'s
matrix-product route is one ``EuclideanDistBackward0`` node with torch's backward formula;
``bilinear`` is ATen's ``_trilinear`` (one ``TrilinearBackward0`` node, its slices contracted
by ``sumproduct_pair``, its gradients ``_trilinear`` again); ``_safe_softmax`` (attention's
math path, taken with dropout) is torch's softmax kernel, not NumPy's exp and sum; L-BFGS
takes its dot products from torch's BLAS (MKL) and its gradient sum in torch's order;
``cholesky_inverse`` fills the triangle ``potri`` leaves with copies (a -0 stays -0);
convolutions on torch's slow path (float64, or one small float32 sample) are ATen's im2col
and one MKL gemm per sample, the bias filled in first, and their gradients ATen's
``slow_conv2d_backward`` (a gemm and ``unfolded2d_acc`` per sample; the weight's gemms summed
sample after sample)."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import torch

QUANTILES = {
    "linear_tail": lambda L, x: L.quantile(x, L.tensor([0.05, 0.5, 0.95])),
    "dim": lambda L, x: L.quantile(x.reshape(50, 10), L.tensor([0.333, 0.9]), dim=0),
    "scalar_q": lambda L, x: L.quantile(x, 0.77),
    "midpoint": lambda L, x: L.quantile(x, L.tensor([0.95]), interpolation="midpoint"),
    "nearest": lambda L, x: L.quantile(x, L.tensor([0.95, 0.05]), interpolation="nearest"),
    "nanquantile": lambda L, x: L.nanquantile(L.where(x > 3e4, x, L.nan), L.tensor([0.95])),
    "float64": lambda L, x: L.quantile(x.double(), L.tensor([0.95], dtype=L.float64)),
}


@pytest.mark.parametrize("name", sorted(QUANTILES))
def test_quantile_ranks_in_q_dtype(name):
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        x = L.exp(L.randn(500) * 0.6 + 10.5)
        x[7] = 1e7
        got.append(QUANTILES[name](L, x).numpy())
    assert got[0].dtype == got[1].dtype and np.array_equal(got[0], got[1])


RNNS = [(mode, dtype, batch_first, bidirectional, layers, packed)
        for mode in ("RNN", "GRU", "LSTM") for dtype in ("float32", "float64")
        for batch_first in (False, True) for bidirectional in (False, True)
        for layers in (1, 2) for packed in (False, True)
        if not (mode == "LSTM" and dtype == "float32" and not packed)]


@pytest.mark.parametrize("mode,dtype,batch_first,bidirectional,layers,packed", RNNS)
def test_recurrent_layers_are_torchs_bits(mode, dtype, batch_first, bidirectional, layers,
                                           packed):
    data = np.random.default_rng(0).standard_normal((6, 3, 5))
    got = []
    for L in (ember, torch):
        L.manual_seed(3)
        m = getattr(L.nn, mode)(5, 4, num_layers=layers, bidirectional=bidirectional,
                                batch_first=batch_first).to(getattr(L, dtype))
        x = L.tensor(data, dtype=getattr(L, dtype))
        if batch_first:
            x = x.transpose(0, 1)
        if packed:
            x = L.nn.utils.rnn.pack_padded_sequence(x, L.tensor([6, 4, 3]),
                                                    batch_first=batch_first)
        out, h = m(x)
        out = out.data if packed else out
        (out.sum() + (h[0] if isinstance(h, tuple) else h).sum()).backward()
        got.append([out.detach().numpy()] + [p.grad.numpy() for p in m.parameters()])
    for a, b in zip(*got):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("exponent", [0.8, 1.7, -0.3, 1 / 3])
def test_pow_number_reads_exponent_as_double(exponent, dtype):
    data = np.linspace(0.05, 5, 50)
    got = []
    for L in (ember, torch):
        x = L.tensor(data, dtype=getattr(L, dtype), requires_grad=True)
        y = x**exponent
        y.sum().backward()
        got.append((y.detach().numpy(), x.grad.numpy()))
    for a, b in zip(*got):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", [((30, 5), (40, 5)), ((2, 30, 5), (2, 26, 5)),
                                    ((3, 4), (27, 4))])
def test_cdist_matrix_product_route_is_torchs(shapes, dtype):
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        a = L.randn(*shapes[0], dtype=getattr(L, dtype), requires_grad=True)
        b = L.randn(*shapes[1], dtype=getattr(L, dtype), requires_grad=True)
        d = L.cdist(a, b)
        (d * d.detach()).sum().backward()
        got.append((type(d.grad_fn.next_functions[0][0]).__name__, d.detach().numpy(),
                    a.grad.numpy(), b.grad.numpy()))
    assert got[0][0] == got[1][0] == "EuclideanDistBackward0"
    for x, y in zip(got[0][1:], got[1][1:]):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lead", [(4,), (2, 3), ()])
def test_bilinear_is_torchs_trilinear(lead, dtype):
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        m = L.nn.Bilinear(5, 6, 7).to(getattr(L, dtype))
        x = L.randn(*lead, 5, dtype=getattr(L, dtype), requires_grad=True)
        y = L.randn(*lead, 6, dtype=getattr(L, dtype), requires_grad=True)
        o = m(x, y)
        (o * o).sum().backward()
        node = o.grad_fn.next_functions[0][0].next_functions[0][0]
        got.append((type(node).__name__, o.detach().numpy(), x.grad.numpy(), y.grad.numpy(),
                    m.weight.grad.numpy()))
    assert got[0][0] == got[1][0] == "TrilinearBackward0"
    for a, b in zip(got[0][1:], got[1][1:]):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("dropout", [0.0, 0.1])
@pytest.mark.parametrize("masked", [False, True])
def test_attention_math_path_is_torchs(masked, dropout):
    got = []
    for L in (ember, torch):
        L.backends.cuda.enable_flash_sdp(False)
        try:
            L.manual_seed(0)
            q, k, v = (L.randn(2, 2, 5, 4, requires_grad=True) for _ in range(3))
            mask = L.nn.Transformer.generate_square_subsequent_mask(5) if masked else None
            L.manual_seed(1)
            out = L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                               dropout_p=dropout)
            out.backward(L.ones_like(out))
            got.append([out.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()])
        finally:
            L.backends.cuda.enable_flash_sdp(True)
    for a, b in zip(*got):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs_steps_are_torchs(line_search):
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        m = L.nn.Linear(4, 2)
        opt = L.optim.LBFGS(m.parameters(), lr=0.5, line_search_fn=line_search)
        x, y = L.randn(8, 4), L.randn(8, 2)

        def closure(m=m, opt=opt, x=x, y=y):
            opt.zero_grad()
            loss = ((m(x) - y) ** 2).mean()
            loss.backward()
            return loss
        for _ in range(3):
            opt.step(closure)
        got.append([p.detach().numpy() for p in m.parameters()])
    for a, b in zip(*got):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_keeps_signed_zeros(upper):
    factor = np.array([[2.0 ** 0.5, 0.0], [0.0, 2.0 ** 0.5]], np.float32)
    got = [L.cholesky_inverse(L.tensor(factor), upper=upper).numpy() for L in (ember, torch)]
    assert got[0].tobytes() == got[1].tobytes()


SLOW_CONVS = [("float64", (1, 1, 16, 16), (1, 1, 3, 3), {}),
              ("float64", (2, 3, 10, 10), (4, 3, 3, 3), {"padding": 1}),
              ("float64", (3, 2, 20), (5, 2, 3), {}),
              ("float64", (2, 3, 9, 9), (4, 3, 3, 3), {"stride": 2}),
              ("float32", (1, 3, 8, 8), (4, 3, 3, 3), {"padding": 1}),
              ("float32", (1, 1, 16, 16), (2, 1, 3, 3), {})]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("dtype,shape,wshape,kw", SLOW_CONVS)
def test_slow_path_convolutions_are_torchs(dtype, shape, wshape, kw, bias):
    rng = np.random.default_rng(0)
    data = rng.standard_normal(shape), rng.standard_normal(wshape), rng.standard_normal(wshape[0])
    got = []
    for L in (ember, torch):
        x, w, b = (L.tensor(a, dtype=getattr(L, dtype), requires_grad=True) for a in data)
        conv = L.nn.functional.conv2d if len(shape) == 4 else L.nn.functional.conv1d
        out = conv(x, w, b if bias else None, **kw)
        (out * out).sum().backward()
        got.append((out.stride(), out.detach().numpy(), x.grad.numpy(), w.grad.numpy()))
    assert got[0][0] == got[1][0]
    for a, b in zip(got[0][1:], got[1][1:]):
        assert np.array_equal(a, b)


CTC_CASES = {
    "padded": ([[1, 2, 2, 3], [3, 1, 0, 0]], [4, 2], [12, 9]),
    "concatenated": ([1, 2, 2, 3, 3, 1], [4, 2], [12, 9]),
    "repeats": ([[2, 2, 2], [1, 1, 4]], [3, 3], [12, 12]),
    "empty_target": ([[1, 2], [0, 0]], [2, 0], [10, 7]),
    "impossible": ([[1, 1, 2, 2], [3, 4, 0, 0]], [4, 2], [3, 12]),
    "empty_input": ([[1, 2], [3, 0]], [2, 1], [0, 6]),
}


@pytest.mark.parametrize("case", sorted(CTC_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_is_torchs(case, dtype, reduction, zero_infinity):
    """``ctc_loss`` and its gradient are torch's bits: the C library's ``exp``/``log``, as
    torch's one-by-one loops call them, and each label's alpha-beta terms log-added from the
    last extended-target position down (a gradient that is zero up to round-off then has
    torch's signs)."""
    targets, target_lengths, input_lengths = CTC_CASES[case]
    x = np.random.default_rng(7).standard_normal((12, 2, 5)).astype(dtype)
    out = {}
    for L in (ember, torch):
        lp = L.tensor(x).log_softmax(2).detach().requires_grad_()
        loss = L.nn.functional.ctc_loss(lp, L.tensor(targets), L.tensor(input_lengths),
                                        L.tensor(target_lengths), reduction=reduction,
                                        zero_infinity=zero_infinity)
        loss.sum().backward()
        out[L] = np.atleast_1d(loss.detach().numpy()), lp.grad.numpy()
    for e, t in zip(out[ember], out[torch]):
        np.testing.assert_array_equal(e.view(np.uint8), t.view(np.uint8))
