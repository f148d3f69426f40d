"""``torch.ao.nn.quantized.dynamic``: modules whose inputs are quantized on the fly."""

from .modules import GRU, LSTM, Linear

__all__ = ["GRU", "LSTM", "Linear"]
