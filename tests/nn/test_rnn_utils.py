"""``nn.utils.rnn`` and packed input to RNN/LSTM/GRU against torch 2.13: padded and packed
values, batch sizes, sorted/unsorted indices, grad_fn names, gradients through pack/pad and
through the recurrent layers, and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402
import torch.nn.utils.rnn as tR  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402
import ember.nn.utils.rnn as eR  # noqa: E402

from ._parity import close, copy_params, to_ember  # noqa: E402

G = torch.Generator().manual_seed(11)


def seqs(lengths, feat=2):
    ts = [torch.randn(n, feat, generator=G, requires_grad=True) for n in lengths]
    es = [to_ember(t, True) for t in ts]
    return ts, es


def same_packed(ep, tp):
    close(ep.data, tp.data, "data")
    assert ep.batch_sizes.tolist() == tp.batch_sizes.tolist()
    assert ep.batch_sizes.dtype is ember.int64
    for a, b in ((ep.sorted_indices, tp.sorted_indices),
                 (ep.unsorted_indices, tp.unsorted_indices)):
        assert (a is None) == (b is None)
        if a is not None:
            assert a.tolist() == b.tolist()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence(batch_first, side):
    ts, es = seqs([3, 1, 4])
    tp = tR.pad_sequence(ts, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    ep = eR.pad_sequence(es, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    close(ep, tp, "padded")
    assert ep.grad_fn.name() == tp.grad_fn.name()
    g = torch.randn(tp.shape, generator=G)
    tp.backward(g)
    ep.backward(to_ember(g))
    for e, t in zip(es, ts):
        close(e.grad, t.grad, "grad")


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("sorted_", [True, False])
def test_pack_pad_roundtrip(batch_first, sorted_):
    lengths = [4, 3, 1] if sorted_ else [1, 4, 3]
    ts, es = seqs(lengths, 3)
    tpad = tR.pad_sequence(ts, batch_first=batch_first)
    epad = eR.pad_sequence(es, batch_first=batch_first)
    lt = torch.tensor(lengths)
    tpk = tR.pack_padded_sequence(tpad, lt, batch_first=batch_first, enforce_sorted=sorted_)
    epk = eR.pack_padded_sequence(epad, ember.tensor(lengths), batch_first=batch_first,
                                  enforce_sorted=sorted_)
    same_packed(epk, tpk)
    assert epk.data.grad_fn.name() == tpk.data.grad_fn.name()
    assert repr(epk).split("(data=")[0] == repr(tpk).split("(data=")[0]
    tout, tl = tR.pad_packed_sequence(tpk, batch_first=batch_first, padding_value=0.5,
                                      total_length=6)
    eout, el = eR.pad_packed_sequence(epk, batch_first=batch_first, padding_value=0.5,
                                      total_length=6)
    close(eout, tout, "unpacked")
    assert el.tolist() == tl.tolist() and el.dtype is ember.int64
    assert eout.grad_fn.name() == tout.grad_fn.name()
    g = torch.randn(tout.shape, generator=G)
    tout.backward(g)
    eout.backward(to_ember(g))
    for e, t in zip(es, ts):
        close(e.grad, t.grad, "grad")


def test_pack_sequence_and_unpack():
    ts, es = seqs([2, 5, 3])
    tpk = tR.pack_sequence(ts, enforce_sorted=False)
    epk = eR.pack_sequence(es, enforce_sorted=False)
    same_packed(epk, tpk)
    for e, t in zip(eR.unpack_sequence(epk), tR.unpack_sequence(tpk)):
        close(e, t, "unpacked")
    assert epk.double().data.dtype is ember.float64
    assert isinstance(epk, tuple) and epk._fields == tpk._fields


def test_errors():
    cases = [
        lambda R, lib: R.pack_sequence([lib.ones(1, 2), lib.ones(3, 2)]),
        lambda R, lib: R.pack_padded_sequence(lib.ones(3, 3, 2), [3, 0, 1]),
        lambda R, lib: R.pack_padded_sequence(lib.ones(3, 3, 2), [3, 2, 0]),
        lambda R, lib: R.pack_padded_sequence(lib.ones(3, 3, 2), lib.tensor([[3, 2, 1]])),
        lambda R, lib: R.pad_packed_sequence(R.pack_sequence([lib.ones(3, 2)]), total_length=2),
        lambda R, lib: R.pad_sequence([]),
        lambda R, lib: R.pad_sequence([lib.ones(2)], padding_side="top"),
    ]
    for fn in cases:
        with pytest.raises(Exception) as te:
            fn(tR, torch)
        with pytest.raises(type(te.value)) as ee:
            fn(eR, ember)
        assert str(ee.value) == str(te.value)


RNNS = [("LSTM", {}), ("GRU", {"bidirectional": True}), ("RNN", {"num_layers": 2}),
        ("LSTM", {"num_layers": 2, "bidirectional": True, "batch_first": True}),
        ("LSTM", {"proj_size": 2}), ("RNN", {"nonlinearity": "relu", "bias": False})]


@pytest.mark.parametrize("with_state", [False, True])
@pytest.mark.parametrize("sorted_", [True, False])
@pytest.mark.parametrize("name,kw", RNNS)
def test_rnn_packed_input(name, kw, sorted_, with_state):
    tm = getattr(tnn, name)(3, 4, **kw)
    em = getattr(enn, name)(3, 4, **kw)
    copy_params(tm, em)
    lengths = [5, 3, 3, 1] if sorted_ else [3, 5, 1, 3]
    ts, es = seqs(lengths, 3)
    bf = kw.get("batch_first", False)
    tpk = tR.pack_padded_sequence(tR.pad_sequence(ts, batch_first=bf), lengths,
                                  batch_first=bf, enforce_sorted=sorted_)
    epk = eR.pack_padded_sequence(eR.pad_sequence(es, batch_first=bf), lengths,
                                  batch_first=bf, enforce_sorted=sorted_)
    nd = 2 if kw.get("bidirectional") else 1
    layers = kw.get("num_layers", 1) * nd
    hx_t = hx_e = None
    if with_state:
        hs = [torch.randn(layers, 4, kw.get("proj_size") or 4, generator=G)]
        if name == "LSTM":
            hs.append(torch.randn(layers, 4, 4, generator=G))
        hx_t = tuple(hs) if name == "LSTM" else hs[0]
        hx_e = tuple(to_ember(h) for h in hs) if name == "LSTM" else to_ember(hs[0])
    tout, th = tm(tpk, hx_t)
    eout, eh = em(epk, hx_e)
    assert type(eout).__name__ == "PackedSequence"
    same_packed(eout, tout)
    assert eout.data.grad_fn.name() == tout.data.grad_fn.name()
    th = th if isinstance(th, tuple) else (th,)
    eh = eh if isinstance(eh, tuple) else (eh,)
    up = [torch.randn(h.shape, generator=G) for h in th]
    for t, e in zip(th, eh):
        close(e, t, "h_n")
        assert e.grad_fn.name() == t.grad_fn.name()
    g_data = torch.randn(tout.data.shape, generator=G)
    loss_t = (tout.data * g_data).sum() + sum((t * u).sum() for t, u in zip(th, up))
    loss_e = (eout.data * to_ember(g_data)).sum() + sum((e * to_ember(u)).sum()
                                                         for e, u in zip(eh, up))
    loss_t.backward()
    loss_e.backward()
    for e, t in zip(es, ts):
        close(e.grad, t.grad, "input grad", 1e-4, 1e-5)
    for (n, tp), (_, ep) in zip(tm.named_parameters(), em.named_parameters()):
        close(ep.grad, tp.grad, n, 1e-4, 1e-5)


def test_packed_hidden_size_error():
    pk_t = tR.pack_sequence([torch.ones(2, 3), torch.ones(1, 3)])
    pk_e = eR.pack_sequence([ember.ones(2, 3), ember.ones(1, 3)])
    with pytest.raises(RuntimeError) as te:
        tnn.GRU(3, 4)(pk_t, torch.zeros(1, 3, 4))
    with pytest.raises(RuntimeError) as ee:
        enn.GRU(3, 4)(pk_e, ember.zeros(1, 3, 4))
    assert str(ee.value) == str(te.value)
    assert np.array_equal(eR.invert_permutation(ember.tensor([2, 0, 1])).numpy(), [1, 2, 0])
