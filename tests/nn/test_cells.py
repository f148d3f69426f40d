"""RNNCell / LSTMCell / GRUCell against torch 2.13: seeded initialisation (bit-identical),
repr, outputs and gradients (batched and unbatched, with and without a state), grad_fn names
and torch's errors; ``unsafe_chunk``/``unsafe_split``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402

from ._parity import check_module  # noqa: E402

CELLS = [("RNNCell", (3, 4), {}), ("RNNCell", (3, 4), {"nonlinearity": "relu", "bias": False}),
         ("LSTMCell", (3, 4), {}), ("LSTMCell", (3, 2), {"bias": False}),
         ("GRUCell", (3, 4), {}), ("GRUCell", (3, 5), {"bias": False})]


@pytest.mark.parametrize("name,args,kwargs", CELLS)
def test_cell_init_and_repr(name, args, kwargs):
    torch.manual_seed(3)
    tm = getattr(tnn, name)(*args, **kwargs)
    ember.manual_seed(3)
    em = getattr(enn, name)(*args, **kwargs)
    assert repr(em) == repr(tm)
    assert list(em.state_dict()) == list(tm.state_dict())
    for (n, tp), (_, ep) in zip(tm.named_parameters(), em.named_parameters()):
        np.testing.assert_array_equal(ep.detach().numpy(), tp.detach().numpy(), err_msg=n)


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_state", [True, False])
@pytest.mark.parametrize("name,args,kwargs", CELLS)
def test_cell_forward_backward(name, args, kwargs, batched, with_state):
    tm = getattr(tnn, name)(*args, **kwargs)
    em = getattr(enn, name)(*args, **kwargs)
    lead = (5,) if batched else ()
    x = torch.randn(*lead, args[0])
    if not with_state:
        check_module(tm, em, x)
        return
    h = torch.randn(*lead, args[1])
    if name == "LSTMCell":
        c = torch.randn(*lead, args[1])

        class Wrap(tnn.Module):
            def __init__(self, cell):
                super().__init__()
                self.cell = cell

            def forward(self, x, h, c):
                return self.cell(x, (h, c))

        class EWrap(enn.Module):
            def __init__(self, cell):
                super().__init__()
                self.cell = cell

            def forward(self, x, h, c):
                return self.cell(x, (h, c))
        check_module(Wrap(tm), EWrap(em), x, h, c)
    else:
        check_module(tm, em, x, h)


def test_cell_errors():
    cases = [("RNNCell", (torch.randn(2, 3, 3),), ()), ("GRUCell", (torch.randn(2, 3),),
                                                         (torch.randn(1, 2, 4),)),
             ("LSTMCell", (torch.randn(2, 3),), ((torch.randn(2, 4), torch.randn(1, 2, 4)),))]
    for name, xs, hs in cases:
        with pytest.raises(ValueError) as te:
            getattr(tnn, name)(3, 4)(*xs, *hs)
        conv = [ember.tensor(x.numpy()) for x in xs]
        econv = [tuple(ember.tensor(a.numpy()) for a in h) if isinstance(h, tuple)
                 else ember.tensor(h.numpy()) for h in hs]
        with pytest.raises(ValueError) as ee:
            getattr(enn, name)(3, 4)(*conv, *econv)
        assert str(ee.value) == str(te.value)
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: sig"):
        enn.RNNCell(3, 4, nonlinearity="sig")(ember.randn(2, 3))


def test_unsafe_chunk_split():
    t = torch.randn(3, 7, requires_grad=True)
    e = ember.tensor(t.detach().numpy(), requires_grad=True)
    for tf, ef in ((lambda x: x.unsafe_chunk(3, 1), lambda x: x.unsafe_chunk(3, 1)),
                   (lambda x: torch.unsafe_split(x, 2, 0), lambda x: ember.unsafe_split(x, 2, 0))):
        tp, ep = tf(t), ef(e)
        assert len(tp) == len(ep)
        assert ep[0].grad_fn.name() == tp[0].grad_fn.name()
        for a, b in zip(tp, ep):
            np.testing.assert_array_equal(b.detach().numpy(), a.detach().numpy())
        (tp[0] * 2).sum().backward()
        (ep[0] * 2).sum().backward()
        np.testing.assert_array_equal(e.grad.numpy(), t.grad.numpy())
