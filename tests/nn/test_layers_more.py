"""Oracle tests of the remaining ``nn`` layers against torch 2.13: module paths, reprs,
constructor errors, forward values and gradients (the functional forms are tested in
``test_functional_more.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.helpers import arr, check, ember, errors_alike, torch

X4 = arr((2, 4, 6, 6), seed=1)
X5 = arr((2, 2, 5, 6, 4), seed=3)
M = arr((4, 5), seed=4)

# (class name, constructor args, constructor kwargs)
LAYERS = [
    ("Hardshrink", (), {}), ("Softshrink", (0.3,), {}), ("RReLU", (0.1, 0.3), {}),
    ("RReLU", (), {"inplace": True}), ("Softmax2d", (), {}),
    ("AlphaDropout", (0.2,), {}), ("FeatureAlphaDropout", (), {}),
    ("AvgPool3d", (2,), {"stride": 1}), ("AdaptiveMaxPool3d", ((2, 3, 2),), {}),
    ("LPPool1d", (2, 3), {}), ("LPPool2d", (1.5, 2), {"stride": 1}), ("LPPool3d", (2, 2), {}),
    ("MaxUnpool1d", (2,), {}), ("MaxUnpool2d", (3, 2, 1), {}), ("MaxUnpool3d", (2,), {}),
    ("FractionalMaxPool2d", (2,), {"output_size": 3}),
    ("FractionalMaxPool3d", (2,), {"output_ratio": 0.5}),
    ("LocalResponseNorm", (3,), {}), ("CrossMapLRN2d", (3, 1e-3), {}),
    ("ChannelShuffle", (2,), {}), ("CosineSimilarity", (), {"dim": 0}),
    ("PairwiseDistance", (1.0,), {}),
    ("HingeEmbeddingLoss", (0.5,), {}), ("MultiLabelMarginLoss", (), {}),
    ("MultiLabelSoftMarginLoss", (), {}), ("MultiMarginLoss", (2,), {}),
    ("PoissonNLLLoss", (), {"full": True}), ("SoftMarginLoss", (), {"reduction": "sum"}),
    ("TripletMarginLoss", (), {"swap": True}), ("TripletMarginWithDistanceLoss", (), {}),
    ("CTCLoss", (), {"blank": 1}), ("GaussianNLLLoss", (), {"full": True}),
    ("NLLLoss2d", (), {}),
]


@pytest.mark.parametrize("name,args,kwargs", LAYERS)
def test_paths_and_reprs(name, args, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = getattr(torch.nn, name)(*args, **kwargs)
        e = getattr(ember.nn, name)(*args, **kwargs)
    assert type(e).__module__.replace("ember", "torch") == type(t).__module__
    assert repr(e) == repr(t)


def test_adaptive_log_softmax():
    for lib in (torch, ember):
        lib.manual_seed(0)
    mods = [lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0) for lib in
            (torch, ember)]
    assert repr(mods[0]) == repr(mods[1])
    assert type(mods[1]).__module__ == "ember.nn.modules.adaptive"
    x = arr((5, 8), seed=2)
    tgt = np.array([0, 4, 9, 2, 7])
    libs = {torch: mods[0], ember: mods[1]}
    check(lambda lib, t: tuple(libs[lib](t, lib.from_numpy(tgt))), x)
    check(lambda lib, t: libs[lib].log_prob(t), x)
    check(lambda lib, t: libs[lib].predict(t), x, grad=False)
    check(lambda lib, t: tuple(libs[lib](t[0], lib.tensor(3))), x)
    errors_alike(lambda lib: libs[lib](lib.ones(5, 8), lib.tensor([0, 1, 2, 3, 10])))
    errors_alike(lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]))


def _fwd(name, args=(), kwargs=None, seed=0):
    def fn(lib, *inputs):
        lib.manual_seed(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = getattr(lib.nn, name)(*args, **(kwargs or {}))
        return m(*inputs)
    return fn


def test_activation_layers():
    check(_fwd("Hardshrink", (0.4,)), M)
    check(_fwd("Softshrink"), M)
    check(_fwd("RReLU"), M)
    check(_fwd("Softmax2d"), X4)
    errors_alike(lambda lib: lib.nn.Softmax2d()(lib.ones(2, 3)))


def test_dropout_layers():
    check(_fwd("AlphaDropout", (0.3,), seed=2), X4)
    check(_fwd("FeatureAlphaDropout", (0.3,), seed=2), X4)


def test_pool_layers():
    check(_fwd("AvgPool3d", (2, 1, 1)), X5)
    check(_fwd("AdaptiveMaxPool3d", (2,), {"return_indices": True}), X5)
    check(_fwd("LPPool2d", (2, 3, 2)), X4, rtol=1e-4)
    check(_fwd("FractionalMaxPool2d", (2,), {"output_ratio": (0.5, 0.6)}, seed=4), X4)
    check(_fwd("FractionalMaxPool3d", (2,), {"output_size": 2}, seed=4), X5)

    def unpool(lib, x):
        o, i = lib.nn.MaxPool2d(2, return_indices=True)(x)
        return lib.nn.MaxUnpool2d(2)(o, i, output_size=x.shape)
    check(unpool, X4)


def test_pool_layer_errors():
    errors_alike(lambda lib: lib.nn.FractionalMaxPool2d(2))
    errors_alike(lambda lib: lib.nn.FractionalMaxPool2d(2, 3, 0.5))
    errors_alike(lambda lib: lib.nn.FractionalMaxPool2d(2, output_ratio=1.5))
    errors_alike(lambda lib: lib.nn.FractionalMaxPool3d(0, output_size=2))


def test_norm_and_misc_layers():
    check(_fwd("LocalResponseNorm", (3, 1e-2)), X4)
    check(_fwd("CrossMapLRN2d", (3, 1e-2, 0.7, 2.0)), X4)
    check(_fwd("CrossMapLRN2d", (4,)), X4)
    check(_fwd("ChannelShuffle", (2,)), X4)
    y = arr((4, 5), seed=5)
    check(_fwd("CosineSimilarity", (0,)), M, y)
    check(_fwd("PairwiseDistance", (3.0,), {"keepdim": True}), M, y)


def test_loss_layers():
    y, z = arr((4, 5), seed=5), arr((4, 5), seed=6)
    signs = np.sign(y)
    check(lambda lib, x: _fwd("HingeEmbeddingLoss")(lib, x, lib.from_numpy(signs)), M)
    check(lambda lib, x: _fwd("SoftMarginLoss")(lib, x, lib.from_numpy(signs)), M)
    check(lambda lib, x: _fwd("MultiLabelSoftMarginLoss")(
        lib, x, lib.from_numpy((signs > 0).astype(np.float32))), M)
    check(lambda lib, x: _fwd("MultiMarginLoss", (2, 0.5))(lib, x, lib.tensor([0, 1, 4, 2])), M)
    check(lambda lib, x: _fwd("MultiLabelMarginLoss")(
        lib, x, lib.tensor([[1, 2, -1, 0, 0]] * 4)), M)
    check(lambda lib, x: _fwd("PoissonNLLLoss", (False, True))(lib, x.abs(),
                                                                lib.from_numpy(np.abs(y))), M)
    check(_fwd("TripletMarginLoss", (0.5,)), M, y, z)
    check(_fwd("TripletMarginWithDistanceLoss", (), {"swap": True}), M, y, z)
    check(_fwd("GaussianNLLLoss"), M, y, np.abs(z) + 0.1)
    check(lambda lib, x: _fwd("NLLLoss2d")(lib, x.log_softmax(1), lib.tensor([0, 1, 4, 2])), M)
    lp = np.log(np.full((6, 2, 4), 0.25, np.float32))
    check(lambda lib, x: _fwd("CTCLoss", (), {"reduction": "sum"})(
        lib, x, lib.tensor([[1, 2], [3, 3]]), lib.tensor([6, 5]), lib.tensor([2, 2])), lp)


def test_loss_layer_errors():
    errors_alike(lambda lib: lib.nn.MultiMarginLoss(3))
    errors_alike(lambda lib: lib.nn.MultiMarginLoss(weight=lib.ones(2, 2)))
    errors_alike(lambda lib: lib.nn.TripletMarginLoss(margin=0))
    errors_alike(lambda lib: lib.nn.TripletMarginWithDistanceLoss(margin=-1))


def test_deprecations():
    for name, kwargs in (("NLLLoss2d", {}), ("Container", {"a": "Linear"})):
        got = []
        for lib in (torch, ember):
            kw = {k: getattr(lib.nn, v)(2, 2) for k, v in kwargs.items()}
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                m = getattr(lib.nn, name)(**kw)
            got.append([(x.category.__name__, str(x.message)) for x in w])
            if name == "Container":
                assert list(dict(m.named_children())) == ["a"]
        assert got[0] == got[1]
