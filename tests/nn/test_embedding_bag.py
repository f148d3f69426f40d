"""nn.EmbeddingBag / F.embedding_bag against torch 2.13: seeded init, repr, every mode with
offsets (empty bags, include_last_offset), 2-D input, padding_idx, per_sample_weights,
gradients of the weight and the sample weights, grad_fn name and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.functional as tF  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.functional as eF  # noqa: E402

from ._parity import close, to_ember  # noqa: E402

IDX = [1, 2, 4, 5, 4, 3, 2, 9, 0]


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
@pytest.mark.parametrize("layout", ["offsets", "last_offset", "2d"])
@pytest.mark.parametrize("psw", [False, True])
def test_embedding_bag(mode, padding_idx, layout, psw):
    if psw and mode != "sum":
        return
    kw = {"mode": mode, "padding_idx": padding_idx,
          "include_last_offset": layout == "last_offset"}
    torch.manual_seed(0)
    tm = tnn.EmbeddingBag(10, 3, **kw)
    ember.manual_seed(0)
    em = enn.EmbeddingBag(10, 3, **kw)
    assert repr(em) == repr(tm)
    np.testing.assert_array_equal(em.weight.detach().numpy(), tm.weight.detach().numpy())
    if layout == "2d":
        x, offs = torch.tensor(IDX[:8]).view(2, 4), None
    else:
        x = torch.tensor(IDX)
        offs = torch.tensor([0, 4, 4, 9] if layout == "last_offset" else [0, 4, 4, 7])
    w = torch.rand(x.shape, generator=torch.Generator().manual_seed(1)).requires_grad_() \
        if psw else None
    ew = to_ember(w, True) if psw else None
    ty = tm(x, offs, w)
    ey = em(to_ember(x), None if offs is None else to_ember(offs), ew)
    close(ey, ty, "output")
    assert ey.grad_fn.name() == ty.grad_fn.name()
    g = torch.randn(ty.shape, generator=torch.Generator().manual_seed(2))
    ty.backward(g)
    ey.backward(to_ember(g))
    close(em.weight.grad, tm.weight.grad, "weight grad")
    if psw:
        close(ew.grad, w.grad, "per_sample_weights grad")


def test_functional_and_errors():
    w = torch.randn(10, 3, dtype=torch.float64, requires_grad=True)
    x = torch.tensor(IDX)
    o = torch.tensor([0, 3])
    ty = tF.embedding_bag(x, w, o, mode="max")
    ey = eF.embedding_bag(to_ember(x), to_ember(w, True), to_ember(o), mode="max")
    close(ey, ty, "max f64", 1e-12, 1e-12)
    cases = [
        lambda L: L.nn.EmbeddingBag(10, 3)(L.tensor(IDX)),
        lambda L: L.nn.EmbeddingBag(10, 3)(L.tensor(IDX).view(3, 3), L.tensor([0, 1])),
        lambda L: L.nn.EmbeddingBag(10, 3)(L.tensor(IDX), L.tensor([1, 4])),
        lambda L: L.nn.EmbeddingBag(10, 3, mode="max")(L.tensor(IDX), L.tensor([0]),
                                                       per_sample_weights=L.ones(9)),
        lambda L: L.nn.EmbeddingBag(10, 3, mode="sum")(L.tensor(IDX), L.tensor([0]),
                                                       per_sample_weights=L.ones(7)),
        lambda L: L.nn.EmbeddingBag(10, 3, mode="foo")(L.tensor(IDX), L.tensor([0])),
        lambda L: L.nn.EmbeddingBag(10, 3, padding_idx=10),
        lambda L: L.nn.EmbeddingBag(10, 3)(L.tensor([[[1]]])),
    ]
    for fn in cases:
        with pytest.raises(Exception) as te:
            fn(torch)
        with pytest.raises(type(te.value)) as ee:
            fn(ember)
        assert str(ee.value) == str(te.value)
    tb = tnn.EmbeddingBag.from_pretrained(torch.ones(4, 2), mode="sum")
    eb = enn.EmbeddingBag.from_pretrained(ember.ones(4, 2), mode="sum")
    assert repr(eb) == repr(tb) and eb.weight.requires_grad == tb.weight.requires_grad
