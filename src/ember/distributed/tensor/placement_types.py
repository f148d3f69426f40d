"""``torch.distributed.tensor.placement_types``: how a DTensor lies on one dimension of its
device mesh: ``Shard(dim)`` (split along ``dim`` in ``chunk``'s pieces), ``Replicate()``
(whole on every rank) or ``Partial(op)`` (the ranks' values reduce by ``op`` to the tensor)."""

from __future__ import annotations

__all__ = ["Placement", "Shard", "Replicate", "Partial"]


class Placement:
    """The base of the placement types."""

    def is_shard(self, dim: int | None = None) -> bool:
        """Whether this is a ``Shard`` (on ``dim``, when given)."""
        return False

    def is_replicate(self) -> bool:
        return False

    def is_partial(self, reduce_op: str | None = None) -> bool:
        return False


class Shard(Placement):
    """Split along ``dim`` as ``torch.chunk`` splits it: rank ``i`` of the mesh dimension
    holds chunk ``i`` (the last ranks hold less, or nothing, when the size does not divide)."""

    __slots__ = ("dim",)

    def __init__(self, dim: int = 0) -> None:
        self.dim = dim

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self.dim

    def __eq__(self, other) -> bool:
        return isinstance(other, Shard) and type(other) is type(self) and other.dim == self.dim

    def __hash__(self) -> int:
        return hash(("Shard", self.dim))

    def __repr__(self) -> str:
        return f"Shard(dim={self.dim})"

    def __str__(self) -> str:
        return f"S({self.dim})"

    @staticmethod
    def local_shard_size_and_offset(curr_local_size: int, num_chunks: int,
                                    rank: int) -> tuple[int, int]:
        """The size and offset of rank ``rank``'s chunk of a dimension of ``curr_local_size``
        split ``num_chunks`` ways."""
        full = -(-curr_local_size // num_chunks) if curr_local_size else 0
        start = min(full * rank, curr_local_size)
        return min(full, curr_local_size - start), start


class Replicate(Placement):
    """The whole tensor on every rank of the mesh dimension."""

    __slots__ = ()

    def is_replicate(self) -> bool:
        return True

    def __eq__(self, other) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return -1

    def __repr__(self) -> str:
        return "Replicate()"

    def __str__(self) -> str:
        return "R"


class Partial(Placement):
    """Every rank holds a term: the tensor is their reduction by ``reduce_op`` (``"sum"``,
    ``"avg"``, ``"max"``, ``"min"``), done when it is redistributed."""

    __slots__ = ("reduce_op",)

    def __init__(self, reduce_op: str = "sum") -> None:
        self.reduce_op = reduce_op

    def is_partial(self, reduce_op: str | None = None) -> bool:
        return reduce_op is None or reduce_op == self.reduce_op

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.reduce_op == self.reduce_op

    def __hash__(self) -> int:
        return 1 + hash(self.reduce_op)

    def __repr__(self) -> str:
        return f"Partial({self.reduce_op})"

    def __str__(self) -> str:
        return f"P({self.reduce_op})"


class _MaskPartial(Partial):
    """The partial sum a lookup in row-sharded rows gives: each rank has the rows it holds
    and zeros for the others."""

    __slots__ = ("offset_shape", "offset_dim")

    def __init__(self, reduce_op: str = "sum", offset_shape=None, offset_dim: int = 0) -> None:
        super().__init__(reduce_op)
        self.offset_shape, self.offset_dim = offset_shape, offset_dim

    def __eq__(self, other) -> bool:
        return (type(other) is _MaskPartial and other.reduce_op == self.reduce_op
                and other.offset_shape == self.offset_shape
                and other.offset_dim == self.offset_dim)

    def __hash__(self) -> int:
        return 1 + hash((self.reduce_op, self.offset_shape, self.offset_dim))

    def __repr__(self) -> str:
        return (f"_MaskPartial(reduce_op={self.reduce_op}, offset_shape={self.offset_shape}, "
                f"offset_dim={self.offset_dim})")


class _NormPartial(Partial):
    """Every rank holds the ``norm_type``-norm of its piece: the tensor's norm is the
    ``norm_type``-norm of theirs (the ``p``-th powers summed)."""

    __slots__ = ("norm_type",)

    def __init__(self, norm_type=2) -> None:
        super().__init__("sum")
        self.norm_type = norm_type

    def __eq__(self, other) -> bool:
        return type(other) is _NormPartial and other.norm_type == self.norm_type

    def __hash__(self) -> int:
        return 1 + hash(("norm", self.norm_type))

    def __repr__(self) -> str:
        return f"_NormPartial({self.norm_type})"

    def __str__(self) -> str:
        return f"_NormP({self.norm_type})"


del annotations  # keep dir() to torch's names
