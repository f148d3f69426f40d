"""Oracle tests of layer options against torch 2.13: LSTM ``proj_size``, RNN argument and
hidden-state checks, MultiheadAttention ``kdim``/``vdim``/``add_bias_kv``/``add_zero_attn``
with masks, ConvTranspose ``output_size``, and the grad_fn names of RNN/LSTM/GRU/MHA/
TransformerEncoderLayer outputs. Seeded construction must give torch's parameters bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

from ..helpers import arr, check, compare_tensors, errors_alike, torch


def _module_pair(make):
    torch.manual_seed(0)
    tm = make(torch)
    ember.manual_seed(0)
    em = make(ember)
    tsd, esd = tm.state_dict(), em.state_dict()
    assert list(tsd) == list(esd)
    for k in tsd:
        assert tuple(tsd[k].shape) == tuple(esd[k].shape), k
        np.testing.assert_array_equal(tsd[k].numpy(), esd[k].numpy(), err_msg=k)
    return tm, em


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flat(o)]
    return [out]


def compare_module(make, call, *inputs, rtol=1e-5, atol=1e-6):
    """Seeded modules equal; ``call(module, lib, *tensors)`` equal in values, grad_fn names,
    input and parameter gradients."""
    tm, em = _module_pair(make)
    t_in = [torch.from_numpy(a.copy()).requires_grad_(a.dtype.kind == "f") for a in inputs]
    e_in = [ember.from_numpy(a.copy()).requires_grad_(a.dtype.kind == "f") for a in inputs]
    t_out, e_out = _flat(call(tm, torch, *t_in)), _flat(call(em, ember, *e_in))
    assert len(t_out) == len(e_out)
    rng = np.random.default_rng(1)
    tl = el = 0
    for k, (a, b) in enumerate(zip(t_out, e_out)):
        if a is None:
            assert b is None
            continue
        compare_tensors(a, b, f"output {k}", rtol, atol)
        g = rng.standard_normal(a.shape).astype(a.detach().numpy().dtype)
        tl = tl + (a * torch.from_numpy(g)).sum()
        el = el + (b * ember.from_numpy(g.copy())).sum()
    tl.backward()
    el.backward()
    for k, (a, b) in enumerate(zip(t_in, e_in)):
        if a.requires_grad:
            compare_tensors(a.grad, b.grad, f"grad of input {k}", rtol, atol, grad_fn=False)
    for (n, p), (_, q) in zip(tm.named_parameters(), em.named_parameters()):
        if p.grad is None:
            assert q.grad is None, n
        else:
            compare_tensors(p.grad, q.grad, f"grad of {n}", rtol, atol, grad_fn=False)


# ============================================================================ LSTM proj_size

LSTM_CASES = [{"proj_size": 2}, {"proj_size": 2, "num_layers": 2},
              {"proj_size": 1, "bidirectional": True},
              {"proj_size": 2, "bidirectional": True, "num_layers": 2, "bias": False},
              {"proj_size": 2, "batch_first": True}, {}, {"num_layers": 2},
              {"bidirectional": True}, {"batch_first": True}]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", LSTM_CASES)
def test_lstm_options(dtype, kw):
    dt = getattr(np, dtype)
    shape = (2, 5, 4) if kw.get("batch_first") else (5, 2, 4)

    def make(lib):
        return lib.nn.LSTM(4, 3, **kw).to(getattr(lib, dtype))

    compare_module(make, lambda m, lib, x: m(x), arr(shape, dtype, 1).astype(dt))
    nd = 2 if kw.get("bidirectional") else 1
    layers = nd * kw.get("num_layers", 1)
    h = kw.get("proj_size") or 3
    compare_module(make, lambda m, lib, x, h0, c0: m(x, (h0, c0)), arr(shape, dtype, 1),
                   arr((layers, 2, h), dtype, 2), arr((layers, 2, 3), dtype, 3))
    compare_module(make, lambda m, lib, x: m(x), arr((5, 4), dtype, 4))     # unbatched


def test_lstm_proj_parameters():
    tm, em = _module_pair(lambda lib: lib.nn.LSTM(4, 5, 2, proj_size=3, bidirectional=True))
    assert [n for n, _ in tm.named_parameters()] == [n for n, _ in em.named_parameters()]
    assert repr(tm) == repr(em)
    assert [[tuple(p.shape) for p in ws] for ws in tm.all_weights] == \
        [[tuple(p.shape) for p in ws] for ws in em.all_weights]


@pytest.mark.parametrize("cls", ["RNN", "GRU", "LSTM"])
def test_rnn_errors(cls):
    def mk(lib, **kw):
        return getattr(lib.nn, cls)(4, 3, **kw)
    for kw in ({"proj_size": 3}, {"proj_size": -1}, {"dropout": 1.5}, {"num_layers": 0},
               {"bias": 1}):
        if "proj_size" in kw and cls != "LSTM":
            continue
        errors_alike(lambda lib, kw=kw: mk(lib, **kw))
    x = arr((5, 2, 4), "float32", 1)
    lstm = cls == "LSTM"
    for bad in (arr((5, 2, 3), "float32"), arr((5, 2, 2, 4), "float32"),
                arr((5, 2, 4), "float64")):
        errors_alike(lambda lib, b=bad: mk(lib)(lib.from_numpy(b)))
    for hs in ((1, 3, 3), (2, 2, 3), (1, 2)):
        h = arr(hs, "float32", 2)

        def run(lib, h=h):
            hx = lib.from_numpy(h)
            return mk(lib)(lib.from_numpy(x), (hx, lib.zeros(1, 2, 3)) if lstm else hx)
        errors_alike(run)
    if lstm:
        errors_alike(lambda lib: mk(lib, proj_size=2)(lib.from_numpy(x),
                                                      (lib.zeros(1, 2, 3), lib.zeros(1, 2, 3))))
        errors_alike(lambda lib: mk(lib)(lib.from_numpy(x[:, 0]),
                                         (lib.zeros(1, 1, 3), lib.zeros(1, 3))))


@pytest.mark.parametrize("cls", ["RNN", "GRU"])
@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"bidirectional": True,
                                                            "num_layers": 2}])
def test_rnn_gru_names(cls, kw):
    shape = (2, 5, 4) if kw.get("batch_first") else (5, 2, 4)
    compare_module(lambda lib: getattr(lib.nn, cls)(4, 3, **kw), lambda m, lib, x: m(x),
                   arr(shape, "float32", 1))
    compare_module(lambda lib: getattr(lib.nn, cls)(4, 3, **kw).double(),
                   lambda m, lib, x: m(x), arr((5, 4), "float64", 1))


# ============================================================================ MultiheadAttention

MHA_CASES = [{}, {"kdim": 3, "vdim": 5}, {"add_bias_kv": True}, {"add_zero_attn": True},
             {"add_bias_kv": True, "add_zero_attn": True, "kdim": 3, "vdim": 5},
             {"bias": False, "kdim": 3}, {"batch_first": True, "vdim": 2}]


def _kv(kw):
    return kw.get("kdim", 4), kw.get("vdim", 4)


@pytest.mark.parametrize("kw", MHA_CASES)
@pytest.mark.parametrize("call", ["plain", "no_weights", "per_head", "masks", "bool_masks",
                                  "unbatched"])
def test_mha_options(kw, call):
    kd, vd = _kv(kw)
    bf = kw.get("batch_first", False)
    L, S, N = 3, 4, 2

    def sh(n, e):
        return (N, n, e) if bf else (n, N, e)
    q, k, v = arr(sh(L, 4), "float64", 1), arr(sh(S, kd), "float64", 2), arr(sh(S, vd),
                                                                             "float64", 3)
    am = arr((L, S), "float64", 4)
    kpm = np.array([[False, False, True, False], [False, True, False, False]])
    make = lambda lib: lib.nn.MultiheadAttention(4, 2, **kw).double()   # noqa: E731
    if call == "plain":
        compare_module(make, lambda m, lib, a, b, c: m(a, b, c), q, k, v)
    elif call == "no_weights":
        compare_module(make, lambda m, lib, a, b, c: m(a, b, c, need_weights=False), q, k, v)
    elif call == "per_head":
        compare_module(make, lambda m, lib, a, b, c: m(a, b, c, average_attn_weights=False),
                       q, k, v)
    elif call == "masks":
        for nw in (True, False):
            compare_module(make, lambda m, lib, a, b, c, mk, nw=nw: m(
                a, b, c, attn_mask=mk.detach(), need_weights=nw,
                key_padding_mask=lib.from_numpy(kpm.astype(np.float64))), q, k, v, am)
    elif call == "bool_masks":
        bm = np.tril(np.ones((L, S), bool))
        for nw in (True, False):
            compare_module(make, lambda m, lib, a, b, c, nw=nw: m(
                a, b, c, attn_mask=lib.from_numpy(bm), key_padding_mask=lib.from_numpy(kpm),
                need_weights=nw), q, k, v)
    elif not bf:
        compare_module(make, lambda m, lib, a, b, c: m(a, b, c), q[:, 0], k[:, 0], v[:, 0])


def test_mha_self_attention_and_init():
    x = arr((3, 2, 4), "float32", 5)
    for kw in ({}, {"add_bias_kv": True}, {"batch_first": True}):
        compare_module(lambda lib, kw=kw: lib.nn.MultiheadAttention(4, 2, **kw),
                       lambda m, lib, a: m(a, a, a), x)
    tm, em = _module_pair(lambda lib: lib.nn.MultiheadAttention(6, 3, add_bias_kv=True,
                                                                kdim=2, vdim=7))
    assert [n for n, _ in tm.named_parameters()] == [n for n, _ in em.named_parameters()]


def test_mha_errors():
    def mha(lib, **kw):
        return lib.nn.MultiheadAttention(4, 2, **kw)
    errors_alike(lambda lib: lib.nn.MultiheadAttention(5, 2))
    errors_alike(lambda lib: lib.nn.MultiheadAttention(0, 2))
    q = arr((3, 2, 4), "float32", 1)
    for args in ((arr((3, 2, 3), "float32"),), (arr((4, 2, 4), "float32"),)):
        errors_alike(lambda lib, a=args: mha(lib)(lib.from_numpy(q), lib.from_numpy(q),
                                                  lib.from_numpy(a[0])))
    errors_alike(lambda lib: mha(lib)(lib.from_numpy(q), lib.from_numpy(q), lib.from_numpy(q),
                                      attn_mask=lib.zeros(2, 2)))
    errors_alike(lambda lib: mha(lib)(lib.from_numpy(q), lib.from_numpy(q), lib.from_numpy(q),
                                      key_padding_mask=lib.zeros(2, 4)))
    errors_alike(lambda lib: mha(lib)(lib.from_numpy(q), lib.from_numpy(q), lib.from_numpy(q),
                                      attn_mask=lib.zeros(3, 3, dtype=lib.int64)))
    errors_alike(lambda lib: mha(lib)(lib.from_numpy(q), lib.from_numpy(q[:, 0]),
                                      lib.from_numpy(q)))
    errors_alike(lambda lib: mha(lib)(lib.from_numpy(q), lib.from_numpy(q), lib.from_numpy(q),
                                      is_causal=True))


@pytest.mark.parametrize("kw", [{}, {"norm_first": True}, {"batch_first": True},
                                {"activation": "gelu"}])
def test_transformer_encoder_layer(kw):
    x = arr((3, 2, 4), "float32", 6)
    mask = np.triu(np.full((3, 3), -np.inf, np.float32), 1)
    make = lambda lib: lib.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, **kw)  # noqa: E731
    compare_module(make, lambda m, lib, a: m(a), x)
    compare_module(make, lambda m, lib, a: m(a, src_mask=lib.from_numpy(mask), is_causal=True),
                   x)
    kpm = np.array([[False, True], [False, False], [True, False]])      # (3, 2)
    if not kw.get("batch_first"):
        kpm = kpm.T.copy()                                               # (N=2, S=3)
    compare_module(make, lambda m, lib, a: m(a, src_key_padding_mask=lib.from_numpy(kpm)), x)


# ============================================================================ TransformerEncoder

def _encoder(lib, batch_first=False, norm=False, **kw):
    layer = lib.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=batch_first)
    return lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(4) if norm else None, **kw)


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"norm": True},
                                {"batch_first": True, "enable_nested_tensor": False}])
def test_transformer_encoder(kw):
    x = arr((2, 3, 4) if kw.get("batch_first") else (3, 2, 4), "float32", 7)
    mask = np.triu(np.full((3, 3), -np.inf, np.float32), 1)
    kpm = np.array([[False, False, True], [False, False, False]])       # (N=2, S=3)
    make = lambda lib: _encoder(lib, **kw)  # noqa: E731
    compare_module(make, lambda m, lib, a: m(a), x)
    compare_module(make, lambda m, lib, a: m(a, mask=lib.from_numpy(mask)), x)
    compare_module(make, lambda m, lib, a: m(a, src_key_padding_mask=lib.from_numpy(kpm)), x)


def test_transformer_encoder_eval_padding_is_zero_as_torch_nested_path():
    x = arr((2, 3, 4), "float32", 8)
    kpm = np.array([[False, False, True], [False, False, False]])
    outs = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        enc = _encoder(lib, batch_first=True).eval()
        with lib.no_grad():
            outs.append(enc(lib.from_numpy(x.copy()),
                            src_key_padding_mask=lib.from_numpy(kpm)).numpy())
        with lib.no_grad():      # not left-aligned: no nested path, padded rows computed
            outs.append(enc(lib.from_numpy(x.copy()),
                            src_key_padding_mask=lib.from_numpy(kpm[:, ::-1].copy())).numpy())
    assert (outs[0][0, 2] == 0).all()
    np.testing.assert_allclose(outs[2], outs[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[3], outs[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw, why", [
    ({}, "encoder_layer.self_attn.batch_first was not True(use batch_first for better "
         "inference performance)"),
    ({"norm_first": True}, "encoder_layer.norm_first was True"),
    ({"batch_first": True, "nhead": 1}, "encoder_layer.self_attn.num_heads is odd")])
def test_transformer_encoder_nested_tensor_warning(kw, why):
    nhead = kw.pop("nhead", 2)
    for lib in (torch, ember):
        layer = lib.nn.TransformerEncoderLayer(4, nhead, 8, **kw)
        with pytest.warns(UserWarning) as rec:
            enc = lib.nn.TransformerEncoder(layer, 1)
        assert str(rec[0].message) == ("enable_nested_tensor is True, but "
                                       f"self.use_nested_tensor is False because {why}")
        assert enc.use_nested_tensor is False


def test_transformer_encoder_layers_are_copies():
    layer = ember.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True)
    enc = ember.nn.TransformerEncoder(layer, 3)
    assert len(enc.layers) == 3 and enc.num_layers == 3
    assert enc.layers[0] is not layer and enc.layers[0].linear1.weight is not layer.linear1.weight
    names = [n for n, _ in enc.named_parameters()]
    tnames = [n for n, _ in torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 3).named_parameters()]
    assert names == tnames


# ============================================================================ ConvTranspose

@pytest.mark.parametrize("case", [
    (1, (2, 3, 5), {"stride": 3, "padding": 1}, [15]),
    (1, (2, 3, 5), {"stride": 3, "padding": 1}, [2, 4, 14]),
    (1, (3, 5), {"stride": 3, "padding": 1}, [4, 14]),
    (1, (2, 3, 5), {"stride": 3, "padding": 1}, [17]),
    (1, (2, 3, 5), {"stride": 3, "padding": 1}, [1, 2]),
    (2, (2, 3, 5, 4), {"stride": (2, 3), "dilation": 2}, (11, 15)),
    (2, (2, 3, 5, 4), {"stride": (2, 3), "dilation": 2}, (12, 16)),
    (2, (2, 3, 5, 4), {"stride": (2, 3), "dilation": 2}, (2, 4, 12, 16)),
    (2, (2, 3, 5, 4), {"stride": (2, 3), "dilation": 2}, (13, 16)),
    (2, (3, 5, 4), {"stride": 2}, (9, 10)),
    (2, (2, 3, 5, 4), {"stride": 2, "output_padding": 1}, None)])
def test_conv_transpose_output_size(case):
    nd, shape, kw, osz = case

    def fn(lib, x):
        lib.manual_seed(0)
        m = getattr(lib.nn, f"ConvTranspose{nd}d")(3, 4, 3, **kw)
        size = lib.Size(osz) if isinstance(osz, tuple) else osz
        return m(x, output_size=size)
    check(fn, arr(shape, "float32", 1))


def test_grad_fn_names_of_layers():
    """The output nodes torch 2.13 (CPU) shows for the recurrent and attention layers."""
    x = arr((5, 2, 4), "float32", 1)
    for make in (lambda lib: lib.nn.LSTM(4, 3), lambda lib: lib.nn.LSTM(4, 3, 2),
                 lambda lib: lib.nn.LSTM(4, 3, bias=False),
                 lambda lib: lib.nn.LSTM(4, 3, proj_size=2),
                 lambda lib: lib.nn.RNN(4, 3, nonlinearity="relu"),
                 lambda lib: lib.nn.GRU(4, 3, 2, bidirectional=True)):
        compare_module(make, lambda m, lib, a: m(a), x)
