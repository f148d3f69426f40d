"""``torch.sparse``: sparse COO tensors and the operations torch runs on them.

``ember.sparse_coo_tensor(indices, values, size)`` and ``Tensor.to_sparse()`` make a sparse
COO tensor (:class:`~ember.sparse._sparse.SparseTensor`); ``ember.sparse.mm``,
``ember.mm`` / ``matmul`` / ``@`` / ``addmm`` with a sparse first operand, ``sparse.sum``,
sparse + sparse, dense + sparse, ``* number``, ``t()`` and ``transpose`` compute what torch's
CPU kernels do, with torch's autograd nodes. Compressed layouts (CSR, CSC, BSR, BSC) and
semi-structured sparsity are not in Ember.
"""

from __future__ import annotations

from ._sparse import SparseTensor, addmm, mm, sum  # noqa: A004

__all__ = ["mm", "addmm", "sum", "check_sparse_tensor_invariants"]


class check_sparse_tensor_invariants:
    """torch's switch for the invariant checks of sparse constructors. Ember's constructors
    check what torch's do with the checks off; enabling them is accepted and checks no more.
    """

    _enabled = False

    def __init__(self, enable: bool = True):
        self.state = enable
        self.saved_state = None

    @staticmethod
    def is_enabled() -> bool:
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable() -> None:
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable() -> None:
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        self.saved_state = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = self.state
        return self

    def __exit__(self, *exc):
        check_sparse_tensor_invariants._enabled = self.saved_state
        return False


del SparseTensor
