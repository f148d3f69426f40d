"""``torch.ao.nn.quantized.dynamic.modules.rnn``: the home of ``LSTM``, ``GRU``."""

from . import GRU, LSTM  # noqa: F401

__all__ = ["LSTM", "GRU"]
