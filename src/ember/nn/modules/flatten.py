"""``torch.nn.modules.flatten``: Flatten and Unflatten."""

from __future__ import annotations

from ..._tensor import Tensor
from .module import Module


class Flatten(Module):
    """Flatten dims ``start_dim..end_dim`` (default: all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Expand dim ``dim`` into the shape ``unflattened_size``."""

    def __init__(self, dim, unflattened_size) -> None:
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        d = self.dim % input.ndim
        sizes = list(self.unflattened_size)
        if -1 in sizes:
            known = 1
            for s in sizes:
                if s != -1:
                    known *= s
            sizes[sizes.index(-1)] = input.shape[d] // known
        return input.view(*input.shape[:d], *sizes, *input.shape[d + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


del annotations  # keep dir() to torch's names
