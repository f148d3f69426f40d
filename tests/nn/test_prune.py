"""``nn.utils.prune`` against torch 2.13: masks (seeded random pruning draws torch's stream),
``weight_orig``/``weight_mask`` names, the forward pre-hook, containers from repeated pruning,
global pruning, ``remove``, gradients through the mask and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn.utils.prune as tP  # noqa: E402

import ember  # noqa: E402
import ember.nn.utils.prune as eP  # noqa: E402

from ._parity import close, copy_params, to_ember  # noqa: E402


def pair(make="linear"):
    torch.manual_seed(3)
    t = torch.nn.Linear(6, 4) if make == "linear" else torch.nn.Conv2d(3, 4, 3)
    e = ember.nn.Linear(6, 4) if make == "linear" else ember.nn.Conv2d(3, 4, 3)
    copy_params(t, e)
    return t, e


def same_state(e, t):
    assert list(e.state_dict()) == list(t.state_dict())
    assert [n for n, _ in e.named_parameters()] == [n for n, _ in t.named_parameters()]
    for (n, a), (_, b) in zip(t.state_dict().items(), e.state_dict().items()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6, err_msg=n)
    close(e.weight, t.weight, "pruned weight")
    close(e.bias, t.bias, "pruned bias")


STEPS = [
    lambda P, m: P.l1_unstructured(m, "weight", amount=0.3),
    lambda P, m: P.l1_unstructured(m, "bias", amount=2),
    lambda P, m: P.random_unstructured(m, "weight", amount=0.5),
    lambda P, m: P.ln_structured(m, "weight", amount=0.5, n=2, dim=0),
    lambda P, m: P.ln_structured(m, "weight", amount=1, n=1, dim=1),
    lambda P, m: P.random_structured(m, "weight", amount=0.5, dim=0),
    lambda P, m: P.identity(m, "weight"),
]


@pytest.mark.parametrize("steps", [[0], [1], [2], [3], [4], [5], [6], [0, 3], [3, 0, 2], [0, 1]])
@pytest.mark.parametrize("make", ["linear", "conv"])
def test_pruning_as_torch(steps, make):
    t, e = pair(make)
    for s in steps:
        torch.manual_seed(s)
        ember.manual_seed(s)
        STEPS[s](tP, t)
        STEPS[s](eP, e)
        same_state(e, t)
    assert eP.is_pruned(e) and tP.is_pruned(t)
    hooks_t = [type(h).__name__ for h in t._forward_pre_hooks.values()]
    assert [type(h).__name__ for h in e._forward_pre_hooks.values()] == hooks_t
    x = torch.randn(2, 6) if make == "linear" else torch.randn(1, 3, 5, 5)
    ty, ey = t(x), e(to_ember(x))
    close(ey, ty, "forward")
    ty.sum().backward()
    ey.sum().backward()
    for (n, tp), (_, ep) in zip(t.named_parameters(), e.named_parameters()):
        close(ep.grad, tp.grad, f"grad of {n} through the mask")
    for name in ("weight", "bias"):
        if hasattr(t, name + "_orig"):
            tP.remove(t, name)
            eP.remove(e, name)
    same_state(e, t)
    assert not eP.is_pruned(e)


def test_global_unstructured_and_custom_mask():
    t1, e1 = pair()
    t2, e2 = pair("conv")
    tP.global_unstructured([(t1, "weight"), (t2, "weight")], pruning_method=tP.L1Unstructured,
                           amount=20)
    eP.global_unstructured([(e1, "weight"), (e2, "weight")], pruning_method=eP.L1Unstructured,
                           amount=20)
    same_state(e1, t1)
    same_state(e2, t2)
    t3, e3 = pair()
    mask = np.arange(24).reshape(4, 6) % 3 == 0
    tP.custom_from_mask(t3, "bias", torch.tensor(mask[0, :4]))
    eP.custom_from_mask(e3, "bias", ember.tensor(mask[0, :4]))
    same_state(e3, t3)
    m = eP.L1Unstructured(0.5)
    w = ember.tensor([[1.0, -3.0], [0.5, 2.0]])
    assert m.prune(w).tolist() == tP.L1Unstructured(0.5).prune(torch.tensor(w.tolist())).tolist()


@pytest.mark.parametrize("fn", [
    lambda P, m: P.l1_unstructured(m, "weight", amount=1.5),
    lambda P, m: P.l1_unstructured(m, "weight", amount=-1),
    lambda P, m: P.l1_unstructured(m, "weight", amount="a"),
    lambda P, m: P.l1_unstructured(m, "weight", amount=100),
    lambda P, m: P.ln_structured(m, "bias", amount=1, n=2, dim=0),
    lambda P, m: P.ln_structured(m, "weight", amount=1, n=2, dim=3),
    lambda P, m: P.remove(m, "weight"),
    lambda P, m: P.global_unstructured([(m, "weight")], pruning_method=P.LnStructured, amount=1,
                                       n=1, dim=0),
])
def test_errors(fn):
    t, e = pair()
    with pytest.raises(Exception) as te:
        fn(tP, t)
    with pytest.raises(type(te.value)) as ee:
        fn(eP, e)
    assert str(ee.value).replace("ember.", "torch.").split(" of module")[0] == \
        str(te.value).split(" of module")[0]
    assert list(e.state_dict()) == list(t.state_dict())
