"""torch's top-level forms of the nn kernels (``torch.conv2d``, ``torch.dropout``,
``torch.layer_norm``, ``torch.embedding_bag``, ``torch.lstm_cell`` …) against torch 2.13: their
ATen signatures (argument order, numeric reductions, required flags), values, gradients,
``grad_fn`` names and errors; and ``nn.SyncBatchNorm`` on one process."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import NC, arr, caught_warnings, check, errors_alike, torch

X3 = arr((2, 3, 6), "float64")
X4 = arr((2, 3, 5, 4), "float64", seed=1)
X5 = arr((1, 2, 3, 4, 4), "float64", seed=2)
W1 = arr((4, 3, 2), "float64", seed=3)
W2 = arr((4, 3, 2, 2), "float64", seed=4)
WT = arr((3, 4, 2, 2), "float64", seed=5)
M = arr((4, 5), "float64", seed=6)
C = arr((3,), "float64", seed=7, positive=True)
EMB = arr((6, 3), "float64", seed=8)

CASES = [
    # convolutions: the same functions as nn.functional's
    (lambda L, x, w: L.conv1d(x, w), X3, W1),
    (lambda L, x, w: L.conv1d(x, w, None, 2, 1), X3, W1),
    (lambda L, x, w: L.conv1d(x, w, padding="same"), X3, W1),
    (lambda L, x, w, b: L.conv2d(x, w, b, stride=(1, 2), padding=1), X4, W2,
     arr((4,), "float64")),
    (lambda L, x, w: L.conv2d(x, w, dilation=2), NC(arr((2, 3, 4, 5), "float64")), W2),
    (lambda L, x: L.conv3d(x, L.ones(3, 2, 2, 2, 2, dtype=L.float64)), X5),
    (lambda L, x, w: L.conv_transpose1d(x, w[:, :, 0].unsqueeze(-1).expand(3, 4, 2)[:, :2]),
     X3, WT),
    (lambda L, x, w: L.conv_transpose2d(x, w, stride=2, output_padding=1), X4, WT),
    (lambda L, x: L.conv_transpose3d(x, L.ones(2, 1, 2, 2, 2, dtype=L.float64), groups=1), X5),
    (lambda L, x, w, b: L.conv_tbc(x, w, b, 1), arr((5, 2, 3), "float64"),
     arr((2, 3, 4), "float64", seed=1), arr((4,), "float64")),
    # shuffles, distances, bilinear, pooling aliases
    (lambda L, x: L.pixel_shuffle(x, 2), arr((1, 8, 2, 3), "float64")),
    (lambda L, x: L.pixel_unshuffle(x, 2), arr((1, 2, 4, 6), "float64")),
    (lambda L, x: L.channel_shuffle(x, 3), arr((2, 6, 2), "float64")),
    (lambda L, a, b: L.cosine_similarity(a, b, 0), M, arr((4, 5), "float64", seed=9)),
    (lambda L, a, b: L.pairwise_distance(a, b, 3.0, keepdim=True), M, NC(arr((4, 5)))),
    (lambda L, a: L.pdist(a, 1.5), M),
    (lambda L, a, b, w: L.bilinear(a, b, w), arr((3, 2), "float64"),
     arr((3, 4), "float64", seed=1), arr((5, 2, 4), "float64", seed=2)),
    (lambda L, x: L.avg_pool1d(x, 3, 2, 1), X3),
    (lambda L, x: L.adaptive_avg_pool1d(x, 4), X3),
    (lambda L, x: L.adaptive_max_pool1d(x, 4), X3),
    (lambda L, x: L.max_pool1d(x, 2), X3),
    (lambda L, x: L.max_pool1d(x, 3, 2, 1, 1, True), X3),
    (lambda L, x: L.max_pool1d_with_indices(x, 2), X3),
    (lambda L, x: L.max_pool2d(x, (2, 2), (), 1), X4),
    (lambda L, x: L.max_pool2d(x, 3, 1, 1, 1, ceil_mode=True), NC(arr((2, 3, 4, 5)))),
    (lambda L, x: L.max_pool3d(x, (1, 2, 2)), X5),
    # normalisation with ATen's argument order
    (lambda L, x, w, b: L.batch_norm(x, w, b, None, None, True, 0.1, 1e-5, True), X3, C, C),
    (lambda L, x: L.batch_norm(x, None, None, L.zeros(3, dtype=L.float64),
                               L.ones(3, dtype=L.float64), False, 0.1, 1e-5, False), X3),
    (lambda L, x: L.batch_norm(x[:1, :, :1], None, None, None, None, True, 0.1, 1e-5, True),
     X3),
    (lambda L, x, w, b: L.layer_norm(x, [6], w, b, 1e-3), X3, arr((6,), "float64"),
     arr((6,), "float64", seed=1)),
    (lambda L, x: L.layer_norm(x, (5, 4)), X4),
    (lambda L, x, w: L.group_norm(x, 3, w), X3, C),
    (lambda L, x: L.group_norm(x, 1, eps=0.1), X4),
    (lambda L, x, w, b: L.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, True), X3, C, C),
    (lambda L, x: L.instance_norm(x[:, :, :1], None, None, None, None, True, 0.1, 1e-5,
                                  True), X3),
    (lambda L, x, w: L.rms_norm(x, [6], w), X3, arr((6,), "float64")),
    (lambda L, x: L.rms_norm(x, (5, 4), eps=1e-3), X4),
    (lambda L, v: L.norm_except_dim(v), M),
    (lambda L, v: L.norm_except_dim(v, 3, 1), M),
    (lambda L, v: L.norm_except_dim(v, 2, -1), M),
    (lambda L, v: L.norm_except_dim(v, 2, 1), X4),
    (lambda L, v: L.norm_except_dim(v, 1, 3), X4),
    # embeddings: weight first
    (lambda L, w: L.embedding(w, L.tensor([[0, 2], [5, 2]])), EMB),
    (lambda L, w: L.embedding(w, L.tensor([0, 2, 2, 1]), 2), EMB),
    (lambda L, w: L.embedding(w, L.tensor([0, 2, 2, 1]), padding_idx=-2), EMB),
    (lambda L, w: L.embedding(w, L.tensor([9])), EMB),
    *[(lambda L, w, m=m: L.embedding_bag(w, L.tensor([0, 2, 4, 2, 1, 5]),
                                         L.tensor([0, 2, 2]), False, m), EMB)
      for m in (0, 1, 2)],
    (lambda L, w: L.embedding_bag(w, L.tensor([0, 2, 4, 2, 1, 5]), L.tensor([0, 2, 2, 6]),
                                  False, 1, False, None, True), EMB),
    *[(lambda L, w, m=m: L.embedding_bag(w, L.tensor([0, 2, 4, 2, 1, 5]), L.tensor([0, 2, 2]),
                                         False, m, False, None, False, 2), EMB)
      for m in (1, 2)],
    (lambda L, w, p: L.embedding_bag(w, L.tensor([0, 2, 4, 2, 1, 5]), L.tensor([0, 3]),
                                     per_sample_weights=p), EMB, arr((6,), "float64")),
    # losses: reductions as numbers
    *[(lambda L, a, b, r=r: L.binary_cross_entropy_with_logits(a, b.sigmoid(), reduction=r),
       M, arr((4, 5), "float64", seed=1)) for r in (0, 1, 2)],
    (lambda L, a, b, w, p: L.binary_cross_entropy_with_logits(a, b.sigmoid(), w.detach(),
                                                              p.detach(), 1), M,
     arr((4, 5), "float64", seed=1), arr((5,), "float64", positive=True),
     arr((5,), "float64", seed=2, positive=True)),
    *[(lambda L, a, b, r=r: L.kl_div(a, b.softmax(1), r), M, arr((4, 5), "float64", seed=1))
      for r in (0, 1, 2)],
    (lambda L, a, b: L.kl_div(a, b, 2, log_target=True), M, arr((4, 5), "float64", seed=1)),
    *[(lambda L, a, b, r=r: L.cosine_embedding_loss(a, b, L.tensor([1, -1, 1, -1]), 0.2, r), M,
       arr((4, 5), "float64", seed=1)) for r in (0, 1, 2)],
    (lambda L, a, b: L.cosine_embedding_loss(a, b, L.tensor([[1]])), M, M),
    *[(lambda L, a, b, r=r: L.margin_ranking_loss(a, b, a.sign().detach(), 0.3, r), M,
       arr((4, 5), "float64", seed=1)) for r in (0, 1, 2)],
    (lambda L, a, b: L.margin_ranking_loss(a, b[0], L.tensor(1.0, dtype=L.float64)), M, M),
    *[(lambda L, a, r=r: L.hinge_embedding_loss(a, a.sign().detach(), 0.5, r), M)
      for r in (0, 1, 2)],
    *[(lambda L, a, p, n, r=r: L.triplet_margin_loss(a, p, n, 0.5, 3.0, 1e-6, True, r), M,
       arr((4, 5), "float64", seed=1), arr((4, 5), "float64", seed=2)) for r in (0, 1, 2)],
    (lambda L, a, p, n: L.triplet_margin_loss(a, p, n, -1.0), M, arr((4, 5), "float64", seed=1),
     arr((4, 5), "float64", seed=2)),
    (lambda L, a, p: L.triplet_margin_loss(a, p, p[0]), M, arr((4, 5), "float64", seed=1)),
    *[(lambda L, a, t, li=li, f=f, r=r: L.poisson_nll_loss(a, t.abs() * 3, li, f, 1e-8, r), M,
       arr((4, 5), "float64", seed=1)) for li in (True, False) for f in (True, False)
      for r in (0, 1)],
    *[(lambda L, x, r=r: L.ctc_loss(x.log_softmax(2), L.tensor([[1, 2, 2], [1, 3, 0]]),
                                    [6, 5], [3, 2], 0, r), arr((6, 2, 4), "float64"))
      for r in (0, 1, 2)],
    (lambda L, x: L.ctc_loss(x.log_softmax(2), L.tensor([1, 2, 2, 1, 3]), L.tensor([6, 5]),
                             L.tensor([3, 2]), blank=0, reduction=1, zero_infinity=True),
     arr((6, 2, 4), "float64")),
    # in-place activations
    (lambda L, x: L.celu_(x.clone(), 0.7), M),
    (lambda L, x: L.selu_(x.clone()), M),
    (lambda L, x: L.threshold_(x.clone(), 0.1, -2.0), M),
    (lambda L, x: L.rrelu(x), M),
    (lambda L, x: L.rrelu(x, 0.1, 0.3), M),
    (lambda L, x: L.rrelu_(x.clone(), 0.2, 0.4), M),
    # grid sampling with the modes as numbers
    (lambda L, t: L.affine_grid_generator(t, [2, 1, 3, 4], False), arr((2, 2, 3), "float64")),
    (lambda L, t: L.affine_grid_generator(t, [2, 1, 3, 4], True), arr((2, 2, 3), "float64")),
    *[(lambda L, x, g, m=m, p=p, a=a: L.grid_sampler(x, g, m, p, a), X4,
       arr((2, 3, 2, 2), "float64", seed=3, low=-1.2, high=1.2))
      for m in (0, 1) for p in (0, 1, 2) for a in (False, True)],
    (lambda L, x, g: L.grid_sampler_2d(x, g, 0, 2, False), X4,
     arr((2, 3, 2, 2), "float64", seed=3)),
    (lambda L, x, g: L.grid_sampler(x, g, 0, 0, False), X4, arr((1, 3, 2, 2), "float64")),
    # recurrent cells
    (lambda L, x, h, c, wi, wh, bi, bh: L.lstm_cell(x, [h, c], wi, wh, bi, bh),
     arr((2, 5), "float64"), arr((2, 4), "float64", seed=1), arr((2, 4), "float64", seed=2),
     arr((16, 5), "float64", seed=3), arr((16, 4), "float64", seed=4),
     arr((16,), "float64", seed=5), arr((16,), "float64", seed=6)),
    (lambda L, x, h, c, wi, wh: L.lstm_cell(x, (h, c), wi, wh), arr((2, 5), "float64"),
     arr((2, 4), "float64", seed=1), arr((2, 4), "float64", seed=2),
     arr((16, 5), "float64", seed=3), arr((16, 4), "float64", seed=4)),
    (lambda L, x, h, wi, wh, bi, bh: L.gru_cell(x, h, wi, wh, bi, bh), arr((2, 5), "float64"),
     arr((2, 4), "float64", seed=1), arr((12, 5), "float64", seed=3),
     arr((12, 4), "float64", seed=4), arr((12,), "float64", seed=5),
     arr((12,), "float64", seed=6)),
    (lambda L, x, h, wi, wh: L.rnn_tanh_cell(x, h, wi, wh), arr((2, 5), "float64"),
     arr((2, 4), "float64", seed=1), arr((4, 5), "float64", seed=3),
     arr((4, 4), "float64", seed=4)),
    (lambda L, x, h, wi, wh, b: L.rnn_relu_cell(x, h, wi, wh, b, b), arr((2, 5), "float64"),
     arr((2, 4), "float64", seed=1), arr((4, 5), "float64", seed=3),
     arr((4, 4), "float64", seed=4), arr((4,), "float64", seed=5)),
    (lambda L, x, h, wi, wh: L.rnn_tanh_cell(x, h, wi, wh), arr((2, 5), "float32"),
     arr((2, 4), "float32", seed=1), arr((4, 5), "float32", seed=3),
     arr((4, 4), "float32", seed=4)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_torch(case):
    fn, *inputs = CASES[case]
    check(fn, *inputs)


def test_same_functions_as_nn_functional():
    F = ember.nn.functional
    for name in ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                 "conv_transpose3d", "conv_tbc", "pixel_shuffle", "pixel_unshuffle",
                 "channel_shuffle", "cosine_similarity", "pairwise_distance", "pdist",
                 "avg_pool1d", "adaptive_avg_pool1d", "bilinear", "celu_", "selu_",
                 "threshold_", "rrelu_"):
        assert (getattr(ember, name) is getattr(F, name)) == \
            (getattr(torch, name) is getattr(torch.nn.functional, name)), name


@pytest.mark.parametrize("name", ["dropout", "alpha_dropout", "feature_dropout",
                                  "feature_alpha_dropout"])
@pytest.mark.parametrize("inplace", [False, True])
def test_dropout_stream_and_graph(name, inplace):
    op = name + "_" * inplace
    shape = (3, 4, 5)
    for p, train in ((0.3, True), (1.0, True), (0.0, True), (0.6, False)):
        outs = []
        for L in (torch, ember):
            L.manual_seed(7)
            x = L.from_numpy(arr(shape, "float64")).requires_grad_()
            y = x.clone() if inplace else x
            out = getattr(L, op)(y, p, train)
            if not inplace:
                assert (out is x) == (not train or p == 0)
            out.sum().backward()
            gf = None if out.grad_fn is None else type(out.grad_fn).__name__
            outs.append((out.detach().numpy(), x.grad.numpy(), gf))
        np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-12, atol=1e-12)
        assert outs[0][2] == outs[1][2]


@pytest.mark.parametrize("fn", [
    lambda L: L.dropout(L.ones(3), 1.5, True),
    lambda L: L.dropout_(L.ones(3), -0.25, False),
    lambda L: L.alpha_dropout(L.ones(3), 2, True),
    lambda L: L.feature_dropout(L.ones(3), 0.5, True),
    lambda L: L.feature_alpha_dropout(L.ones(3), 0.5, True),
    lambda L: L.rrelu(L.tensor([1, 2]), training=True),
    lambda L: L.rrelu(L.tensor([1, 2])),
    lambda L: L.embedding_renorm_(L.ones(3, 2, requires_grad=True), L.tensor([0]), 1.0, 2.0),
    lambda L: L.embedding(L.ones(3, 2), L.tensor([0.0])),
    lambda L: L.embedding_bag(L.ones(3, 2), L.tensor([0, 1]), L.tensor([1])),
    lambda L: L.grid_sampler(L.ones(1, 1, 2, 2), L.ones(1, 2, 2, 3), 0, 0, False),
    lambda L: L.grid_sampler(L.ones(1, 1, 2, 2), L.ones(1, 2, 2, 2, dtype=L.float64), 0, 0,
                             False),
    lambda L: L.affine_grid_generator(L.ones(2, 2, 3), [3, 1, 2, 2], False),
    lambda L: L.group_norm(L.ones(2, 3, 4), 2),
    lambda L: L.cosine_embedding_loss(L.ones(3), L.ones(3), L.ones(2)),
])
def test_errors_match_torch(fn):
    errors_alike(fn)


def test_rrelu_with_generator():
    outs = []
    for L in (torch, ember):
        g = L.Generator().manual_seed(3)
        x = L.from_numpy(arr((4, 5), "float64"))
        a = L.rrelu(x, 0.1, 0.3, True, g)
        b = L.rrelu_(x.clone(), 0.1, 0.3, True, generator=g)
        outs.append((a.numpy(), b.numpy()))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])


def test_batch_norm_updates_running_stats():
    got = []
    for L in (torch, ember):
        x = L.from_numpy(X3)
        rm, rv = L.zeros(3, dtype=L.float64), L.ones(3, dtype=L.float64)
        L.batch_norm(x, None, None, rm, rv, True, 0.3, 1e-5, True)
        rm2, rv2 = L.zeros(3, dtype=L.float64), L.ones(3, dtype=L.float64)
        L.instance_norm(x, None, None, rm2, rv2, True, 0.3, 1e-5, True)
        got.append([t.numpy() for t in (rm, rv, rm2, rv2)])
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_embedding_renorm_():
    got = []
    for L in (torch, ember):
        w = L.from_numpy(EMB * 3)
        out = L.embedding_renorm_(w, L.tensor([0, 2, 2]), 1.5, 2.0)
        assert out is w
        got.append(w.numpy())
    np.testing.assert_allclose(got[0], got[1], rtol=1e-12)


def test_no_warnings_at_top_level():
    # nn.functional's kl_div warns for reduction='mean'; torch.kl_div does not
    def fn(L):
        L.kl_div(L.zeros(2, 3), L.ones(2, 3) / 3)
        L.kl_div(L.zeros(2, 3), L.ones(2, 3) / 3, 1)
    assert caught_warnings(fn, torch) == caught_warnings(fn, ember) == []


def test_cell_modules_use_the_cells():
    for cls, hx in ((ember.nn.LSTMCell, None), (ember.nn.GRUCell, None),
                    (ember.nn.RNNCell, None)):
        ember.manual_seed(0)
        m = cls(5, 4)
        x = ember.from_numpy(arr((2, 5)))
        out = m(x, hx)
        ref = {ember.nn.LSTMCell: ember.lstm_cell, ember.nn.GRUCell: ember.gru_cell,
               ember.nn.RNNCell: ember.rnn_tanh_cell}[cls]
        zeros = ember.zeros(2, 4)
        want = ref(x, (zeros, zeros) if cls is ember.nn.LSTMCell else zeros, m.weight_ih,
                   m.weight_hh, m.bias_ih, m.bias_hh)
        for a, b in zip(out if isinstance(out, tuple) else (out,),
                        want if isinstance(want, tuple) else (want,)):
            assert ember.equal(a, b)


# ----------------------------------------------------------------------------- SyncBatchNorm

def test_sync_batch_norm_single_process():
    outs = []
    for L in (torch, ember):
        L.manual_seed(0)
        m = L.nn.SyncBatchNorm(3, momentum=None)
        x = L.from_numpy(arr((4, 3, 5))).requires_grad_()
        y = m(x)
        y.sum().backward()
        m.eval()
        z = m(x)
        outs.append((repr(m), y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__,
                     z.detach().numpy(), m.running_mean.numpy(), m.running_var.numpy(),
                     int(m.num_batches_tracked)))
    for a, b in zip(*outs):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        else:
            assert a == b


@pytest.mark.parametrize("fn", [lambda L: L.nn.SyncBatchNorm(3)(L.ones(3)),
                                lambda L: L.nn.SyncBatchNorm(0)(L.ones(2, 0))])
def test_sync_batch_norm_errors(fn):
    errors_alike(fn)


def test_convert_sync_batchnorm():
    got = []
    for L in (torch, ember):
        net = L.nn.Sequential(L.nn.Conv2d(3, 3, 1), L.nn.BatchNorm2d(3, affine=False),
                              L.nn.Sequential(L.nn.BatchNorm1d(3, momentum=0.2).eval()))
        s = L.nn.SyncBatchNorm.convert_sync_batchnorm(net)
        assert s is net and s[2][0].running_var is not None
        assert s[1].running_mean is not None and s[2][0].training is False
        got.append(repr(s))
        single = L.nn.SyncBatchNorm.convert_sync_batchnorm(L.nn.BatchNorm1d(4))
        got.append(repr(single))
    assert got[0] == got[2] and got[1] == got[3]


def test_reachable_as_torch_names():
    for name in ("conv2d", "dropout", "layer_norm", "max_pool2d", "lstm_cell",
                 "norm_except_dim", "embedding_bag"):
        assert name in dir(ember) and callable(getattr(ember, name))


@pytest.mark.parametrize("size", [[0], [2], [1, 0]])
def test_adaptive_max_pool1d_sizes(size):
    grad = size != [0]      # (torch's backward refuses an empty output)
    check(lambda L, x: L.adaptive_max_pool1d(x, size), arr((2, 3), "float64"), grad=grad)
    check(lambda L, x: L.nn.functional.adaptive_max_pool1d(x, size), arr((2, 3), "float64"),
          grad=grad)
