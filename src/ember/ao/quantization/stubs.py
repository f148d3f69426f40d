"""``QuantStub`` and ``DeQuantStub``: where a model's quantized region starts and ends;
identities until ``convert`` swaps them for ``Quantize`` and ``DeQuantize``."""

from __future__ import annotations

from ... import nn

__all__ = ["QuantStub", "DeQuantStub", "QuantWrapper"]


class _Stub(nn.Module):
    """An identity that marks a place for ``convert`` (with an optional own qconfig)."""

    def __init__(self, qconfig=None):
        super().__init__()
        if qconfig:
            self.qconfig = qconfig

    def forward(self, x):
        return x


class QuantStub(_Stub):
    """Marks where a tensor enters the quantized part of a model (an observer before
    ``convert``, ``Quantize`` after)."""


class DeQuantStub(_Stub):
    """Marks where a tensor leaves the quantized part of a model (``DeQuantize`` after
    ``convert``)."""


class QuantWrapper(nn.Module):
    """``module`` between a QuantStub and a DeQuantStub."""

    def __init__(self, module):
        super().__init__()
        qconfig = getattr(module, "qconfig", None)
        self.add_module("quant", QuantStub(qconfig))
        self.add_module("dequant", DeQuantStub(qconfig))
        self.add_module("module", module)
        self.train(module.training)

    def forward(self, X):
        return self.dequant(self.module(self.quant(X)))


del annotations  # keep dir() to torch's names
