"""Padding layers, PixelShuffle/PixelUnshuffle, ``F.relu_`` and the deprecated ``nn.init``
aliases against torch 2.13: reprs, outputs, gradients, grad_fn names, errors, warnings."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.functional as tF  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.functional as eF  # noqa: E402

from ._parity import check_module, close, to_ember  # noqa: E402

LAYERS = [
    ("ZeroPad1d", (2,), (2, 3, 5)), ("ZeroPad2d", ((1, 2, 0, 3),), (2, 3, 4, 5)),
    ("ZeroPad2d", (1,), (3, 4, 5)), ("ZeroPad3d", (1,), (1, 2, 3, 3, 3)),
    ("ConstantPad1d", ((1, 0), 2.5), (3, 4)), ("ConstantPad2d", (2, -1.0), (1, 2, 3, 3)),
    ("ConstantPad3d", ((1, 0, 0, 1, 2, 0), 0.5), (1, 2, 2, 2, 2)),
    ("ReflectionPad1d", (2,), (2, 3, 5)), ("ReflectionPad2d", ((1, 2, 2, 1),), (2, 3, 4, 5)),
    ("ReflectionPad3d", (1,), (1, 2, 3, 3, 3)), ("ReplicationPad1d", ((3, 1),), (2, 3, 5)),
    ("ReplicationPad2d", (2,), (3, 4, 5)), ("ReplicationPad3d", (1,), (1, 2, 3, 3, 3)),
    ("CircularPad1d", (2,), (2, 3, 5)), ("CircularPad2d", ((1, 2, 0, 1),), (2, 3, 4, 5)),
    ("CircularPad3d", (1,), (1, 2, 3, 3, 3)),
    ("PixelShuffle", (2,), (2, 8, 3, 3)), ("PixelShuffle", (3,), (2, 1, 9, 2, 2)),
    ("PixelUnshuffle", (2,), (2, 2, 4, 6)), ("PixelUnshuffle", (1,), (3, 2, 2)),
]


@pytest.mark.parametrize("name,args,shape", LAYERS, ids=[f"{c[0]}-{i}" for i, c in
                                                          enumerate(LAYERS)])
def test_layer(name, args, shape):
    tm, em = getattr(tnn, name)(*args), getattr(enn, name)(*args)
    assert repr(em) == repr(tm)
    check_module(tm, em, torch.randn(*shape))


def _err(fn, lib):
    with pytest.raises(Exception) as e:
        fn(lib)
    return type(e.value).__name__, str(e.value)


@pytest.mark.parametrize("fn", [
    lambda L: L.nn.CircularPad2d(1)(L.ones(2, 2)),
    lambda L: L.nn.functional.pad(L.ones(2, 3, 4, 4), (1, 1), mode="reflect"),
    lambda L: L.nn.functional.pixel_shuffle(L.ones(3, 3), 2),
    lambda L: L.nn.functional.pixel_shuffle(L.ones(5, 3, 3), 2),
    lambda L: L.nn.functional.pixel_shuffle(L.ones(4, 3, 3), 0),
    lambda L: L.nn.functional.pixel_shuffle(L.ones(4, 1, 1), 2.0),
    lambda L: L.nn.functional.pixel_unshuffle(L.ones(3, 3), 2),
    lambda L: L.nn.functional.pixel_unshuffle(L.ones(1, 5, 4), 2),
    lambda L: L.nn.functional.pixel_unshuffle(L.ones(1, 4, 3), 2),
    lambda L: L.nn.functional.pixel_unshuffle(L.ones(1, 4, 4), -1),
])
def test_errors(fn):
    assert _err(fn, ember) == _err(fn, torch)


def test_pixel_roundtrip_double_backward():
    x = torch.randn(1, 4, 2, 2, dtype=torch.float64, requires_grad=True)
    e = to_ember(x, True)
    ty = tF.pixel_unshuffle(tF.pixel_shuffle(x, 2) ** 2, 2)
    ey = eF.pixel_unshuffle(eF.pixel_shuffle(e, 2) ** 2, 2)
    close(ey, ty, "roundtrip", 1e-12, 1e-12)
    (tg,) = torch.autograd.grad(ty.sum(), x, create_graph=True)
    (eg,) = ember.autograd.grad(ey.sum(), e, create_graph=True)
    close(eg, tg, "grad", 1e-12, 1e-12)
    assert eg.grad_fn.name() == tg.grad_fn.name()


def test_relu_():
    t = torch.randn(5).requires_grad_()
    e = to_ember(t, True)
    ty, ey = tF.relu_(t * 1), eF.relu_(e * 1)
    close(ey, ty, "relu_")
    assert ey.grad_fn.name() == ty.grad_fn.name()


@pytest.mark.parametrize("name,args", [("constant", (0.3,)), ("uniform", ()), ("normal", ()),
                                       ("xavier_uniform", ()), ("kaiming_normal", ()),
                                       ("eye", ()), ("orthogonal", ())])
def test_deprecated_init_aliases(name, args):
    out = []
    for lib in (torch, ember):
        w = lib.empty(3, 4)
        lib.manual_seed(5)
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            getattr(lib.nn.init, name)(w, *args)
        out.append((w.numpy().tolist(), [(r.category, str(r.message)) for r in rec]))
    assert out[0][1] == out[1][1]
    close(ember.tensor(out[1][0]), torch.tensor(out[0][0]), name, 1e-5, 1e-6)
