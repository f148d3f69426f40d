"""Every layer against torch 2.13: same weights, same input; outputs, input and parameter
gradients (float32 tolerance), buffers and the output's ``grad_fn`` name."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402

import ember.nn as enn  # noqa: E402

from ._parity import check_module  # noqa: E402

G = torch.Generator().manual_seed(1234)


def rnd(*shape):
    return torch.randn(*shape, generator=G)


LAYERS = [
    # (id, class name, args, kwargs, input shapes)
    ("linear", "Linear", (5, 3), {}, [(4, 5)]),
    ("linear_3d", "Linear", (5, 3), {}, [(2, 4, 5)]),
    ("linear_nobias", "Linear", (5, 3), {"bias": False}, [(4, 5)]),
    ("linear_nobias_3d", "Linear", (5, 3), {"bias": False}, [(2, 4, 5)]),
    ("bilinear", "Bilinear", (3, 4, 2), {}, [(5, 3), (5, 4)]),
    ("identity", "Identity", (), {}, [(3, 4)]),
    ("relu", "ReLU", (), {}, [(4, 5)]),
    ("leaky_relu", "LeakyReLU", (0.2,), {}, [(4, 5)]),
    ("elu", "ELU", (0.7,), {}, [(4, 5)]),
    ("selu", "SELU", (), {}, [(4, 5)]),
    ("celu", "CELU", (1.5,), {}, [(4, 5)]),
    ("gelu", "GELU", (), {}, [(4, 5)]),
    ("gelu_tanh", "GELU", ("tanh",), {}, [(4, 5)]),
    ("silu", "SiLU", (), {}, [(4, 5)]),
    ("mish", "Mish", (), {}, [(4, 5)]),
    ("tanh", "Tanh", (), {}, [(4, 5)]),
    ("sigmoid", "Sigmoid", (), {}, [(4, 5)]),
    ("softplus", "Softplus", (2.0, 1.0), {}, [(4, 5)]),
    ("hardtanh", "Hardtanh", (-0.5, 0.7), {}, [(4, 5)]),
    ("relu6", "ReLU6", (), {}, [(4, 5)]),
    ("hardsigmoid", "Hardsigmoid", (), {}, [(4, 5)]),
    ("hardswish", "Hardswish", (), {}, [(4, 5)]),
    ("logsigmoid", "LogSigmoid", (), {}, [(4, 5)]),
    ("softsign", "Softsign", (), {}, [(4, 5)]),
    ("threshold", "Threshold", (0.1, 20.0), {}, [(4, 5)]),
    ("glu", "GLU", (1,), {}, [(4, 6)]),
    ("prelu", "PReLU", (), {}, [(2, 3, 4)]),
    ("prelu_channels", "PReLU", (3,), {}, [(2, 3, 4)]),
    ("softmax", "Softmax", (1,), {}, [(4, 5)]),
    ("softmin", "Softmin", (0,), {}, [(4, 5)]),
    ("log_softmax", "LogSoftmax", (-1,), {}, [(2, 4, 5)]),
    ("flatten", "Flatten", (), {}, [(2, 3, 4)]),
    ("unflatten", "Unflatten", (1, (2, 3)), {}, [(4, 6)]),
    ("conv2d", "Conv2d", (3, 4, 3), {}, [(2, 3, 7, 6)]),
    ("conv2d_stride_pad", "Conv2d", (3, 4, (3, 2)), {"stride": 2, "padding": 1},
     [(2, 3, 9, 8)]),
    ("conv2d_dilation", "Conv2d", (3, 2, 3), {"dilation": 2, "padding": 2}, [(1, 3, 9, 9)]),
    ("conv2d_groups", "Conv2d", (4, 6, 3), {"groups": 2, "bias": False}, [(2, 4, 6, 6)]),
    ("conv2d_depthwise", "Conv2d", (3, 3, 3), {"groups": 3}, [(2, 3, 5, 5)]),
    ("conv2d_same_even", "Conv2d", (2, 3, 4), {"padding": "same"}, [(2, 2, 6, 7)]),
    ("conv2d_valid", "Conv2d", (2, 3, 2), {"padding": "valid"}, [(2, 2, 5, 5)]),
    ("conv2d_reflect", "Conv2d", (2, 3, 3), {"padding": 1, "padding_mode": "reflect"},
     [(2, 2, 5, 5)]),
    ("conv2d_replicate", "Conv2d", (2, 3, 3), {"padding": 2, "padding_mode": "replicate"},
     [(1, 2, 5, 5)]),
    ("conv2d_circular", "Conv2d", (2, 3, 3), {"padding": 1, "padding_mode": "circular"},
     [(1, 2, 5, 5)]),
    ("conv2d_unbatched", "Conv2d", (2, 3, 3), {}, [(2, 5, 5)]),
    ("conv1d", "Conv1d", (3, 4, 5), {"stride": 2, "padding": 2}, [(2, 3, 11)]),
    ("conv1d_dil_groups", "Conv1d", (4, 4, 3), {"dilation": 2, "groups": 2}, [(2, 4, 9)]),
    ("conv_transpose2d", "ConvTranspose2d", (4, 6, 3),
     {"stride": 2, "padding": 1, "output_padding": 1}, [(2, 4, 4, 5)]),
    ("conv_transpose2d_groups", "ConvTranspose2d", (4, 6, 3), {"groups": 2, "dilation": 2},
     [(1, 4, 3, 3)]),
    ("conv_transpose1d", "ConvTranspose1d", (3, 2, 4), {"stride": 3}, [(2, 3, 5)]),
    ("maxpool2d", "MaxPool2d", (2,), {}, [(2, 3, 6, 6)]),
    ("maxpool2d_ceil", "MaxPool2d", (3,), {"stride": 2, "padding": 1, "ceil_mode": True},
     [(2, 3, 8, 7)]),
    ("maxpool2d_dilation", "MaxPool2d", (2,), {"stride": 1, "dilation": 2}, [(1, 2, 6, 6)]),
    ("maxpool2d_overlap", "MaxPool2d", (3,), {"stride": 1}, [(1, 2, 5, 5)]),
    ("maxpool1d", "MaxPool1d", (3, 2), {"padding": 1}, [(2, 3, 10)]),
    ("avgpool2d", "AvgPool2d", (2,), {}, [(2, 3, 6, 6)]),
    ("avgpool2d_pad", "AvgPool2d", (3, 2, 1), {}, [(2, 3, 7, 6)]),
    ("avgpool2d_nopad_ceil", "AvgPool2d", (3, 2, 1),
     {"count_include_pad": False, "ceil_mode": True}, [(2, 3, 8, 7)]),
    ("avgpool2d_divisor", "AvgPool2d", (2,), {"divisor_override": 3}, [(1, 2, 4, 4)]),
    ("avgpool1d", "AvgPool1d", (3, 2, 1), {}, [(2, 3, 9)]),
    ("adaptive_avg", "AdaptiveAvgPool2d", ((2, 3),), {}, [(2, 3, 6, 6)]),
    ("adaptive_avg_uneven", "AdaptiveAvgPool2d", ((3, 5),), {}, [(2, 2, 7, 7)]),
    ("adaptive_avg_1", "AdaptiveAvgPool2d", (1,), {}, [(2, 3, 5, 5)]),
    ("adaptive_avg1d", "AdaptiveAvgPool1d", (3,), {}, [(2, 3, 7)]),
    ("adaptive_avg3d", "AdaptiveAvgPool3d", ((2, 3, 1),), {}, [(2, 2, 5, 6, 4)]),
    ("adaptive_avg3d_int", "AdaptiveAvgPool3d", (2,), {}, [(3, 4, 4, 5)]),
    ("adaptive_max", "AdaptiveMaxPool2d", ((3, 2),), {}, [(2, 3, 7, 5)]),
    ("adaptive_max1d", "AdaptiveMaxPool1d", (4,), {}, [(2, 3, 9)]),
    ("batchnorm1d", "BatchNorm1d", (5,), {}, [(8, 5)]),
    ("batchnorm1d_3d", "BatchNorm1d", (5,), {"momentum": 0.3}, [(4, 5, 3)]),
    ("batchnorm2d", "BatchNorm2d", (3,), {}, [(4, 3, 5, 5)]),
    ("batchnorm2d_noaffine", "BatchNorm2d", (3,), {"affine": False}, [(4, 3, 2, 2)]),
    ("batchnorm2d_cma", "BatchNorm2d", (3,), {"momentum": None}, [(4, 3, 2, 2)]),
    ("batchnorm2d_nostats", "BatchNorm2d", (3,), {"track_running_stats": False},
     [(4, 3, 2, 2)]),
    ("layernorm", "LayerNorm", (6,), {}, [(4, 6)]),
    ("layernorm_2d", "LayerNorm", ((4, 6),), {"eps": 1e-3}, [(3, 4, 6)]),
    ("layernorm_noaffine", "LayerNorm", (6,), {"elementwise_affine": False}, [(4, 6)]),
    ("groupnorm", "GroupNorm", (2, 4), {}, [(3, 4, 5, 5)]),
    ("groupnorm_1", "GroupNorm", (1, 3), {}, [(3, 3, 4)]),
    ("dropout_eval", "Dropout", (0.5,), {}, [(4, 5)]),
    ("dropout2d_eval", "Dropout2d", (0.5,), {}, [(2, 3, 4, 4)]),
]


def _randomise(tm):
    """Give affine parameters and running stats non-trivial values."""
    with torch.no_grad():
        for n, p in tm.named_parameters():
            if n in ("weight", "bias") and p.ndim == 1 and not isinstance(tm, tnn.PReLU):
                p.copy_(torch.rand(p.shape, generator=G) + 0.5)
        for n, b in tm.named_buffers():
            if n == "running_mean":
                b.copy_(torch.randn(b.shape, generator=G))
            elif n == "running_var":
                b.copy_(torch.rand(b.shape, generator=G) + 0.5)


@pytest.mark.parametrize("case", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer(case):
    cid, cls, args, kwargs, shapes = case
    tm = getattr(tnn, cls)(*args, **kwargs)
    em = getattr(enn, cls)(*args, **kwargs)
    assert repr(em) == repr(tm)
    _randomise(tm)
    if cid.endswith("_eval"):
        tm.eval()
        em.eval()
    check_module(tm, em, *[rnd(*s) for s in shapes])


@pytest.mark.parametrize("cls", ["BatchNorm1d", "BatchNorm2d"])
def test_batchnorm_eval_and_running_stats(cls):
    tm = getattr(tnn, cls)(3)
    em = getattr(enn, cls)(3)
    shape = (6, 3) if cls == "BatchNorm1d" else (4, 3, 3, 3)
    from ._parity import close, copy_params, to_ember
    copy_params(tm, em)
    for _ in range(3):       # training steps update the running stats identically
        x = rnd(*shape)
        tm(x)
        em(to_ember(x))
    for (n, tb), (_, eb) in zip(tm.named_buffers(), em.named_buffers()):
        close(eb, tb, n)
    tm.eval()
    em.eval()
    _randomise(tm)
    check_module(tm, em, rnd(*shape))


def test_embedding():
    tm = tnn.Embedding(10, 4, padding_idx=0)
    em = enn.Embedding(10, 4, padding_idx=0)
    assert repr(em) == repr(tm) == "Embedding(10, 4, padding_idx=0)"
    idx = torch.tensor([[0, 2, 2], [9, 0, 5]])
    check_module(tm, em, idx)


@pytest.mark.parametrize("cls,kw", [("RNN", {}), ("RNN", {"nonlinearity": "relu"}),
                                    ("LSTM", {}), ("GRU", {}),
                                    ("LSTM", {"num_layers": 2, "bidirectional": True}),
                                    ("GRU", {"batch_first": True, "bias": False})])
def test_recurrent(cls, kw):
    tm = getattr(tnn, cls)(3, 4, **kw)
    em = getattr(enn, cls)(3, 4, **kw)
    assert repr(em) == repr(tm)
    shape = (2, 5, 3) if kw.get("batch_first") else (5, 2, 3)
    check_module(tm, em, rnd(*shape), grad_fn=False, atol=1e-5)


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}])
def test_multihead_attention(kw):
    tm = tnn.MultiheadAttention(8, 2, **kw)
    em = enn.MultiheadAttention(8, 2, **kw)
    assert repr(em) == repr(tm)
    q, k = (rnd(3, 5, 8), rnd(3, 4, 8)) if kw else (rnd(5, 3, 8), rnd(4, 3, 8))
    mask = torch.tensor([[False, False, True, False]] * 3)
    from ._parity import check_fn, copy_params, to_ember
    copy_params(tm, em)
    check_fn(lambda a, b: tm(a, b, b, key_padding_mask=mask),
             lambda a, b: em(a, b, b, key_padding_mask=to_ember(mask)), q, k, grad_fn=False)


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer(norm_first):
    tm = tnn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
    em = enn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
    assert repr(em) == repr(tm)
    tm.train()
    check_module(tm, em, rnd(5, 3, 8), grad_fn=False, atol=1e-5)
