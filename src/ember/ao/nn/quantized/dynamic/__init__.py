"""``torch.ao.nn.quantized.dynamic``: modules whose inputs are quantized on the fly."""

from .modules import LSTM, Linear

__all__ = ["LSTM", "Linear"]
