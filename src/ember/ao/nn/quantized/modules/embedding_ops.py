"""``torch.ao.nn.quantized.modules.embedding_ops``: the home of ``Embedding``."""

from . import Embedding  # noqa: F401

__all__ = ["Embedding"]
