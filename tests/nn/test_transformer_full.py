"""nn.Transformer / TransformerEncoder / TransformerDecoder(Layer) against torch 2.13: seeded
initialisation (bit-identical), repr, state dict keys, the nested-tensor warning, outputs and
gradients with causal and padding masks; torch's module paths for the layers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn as tnn  # noqa: E402

import ember  # noqa: E402
import ember.nn as enn  # noqa: E402

from ._parity import check_module, close  # noqa: E402


def build(lib, *args, **kw):
    lib.manual_seed(0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = lib.nn.Transformer(*args, **kw)
    return m, [str(x.message) for x in w]


@pytest.mark.parametrize("kw", [{}, {"batch_first": True, "norm_first": True},
                                {"activation": "gelu", "bias": False}])
def test_transformer_init_repr_warning(kw):
    tm, tw = build(torch, 8, 2, 2, 1, 16, 0.0, **kw)
    em, ew = build(ember, 8, 2, 2, 1, 16, 0.0, **kw)
    assert repr(em) == repr(tm)
    assert ew == tw
    assert list(em.state_dict()) == list(tm.state_dict())
    for (n, tp), (_, ep) in zip(tm.state_dict().items(), em.state_dict().items()):
        np.testing.assert_array_equal(ep.numpy(), tp.numpy(), err_msg=n)


class _Wrap:
    """Module calling the transformer with masks built by the library itself."""

    @staticmethod
    def make(lib, model, batch_first):
        nn = lib.nn

        class W(nn.Module):
            def __init__(self):
                super().__init__()
                self.t = model

            def forward(self, src, tgt):
                t_len = tgt.size(1 if batch_first else 0)
                mask = nn.Transformer.generate_square_subsequent_mask(t_len)
                n = src.size(0 if batch_first else 1)
                pad = lib.zeros(n, src.size(1 if batch_first else 0), dtype=lib.bool)
                pad[0, -1] = True
                return self.t(src, tgt, tgt_mask=mask, src_key_padding_mask=pad,
                              memory_key_padding_mask=pad)
        return W()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("train", [True, False])
def test_transformer_forward_backward(batch_first, train):
    tm, _ = build(torch, 8, 2, 2, 2, 16, 0.0, batch_first=batch_first)
    em, _ = build(ember, 8, 2, 2, 2, 16, 0.0, batch_first=batch_first)
    tw, ew = _Wrap.make(torch, tm, batch_first), _Wrap.make(ember, em, batch_first)
    tw.train(train)
    ew.train(train)
    src = torch.randn(3, 5, 8) if batch_first else torch.randn(5, 3, 8)
    tgt = torch.randn(3, 4, 8) if batch_first else torch.randn(4, 3, 8)
    check_module(tw, ew, src, tgt, rtol=1e-4, atol=1e-5, grad_fn=train)


def test_mask_and_errors():
    close(enn.Transformer.generate_square_subsequent_mask(4),
          tnn.Transformer.generate_square_subsequent_mask(4), "mask")
    for lib in (torch, ember):
        m, _ = build(lib, 8, 2, 1, 1, 16)
        for src, tgt in (((5, 3, 8), (4, 2, 8)), ((5, 3, 8), (4, 3, 6))):
            with pytest.raises(RuntimeError, match="must be equal"):
                m(lib.randn(*src), lib.randn(*tgt))


def test_encoder_decoder_standalone():
    for cls_layer, cls_stack, shapes in (("TransformerEncoderLayer", "TransformerEncoder",
                                          [(2, 5, 8)]),
                                         ("TransformerDecoderLayer", "TransformerDecoder",
                                          [(2, 4, 8), (2, 5, 8)])):
        out = []
        for lib in (torch, ember):
            lib.manual_seed(1)
            layer = getattr(lib.nn, cls_layer)(8, 4, 16, 0.0, batch_first=True)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                stack = getattr(lib.nn, cls_stack)(layer, 2, lib.nn.LayerNorm(8))
            out.append((stack, [str(x.message) for x in w]))
        (tm, tw), (em, ew) = out
        assert tw == ew and repr(em) == repr(tm)
        check_module(tm, em, *[torch.randn(*s) for s in shapes], rtol=1e-4, atol=1e-5)


def test_module_paths():
    import ember.nn.modules.activation as a
    import ember.nn.modules.batchnorm as b
    import ember.nn.modules.flatten as f
    import ember.nn.modules.linear as li
    import ember.nn.modules.pixelshuffle as p
    import ember.nn.modules.transformer as t
    assert a.MultiheadAttention is enn.MultiheadAttention
    assert t.TransformerEncoder is enn.TransformerEncoder
    assert p.PixelShuffle is enn.PixelShuffle and b.BatchNorm2d is enn.BatchNorm2d
    assert f.Flatten is enn.Flatten
    assert type(enn.MultiheadAttention(4, 2).out_proj) is li.NonDynamicallyQuantizableLinear
