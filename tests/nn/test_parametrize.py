"""``nn.utils.parametrize`` against torch 2.13: the Parametrized<Class> swap, the
``parametrizations.<name>.original`` layout (``original0..`` for tuple right inverses),
state dicts, gradients through the parametrization, assignment through right_inverse,
caching, removal and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.utils.parametrize as tP  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.utils.parametrize as eP  # noqa: E402

from ._parity import check_module, close  # noqa: E402


def make(lib):
    nn = lib.nn

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    class Scale(nn.Module):
        def forward(self, X):
            return X * 2

    class Split(nn.Module):
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X * 0.25, X * 0.75

    class BadShape(nn.Module):
        def forward(self, X):
            return X[:1]

    return Symmetric, Scale, Split, BadShape


TS, ES = make(torch), make(ember)


def pair():
    tm = tnn.Linear(3, 3)
    em = enn.Linear(3, 3)
    em.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    return tm, em


def test_register_layout_and_forward():
    tm, em = pair()
    tP.register_parametrization(tm, "weight", TS[0]())
    eP.register_parametrization(em, "weight", ES[0]())
    assert type(em).__name__ == type(tm).__name__ == "ParametrizedLinear"
    assert isinstance(em, enn.Linear)
    assert repr(em) == repr(tm)
    assert list(em.state_dict()) == list(tm.state_dict())
    assert [n for n, _ in em.named_parameters()] == [n for n, _ in tm.named_parameters()]
    close(em.weight, tm.weight, "parametrized weight")
    close(em.parametrizations.weight.original, tm.parametrizations.weight.original, "orig")
    assert eP.is_parametrized(em) and eP.is_parametrized(em, "weight")
    assert not eP.is_parametrized(em, "bias")
    assert eP.type_before_parametrizations(em) is enn.Linear
    check_module(tm, em, torch.randn(4, 3))
    # a second parametrization is appended to the list
    tP.register_parametrization(tm, "weight", TS[1]())
    eP.register_parametrization(em, "weight", ES[1]())
    assert repr(em) == repr(tm)
    close(em.weight, tm.weight, "two parametrizations")


def test_assignment_goes_through_right_inverse():
    tm, em = pair()
    tP.register_parametrization(tm, "weight", TS[0]())
    eP.register_parametrization(em, "weight", ES[0]())
    orig = em.parametrizations.weight.original
    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    tm.weight = torch.tensor(a)
    em.weight = ember.tensor(a)
    assert em.parametrizations.weight.original is orig
    close(em.parametrizations.weight.original, tm.parametrizations.weight.original, "orig")
    close(em.weight, tm.weight, "weight")


def test_tuple_right_inverse_and_remove():
    tm, em = pair()
    tP.register_parametrization(tm, "weight", TS[2]())
    eP.register_parametrization(em, "weight", ES[2]())
    assert list(em.state_dict()) == list(tm.state_dict())
    assert "parametrizations.weight.original1" in em.state_dict()
    close(em.weight, tm.weight, "split")
    check_module(tm, em, torch.randn(2, 3))
    tP.remove_parametrizations(tm, "weight")
    eP.remove_parametrizations(em, "weight")
    assert type(em) is enn.Linear and list(em.state_dict()) == list(tm.state_dict())
    close(em.weight, tm.weight, "removed")
    with pytest.raises(ValueError) as te:
        tP.remove_parametrizations(tm, "weight")
    with pytest.raises(ValueError) as ee:
        eP.remove_parametrizations(em, "weight")
    assert str(ee.value).split(" does not")[1] == str(te.value).split(" does not")[1]


def test_remove_leave_unparametrized():
    for leave in (True, False):
        tm, em = pair()
        tP.register_parametrization(tm, "weight", TS[1]())
        eP.register_parametrization(em, "weight", ES[1]())
        tP.remove_parametrizations(tm, "weight", leave_parametrized=leave)
        eP.remove_parametrizations(em, "weight", leave_parametrized=leave)
        close(em.weight, tm.weight, f"leave={leave}")
        assert isinstance(em.weight, enn.Parameter)


def test_cached_and_errors():
    tm, em = pair()
    eP.register_parametrization(em, "weight", ES[1]())
    with eP.cached():
        assert em.weight is em.weight
    assert em.weight is not em.weight
    for fn in (lambda P, S, m: P.register_parametrization(m, "weight", S[3]()),
               lambda P, S, m: P.register_parametrization(m, "nope", S[1]())):
        with pytest.raises(ValueError) as te:
            fn(tP, TS, tnn.Linear(3, 3))
        with pytest.raises(ValueError) as ee:
            fn(eP, ES, enn.Linear(3, 3))
        assert str(ee.value).split("'")[0] == str(te.value).split("'")[0]
        assert str(ee.value).splitlines()[1:] == str(te.value).splitlines()[1:]
