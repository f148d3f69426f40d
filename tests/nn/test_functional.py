"""Losses and functional ops against torch 2.13: values, gradients, grad_fn names; and
float64 numerical gradchecks (ember's own gradcheck) for conv, pooling and the losses."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.functional as TF  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.functional as EF  # noqa: E402

from ._parity import check_fn, check_module, to_ember  # noqa: E402

G = torch.Generator().manual_seed(99)


def rnd(*s):
    return torch.randn(*s, generator=G)


X = rnd(6, 5)
T = torch.tensor([1, 0, 4, 2, 2, 3])
T_IGN = torch.tensor([1, -100, 4, 2, -100, 3])
W = torch.rand(5, generator=G) + 0.2
P = torch.softmax(rnd(6, 5), 1)
X4 = rnd(2, 4, 3, 3)
T4 = torch.randint(0, 4, (2, 3, 3), generator=G)

LOSSES = [
    ("ce", "CrossEntropyLoss", {}, (X, T)),
    ("ce_sum", "CrossEntropyLoss", {"reduction": "sum"}, (X, T)),
    ("ce_none", "CrossEntropyLoss", {"reduction": "none"}, (X, T)),
    ("ce_weight", "CrossEntropyLoss", {"weight": W}, (X, T)),
    ("ce_ignore", "CrossEntropyLoss", {"ignore_index": -100}, (X, T_IGN)),
    ("ce_ignore_weight", "CrossEntropyLoss", {"weight": W}, (X, T_IGN)),
    ("ce_smooth", "CrossEntropyLoss", {"label_smoothing": 0.1}, (X, T)),
    ("ce_smooth_weight_ignore", "CrossEntropyLoss", {"label_smoothing": 0.2, "weight": W},
     (X, T_IGN)),
    ("ce_smooth_none", "CrossEntropyLoss", {"label_smoothing": 0.3, "reduction": "none"},
     (X, T_IGN)),
    ("ce_probs", "CrossEntropyLoss", {}, (X, P)),
    ("ce_probs_smooth_weight", "CrossEntropyLoss", {"label_smoothing": 0.1, "weight": W},
     (X, P)),
    ("ce_probs_none", "CrossEntropyLoss", {"reduction": "none"}, (X, P)),
    ("ce_4d", "CrossEntropyLoss", {}, (X4, T4)),
    ("ce_unbatched", "CrossEntropyLoss", {}, (X[0], T[0])),
    ("nll", "NLLLoss", {}, (torch.log_softmax(X, 1), T)),
    ("nll_weight_sum", "NLLLoss", {"weight": W, "reduction": "sum"},
     (torch.log_softmax(X, 1), T)),
    ("nll_none", "NLLLoss", {"reduction": "none"}, (X, T_IGN)),
    ("mse", "MSELoss", {}, (X, rnd(6, 5))),
    ("mse_sum", "MSELoss", {"reduction": "sum"}, (X, rnd(6, 5))),
    ("mse_none", "MSELoss", {"reduction": "none"}, (X, rnd(6, 5))),
    ("l1", "L1Loss", {}, (X, rnd(6, 5))),
    ("l1_none", "L1Loss", {"reduction": "none"}, (X, rnd(6, 5))),
    ("smooth_l1", "SmoothL1Loss", {"beta": 0.5}, (X, rnd(6, 5))),
    ("smooth_l1_beta0", "SmoothL1Loss", {"beta": 0.0, "reduction": "sum"}, (X, rnd(6, 5))),
    ("huber", "HuberLoss", {"delta": 0.7}, (X, rnd(6, 5))),
    ("bce", "BCELoss", {}, (torch.sigmoid(X), torch.rand(6, 5, generator=G))),
    ("bce_weight", "BCELoss", {"weight": W, "reduction": "sum"},
     (torch.sigmoid(X), torch.rand(6, 5, generator=G))),
    ("bce_logits", "BCEWithLogitsLoss", {}, (X * 3, torch.rand(6, 5, generator=G))),
    ("bce_logits_pos_weight", "BCEWithLogitsLoss", {"pos_weight": W, "weight": W},
     (X * 3, torch.rand(6, 5, generator=G))),
    ("kl_batchmean", "KLDivLoss", {"reduction": "batchmean"},
     (torch.log_softmax(X, 1), P)),
    ("kl_log_target_sum", "KLDivLoss", {"reduction": "sum", "log_target": True},
     (torch.log_softmax(X, 1), torch.log(P))),
]


@pytest.mark.parametrize("case", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss(case):
    _, cls, kw, inputs = case
    ekw = {k: to_ember(v) if isinstance(v, torch.Tensor) else v for k, v in kw.items()}
    tm = getattr(tnn, cls)(**kw)
    em = getattr(enn, cls)(**ekw)
    assert repr(em) == repr(tm)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_module(tm, em, *inputs)


FUNCS = [
    ("pad_constant", lambda F, x: F.pad(x, (1, 2, 0, 1), value=0.5), [(2, 3, 4)]),
    ("pad_negative", lambda F, x: F.pad(x, (-1, 2)), [(2, 3, 4)]),
    ("pad_reflect", lambda F, x: F.pad(x, (2, 1, 1, 2), mode="reflect"), [(1, 2, 4, 5)]),
    ("pad_replicate", lambda F, x: F.pad(x, (2, 3), mode="replicate"), [(2, 3, 4)]),
    ("pad_circular", lambda F, x: F.pad(x, (1, 2, 2, 1), mode="circular"), [(1, 2, 4, 5)],
     False),  # torch builds circular padding from slices (CopySlices)
    ("normalize", lambda F, x: F.normalize(x, dim=1), [(4, 5)]),
    ("normalize_p1", lambda F, x: F.normalize(x, p=1.0, dim=0), [(4, 5)]),
    ("cosine_similarity", lambda F, a, b: F.cosine_similarity(a, b), [(4, 5), (4, 5)]),
    ("softmax_dtype", lambda F, x: F.softmax(x, 1, dtype=x.dtype), [(4, 5)]),
    ("linear_1d", lambda F, x, w, b: F.linear(x, w, b), [(5,), (3, 5), (3,)]),
    ("conv2d_fn_stride", lambda F, x, w: F.conv2d(x, w, stride=(2, 1), padding=(0, 2)),
     [(2, 3, 7, 7), (4, 3, 3, 2)]),
    ("max_pool2d_indices", lambda F, x: F.max_pool2d(x, 2, return_indices=True)[1] * 1.0,
     [(1, 2, 4, 6)]),
    ("adaptive_max_indices", lambda F, x: F.adaptive_max_pool2d(x, 3, True)[1] * 1.0,
     [(1, 2, 7, 5)]),
    ("layer_norm_fn", lambda F, x, w, b: F.layer_norm(x, (5,), w, b), [(3, 5), (5,), (5,)]),
    ("group_norm_fn", lambda F, x: F.group_norm(x, 2), [(2, 4, 3)]),
]


@pytest.mark.parametrize("case", FUNCS, ids=[c[0] for c in FUNCS])
def test_functional(case):
    fn, shapes = case[1], case[2]
    inputs = [rnd(*s) for s in shapes]
    check_fn(lambda *a: fn(TF, *a), lambda *a: fn(EF, *a), *inputs,
             grad_fn=case[3] if len(case) > 3 else True)


def test_one_hot():
    t = torch.tensor([0, 3, 1])
    assert np.array_equal(EF.one_hot(ember.tensor([0, 3, 1]), 5).numpy(),
                          TF.one_hot(t, 5).numpy())
    assert EF.one_hot(ember.tensor([0, 3, 1])).shape == (3, 4)


def test_dropout_train_is_mask_times_scale():
    ember.manual_seed(0)
    x = ember.ones(1000, requires_grad=True)
    y = EF.dropout(x, 0.25)
    assert y.grad_fn.name() == "MulBackward0"
    vals = set(np.unique(y.detach().numpy()).tolist())
    assert vals <= {0.0, np.float32(1 / 0.75)}
    y.sum().backward()
    assert np.array_equal(x.grad.numpy(), y.detach().numpy())
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        EF.dropout(x, 1.5)
    assert EF.dropout(x, 0.5, training=False) is x


def test_errors_match_torch():
    x = ember.randn(2, 3, 5, 5)
    w = ember.randn(4, 2, 3, 3)
    with pytest.raises(RuntimeError) as e:
        EF.conv2d(x, w)
    with pytest.raises(RuntimeError) as t:
        TF.conv2d(torch.randn(2, 3, 5, 5), torch.randn(4, 2, 3, 3))
    assert str(e.value) == str(t.value)
    with pytest.raises(IndexError, match="Target 7 is out of bounds."):
        EF.cross_entropy(ember.randn(2, 5), ember.tensor([1, 7]))
    with pytest.raises(ValueError, match="expected 4D input"):
        enn.BatchNorm2d(3)(ember.randn(2, 3))


# ----------------------------------------------------------------------------- gradcheck

def _gc(fn, *shapes, int_inputs=()):
    gen = np.random.default_rng(0)
    inputs = [ember.tensor(gen.standard_normal(s), dtype=ember.float64, requires_grad=True)
              for s in shapes]
    assert ember.autograd.gradcheck(lambda *a: fn(*a, *int_inputs), tuple(inputs),
                                    eps=1e-6, atol=1e-5, rtol=1e-3)


GRADCHECKS = [
    ("conv2d", lambda x, w, b: EF.conv2d(x, w, b, stride=2, padding=1, dilation=1),
     [(1, 2, 5, 5), (3, 2, 3, 3), (3,)]),
    ("conv2d_groups_dil", lambda x, w: EF.conv2d(x, w, groups=2, dilation=2),
     [(1, 4, 6, 6), (2, 2, 2, 2)]),
    ("conv1d", lambda x, w: EF.conv1d(x, w, padding=1), [(2, 2, 6), (3, 2, 3)]),
    ("conv_transpose2d", lambda x, w, b: EF.conv_transpose2d(x, w, b, stride=2,
                                                             output_padding=1),
     [(1, 2, 3, 3), (2, 3, 3, 3), (3,)]),
    ("max_pool2d", lambda x: EF.max_pool2d(x, 3, 2, 1), [(1, 2, 6, 6)]),
    ("avg_pool2d", lambda x: EF.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                           count_include_pad=False), [(1, 2, 6, 7)]),
    ("adaptive_avg_pool2d", lambda x: EF.adaptive_avg_pool2d(x, (3, 2)), [(1, 2, 7, 5)]),
    ("adaptive_max_pool2d", lambda x: EF.adaptive_max_pool2d(x, (3, 2)), [(1, 2, 7, 5)]),
    ("batch_norm", lambda x, w, b: EF.batch_norm(x, None, None, w, b, True),
     [(4, 3, 2), (3,), (3,)]),
    ("layer_norm", lambda x, w, b: EF.layer_norm(x, (4,), w, b), [(3, 4), (4,), (4,)]),
    ("group_norm", lambda x, w, b: EF.group_norm(x, 2, w, b), [(2, 4, 3), (4,), (4,)]),
    ("log_softmax", lambda x: EF.log_softmax(x, 1), [(3, 4)]),
    ("softmax", lambda x: EF.softmax(x, 0), [(3, 4)]),
    ("mse", lambda x, y: EF.mse_loss(x, y), [(3, 4), (3, 4)]),
    ("smooth_l1", lambda x, y: EF.smooth_l1_loss(x, y, beta=0.5), [(3, 4), (3, 4)]),
    ("huber", lambda x, y: EF.huber_loss(x, y, delta=0.5), [(3, 4), (3, 4)]),
    ("bce_logits", lambda x, y: EF.binary_cross_entropy_with_logits(x, y.sigmoid()),
     [(3, 4), (3, 4)]),
    ("bce", lambda x: EF.binary_cross_entropy(x.sigmoid(), ember.full((3, 4), 0.3,
                                                                      dtype=ember.float64)),
     [(3, 4)]),
    ("gelu", lambda x: EF.gelu(x), [(3, 4)]),
    ("elu_selu_silu_mish", lambda x: EF.elu(x) + EF.selu(x) + EF.silu(x) + EF.mish(x),
     [(3, 4)]),
    ("softplus", lambda x: EF.softplus(x, 2.0), [(3, 4)]),
    ("embedding", lambda w: EF.embedding(ember.tensor([[0, 2], [2, 1]]), w), [(3, 4)]),
    ("pad_reflect", lambda x: EF.pad(x, (2, 1), mode="reflect"), [(2, 2, 4)]),
]


@pytest.mark.parametrize("case", GRADCHECKS, ids=[c[0] for c in GRADCHECKS])
def test_gradcheck(case):
    _, fn, shapes = case
    _gc(fn, *shapes)


def test_cross_entropy_gradcheck():
    t = ember.tensor([1, 0, 3])
    _gc(lambda x: EF.cross_entropy(x, t, label_smoothing=0.1), (3, 4))
    _gc(lambda x: EF.nll_loss(x, t, weight=ember.tensor([1.0, 2.0, 0.5, 1.0],
                                                         dtype=ember.float64)), (3, 4))


@pytest.mark.parametrize("which", ["conv2d", "max_pool2d", "avg_pool2d", "log_softmax"])
def test_double_backward(which):
    """create_graph=True through the nn ops: gradgradcheck in float64."""
    fns = {"conv2d": (lambda x, w: EF.conv2d(x, w, padding=1), [(1, 2, 4, 4), (2, 2, 3, 3)]),
           "max_pool2d": (lambda x: EF.max_pool2d(x, 2) ** 2, [(1, 1, 4, 4)]),
           "avg_pool2d": (lambda x: EF.avg_pool2d(x, 2, 1) ** 2, [(1, 1, 4, 4)]),
           "log_softmax": (lambda x: EF.log_softmax(x, 1), [(2, 3)])}
    fn, shapes = fns[which]
    gen = np.random.default_rng(1)
    inputs = tuple(ember.tensor(gen.standard_normal(s), dtype=ember.float64,
                                requires_grad=True) for s in shapes)
    assert ember.autograd.gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
