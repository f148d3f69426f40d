"""nn.functional as real code calls it (losses with weights, smoothing and reductions,
activations with their parameters, pooling, resampling, padding, normalisation, embedding):
forward values and input gradients bit for bit as torch's, from a table run in both."""

import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 5)).astype(np.float32)
Y = rng.standard_normal((4, 5)).astype(np.float32)
T = rng.integers(0, 5, 4)
P = (rng.random((4, 5)) * 0.9 + 0.05).astype(np.float32)
IMG = rng.standard_normal((2, 3, 7, 7)).astype(np.float32)
W5 = (rng.random(5) + 0.5).astype(np.float32)
SEQ = rng.standard_normal((2, 3, 9)).astype(np.float32)


def F(L):
    return L.nn.functional


CASES = {
    "ce_ls": lambda L, x, y, t: F(L).cross_entropy(x, t, label_smoothing=0.1),
    "ce_w_ls": lambda L, x, y, t: F(L).cross_entropy(
        x, t, weight=L.tensor(W5), label_smoothing=0.2
    ),
    "ce_ignore": lambda L, x, y, t: F(L).cross_entropy(x, L.where(t == 1, -100, t)),
    "ce_sum": lambda L, x, y, t: F(L).cross_entropy(x, t, reduction="sum"),
    "ce_none": lambda L, x, y, t: F(L).cross_entropy(x, t, reduction="none"),
    "ce_probs": lambda L, x, y, t: F(L).cross_entropy(x, y.softmax(1)),
    "ce_probs_ls": lambda L, x, y, t: F(L).cross_entropy(x, y.softmax(1), label_smoothing=0.1),
    "nll_w": lambda L, x, y, t: F(L).nll_loss(x.log_softmax(1), t, weight=L.tensor(W5)),
    "bce": lambda L, x, y, t: F(L).binary_cross_entropy(x.sigmoid(), L.tensor(P)),
    "bce_w": lambda L, x, y, t: F(L).binary_cross_entropy(
        x.sigmoid(), L.tensor(P), weight=L.tensor(W5)
    ),
    "bcel_pw": lambda L, x, y, t: F(L).binary_cross_entropy_with_logits(
        x, L.tensor(P), pos_weight=L.tensor(W5)
    ),
    "bcel_sum": lambda L, x, y, t: F(L).binary_cross_entropy_with_logits(
        x, L.tensor(P), reduction="sum"
    ),
    "huber": lambda L, x, y, t: F(L).huber_loss(x, y, delta=0.5),
    "smoothl1_beta": lambda L, x, y, t: F(L).smooth_l1_loss(x, y, beta=0.3),
    "kl_bm": lambda L, x, y, t: F(L).kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean"),
    "kl_logt": lambda L, x, y, t: F(L).kl_div(
        x.log_softmax(1), y.log_softmax(1), reduction="sum", log_target=True
    ),
    "mse_sum": lambda L, x, y, t: F(L).mse_loss(x, y, reduction="sum"),
    "margin_rank": lambda L, x, y, t: F(L).margin_ranking_loss(
        x[:, 0], y[:, 0], L.tensor([1.0, -1, 1, -1]), margin=0.2
    ),
    "hinge_emb": lambda L, x, y, t: F(L).hinge_embedding_loss(x, L.sign(y)),
    "multilabel_margin": lambda L, x, y, t: F(L).multilabel_margin_loss(
        x, L.tensor([[1, 2, -1, 0, 0]] * 4)
    ),
    "multi_margin": lambda L, x, y, t: F(L).multi_margin_loss(
        x, t, p=2, margin=0.5, weight=L.tensor(W5)
    ),
    "soft_margin": lambda L, x, y, t: F(L).soft_margin_loss(x, L.sign(y)),
    "multilabel_soft": lambda L, x, y, t: F(L).multilabel_soft_margin_loss(x, (y > 0).float()),
    "cos_emb": lambda L, x, y, t: F(L).cosine_embedding_loss(x, y, L.tensor([1.0, -1, 1, -1])),
    "triplet": lambda L, x, y, t: F(L).triplet_margin_loss(x, y, x.flip(0), swap=True),
    "poisson_nll": lambda L, x, y, t: F(L).poisson_nll_loss(x, y.abs()),
    "gauss_nll": lambda L, x, y, t: F(L).gaussian_nll_loss(x, y, L.tensor(P)),
    "l1_mean": lambda L, x, y, t: F(L).l1_loss(x, y),
    "cos_sim": lambda L, x, y, t: F(L).cosine_similarity(x, y),
    "pdist": lambda L, x, y, t: F(L).pairwise_distance(x, y, p=3, eps=1e-4),
    "pdist_fn": lambda L, x, y, t: F(L).pdist(x),
    "normalize": lambda L, x, y, t: F(L).normalize(x, p=2, dim=1),
    "normalize1": lambda L, x, y, t: F(L).normalize(x, p=1, dim=0),
    "softmin": lambda L, x, y, t: F(L).softmin(x, 1),
    "gumbel": None,
    "elu_a": lambda L, x, y, t: F(L).elu(x, alpha=0.7),
    "lrelu": lambda L, x, y, t: F(L).leaky_relu(x, 0.2),
    "rrelu_eval": lambda L, x, y, t: F(L).rrelu(x),
    "prelu": lambda L, x, y, t: F(L).prelu(x, L.tensor([0.25])),
    "softplus_b": lambda L, x, y, t: F(L).softplus(x, beta=2, threshold=1),
    "celu": lambda L, x, y, t: F(L).celu(x, 0.5),
    "hardtanh": lambda L, x, y, t: F(L).hardtanh(x, -0.5, 0.5),
    "softshrink": lambda L, x, y, t: F(L).softshrink(x, 0.3),
    "tanhshrink": lambda L, x, y, t: F(L).tanhshrink(x),
    "softsign": lambda L, x, y, t: F(L).softsign(x),
    "logsigmoid": lambda L, x, y, t: F(L).logsigmoid(x),
    "glu": lambda L, x, y, t: F(L).glu(x[:, :4]),
    "threshold": lambda L, x, y, t: F(L).threshold(x, 0.1, -1.0),
    "mish": lambda L, x, y, t: F(L).mish(x),
    "silu": lambda L, x, y, t: F(L).silu(x),
    "hardswish": lambda L, x, y, t: F(L).hardswish(x),
    "selu": lambda L, x, y, t: F(L).selu(x),
    "gelu_tanh": lambda L, x, y, t: F(L).gelu(x, approximate="tanh"),
    "maxpool_ceil": lambda L, x, y, t: F(L).max_pool2d(L.tensor(IMG), 3, 2, 1, ceil_mode=True),
    "maxpool_dil": lambda L, x, y, t: F(L).max_pool2d(L.tensor(IMG), 2, 1, 0, 2),
    "avgpool_pad": lambda L, x, y, t: F(L).avg_pool2d(
        L.tensor(IMG), 3, 2, 1, count_include_pad=False
    ),
    "avgpool_ceil": lambda L, x, y, t: F(L).avg_pool2d(L.tensor(IMG), 2, ceil_mode=True),
    "avgpool_div": lambda L, x, y, t: F(L).avg_pool2d(L.tensor(IMG), 3, divisor_override=2),
    "adapt_avg": lambda L, x, y, t: F(L).adaptive_avg_pool2d(L.tensor(IMG), (3, 4)),
    "adapt_max": lambda L, x, y, t: F(L).adaptive_max_pool2d(L.tensor(IMG), 3),
    "lppool": lambda L, x, y, t: F(L).lp_pool2d(L.tensor(IMG).abs(), 2, 2),
    "maxpool1d": lambda L, x, y, t: F(L).max_pool1d(L.tensor(SEQ), 3, 2),
    "avgpool1d": lambda L, x, y, t: F(L).avg_pool1d(L.tensor(SEQ), 3, 2, 1),
    "interp_bilinear_ac": lambda L, x, y, t: F(L).interpolate(
        L.tensor(IMG), size=(10, 5), mode="bilinear", align_corners=True
    ),
    "interp_bicubic": lambda L, x, y, t: F(L).interpolate(
        L.tensor(IMG), scale_factor=1.5, mode="bicubic"
    ),
    "interp_nearest_exact": lambda L, x, y, t: F(L).interpolate(
        L.tensor(IMG), scale_factor=1.7, mode="nearest-exact"
    ),
    "interp_area": lambda L, x, y, t: F(L).interpolate(L.tensor(IMG), size=(3, 3), mode="area"),
    "interp_linear": lambda L, x, y, t: F(L).interpolate(
        L.tensor(SEQ), scale_factor=2.5, mode="linear"
    ),
    "pad_reflect": lambda L, x, y, t: F(L).pad(L.tensor(IMG), (1, 2, 2, 1), mode="reflect"),
    "pad_circ": lambda L, x, y, t: F(L).pad(L.tensor(IMG), (1, 2, 2, 1), mode="circular"),
    "pad_val": lambda L, x, y, t: F(L).pad(x, (1, 1), value=2.5),
    "unfold": lambda L, x, y, t: F(L).unfold(L.tensor(IMG), 3, dilation=2, padding=1, stride=2),
    "fold": lambda L, x, y, t: F(L).fold(F(L).unfold(L.tensor(IMG), 2), (7, 7), 2),
    "pixel_shuffle": lambda L, x, y, t: F(L).pixel_unshuffle(L.tensor(IMG)[:, :, :6, :6], 2),
    "layer_norm_w": lambda L, x, y, t: F(L).layer_norm(x, (5,), L.tensor(W5), L.tensor(W5) - 1),
    "group_norm": lambda L, x, y, t: F(L).group_norm(L.tensor(IMG), 3),
    "instance_norm": lambda L, x, y, t: F(L).instance_norm(L.tensor(IMG)),
    "batch_norm_t": lambda L, x, y, t: F(L).batch_norm(
        L.tensor(IMG), L.zeros(3), L.ones(3), training=True, momentum=0.3
    ),
    "local_resp": lambda L, x, y, t: F(L).local_response_norm(L.tensor(IMG), 2),
    "rms_norm": lambda L, x, y, t: F(L).rms_norm(x, (5,)),
    "embedding_maxnorm": lambda L, x, y, t: F(L).embedding(
        L.tensor([0, 2, 2]), L.tensor(X).clone(), max_norm=1.0
    ),
    "embedding_bag": lambda L, x, y, t: F(L).embedding_bag(
        L.tensor([0, 2, 1, 3]), L.tensor(X), L.tensor([0, 2]), mode="mean"
    ),
    "one_hot": lambda L, x, y, t: F(L).one_hot(t, 6),
    "dropout_eval": lambda L, x, y, t: F(L).dropout(x, 0.3, training=False),
    "affine_grid": lambda L, x, y, t: F(L).affine_grid(
        L.tensor([[[1.0, 0.2, 0.1], [0.1, 0.9, -0.2]]]), (1, 1, 4, 5), align_corners=False
    ),
    "grid_sample": lambda L, x, y, t: F(L).grid_sample(
        L.tensor(IMG)[:1],
        F(L).affine_grid(
            L.tensor([[[1.0, 0.2, 0.1], [0.1, 0.9, -0.2]]]), (1, 3, 4, 5), align_corners=False
        ),
        align_corners=False,
    ),
    "conv_tr": lambda L, x, y, t: F(L).conv_transpose1d(
        L.tensor(SEQ), L.ones(3, 2, 3) * 0.1, stride=2, output_padding=1
    ),
    "ctc": lambda L, x, y, t: F(L).ctc_loss(
        L.tensor(SEQ).permute(2, 0, 1).log_softmax(2),
        L.tensor([[1, 2], [2, 2]]),
        L.tensor([9, 9]),
        L.tensor([2, 2]),
    ),
    "sdpa": lambda L, x, y, t: F(L).scaled_dot_product_attention(x[None], y[None], x[None]),
    "mha_fn": None,
    "logsoftmax_dim0": lambda L, x, y, t: F(L).log_softmax(x, 0),
    "softmax_dtype": lambda L, x, y, t: F(L).softmax(x, 1, dtype=L.float64),
}

# not torch's bits: scaled_dot_product_attention (torch's flash kernel and BLAS)
KNOWN = {"sdpa": "forward"}


def _run(lib, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = lib.tensor(X, requires_grad=True)
        out = fn(lib, x, lib.tensor(Y), lib.tensor(T))
        outs = out if isinstance(out, tuple) else (out,)
        values = [(tuple(o.shape), str(o.dtype)[6:], o.detach().numpy().tobytes()) for o in outs]
        o = outs[0]
        if o.requires_grad:
            weights = lib.arange(o.numel()).reshape(o.shape).float().cos()
            (o.float() * weights).sum().backward()
            return values, x.grad.numpy().tobytes()
        return values, None


@pytest.mark.parametrize("name", sorted(n for n, f in CASES.items() if f is not None))
def test_functional_bits_as_torch(name):
    (got, got_grad), (want, want_grad) = _run(ember, CASES[name]), _run(torch, CASES[name])
    if KNOWN.get(name) != "forward":
        assert got == want
    if KNOWN.get(name) is None:
        assert got_grad == want_grad


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pdist_bits_as_torch(p, dtype):
    """``pdist``: ATen's ``map2_reduce_all`` over each pair (AVX2 lanes), and its backward
    kernel, which adds each pair's term to one row and takes it from the other, in order."""
    rng = np.random.default_rng(len(dtype))
    for n, m in [(1, 3), (2, 1), (5, 9), (7, 20), (4, 33)]:
        x = rng.standard_normal((n, m)).astype(dtype)
        if n > 2:
            x[2] = x[0]             # a zero distance
        results = []
        for lib in (ember, torch):
            t = lib.tensor(x, requires_grad=True)
            out = lib.nn.functional.pdist(t, p=p)
            out.backward(lib.tensor(np.cos(np.arange(out.numel())).astype(dtype)))
            results.append((out.detach().numpy().tobytes(), t.grad.numpy().tobytes()))
        assert results[0] == results[1], (n, m)
