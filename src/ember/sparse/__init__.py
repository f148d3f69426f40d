"""``torch.sparse``: sparse COO tensors (and CSR matrices) and the operations torch runs on them.

``ember.sparse_coo_tensor(indices, values, size)`` and ``Tensor.to_sparse()`` make a sparse
COO tensor (:class:`~ember.sparse._sparse.SparseTensor`); ``ember.sparse.mm`` (sparse @ dense
or sparse) / ``addmm`` / ``sum`` / ``softmax`` / ``log_softmax``, ``ember.mm`` / ``mv`` /
``matmul`` / ``@`` / ``addmm`` with a sparse first operand, sparse + sparse, dense + sparse,
``* number``, ``t()`` and ``transpose``, the zero-preserving unary ops (``abs``, ``relu``,
``sqrt``, ``sin``, ``tanh``, ``pow`` of a number …, on the coalesced values) compute what
torch's CPU kernels do, with torch's autograd nodes. ``nn.Embedding(sparse=True)`` /
``embedding_bag(sparse=True)`` give a sparse weight gradient, which ``optim.SGD``,
``Adagrad`` and ``SparseAdam`` update as torch does. ``Tensor.to_sparse_csr()`` and
``ember.sparse_csr_tensor`` make a CSR matrix (:mod:`ember.sparse._csr`: conversions,
printing, the product with a dense matrix). CSC, BSR, BSC and batched or hybrid CSR are not
in Ember; semi-structured (2:4) sparsity is CUDA-only in torch, and raises torch's error here.
"""

from __future__ import annotations

from ._sparse import SparseTensor, addmm, log_softmax, mm, softmax, sum  # noqa: A004
from .semi_structured import (
    SparseSemiStructuredTensor,
    SparseSemiStructuredTensorCUSPARSELT,
    SparseSemiStructuredTensorCUTLASS,
    to_sparse_semi_structured,
)

__all__ = ["mm", "addmm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants",
           "SparseSemiStructuredTensor", "SparseSemiStructuredTensorCUSPARSELT",
           "SparseSemiStructuredTensorCUTLASS", "to_sparse_semi_structured"]


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


_DEPRECATED = ("torch.sparse.SparseTensor({0}*, device=) is deprecated.  Please use "
               "torch.sparse_coo_tensor({0}dtype=, device=). (Triggered internally at "
               "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:{1}.)")


_WARNED: set = set()


def _warn_once(message: str) -> None:
    """torch's ``TORCH_WARN_ONCE``: each message once per process."""
    if message not in _WARNED:
        _WARNED.add(message)
        import warnings
        warnings.warn(message, UserWarning, stacklevel=3)


class _SparseTensorType(type):
    """The legacy sparse constructors (``torch.sparse.FloatTensor(indices, values, size)``):
    a class per dtype whose instances are the sparse tensors of that dtype."""

    def __instancecheck__(cls, obj) -> bool:
        return getattr(obj, "is_sparse", False) is True and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None):
        from ._sparse import _I64, _make, _wrap, np, sparse_coo_tensor
        from .._tensor import Tensor
        if len(args) in (2, 3) and isinstance(args[0], Tensor) and isinstance(args[1], Tensor):
            form, line = ("indices, values, shape, ", 653) if len(args) == 3 \
                else ("indices, values, ", 641)
            _warn_once(_DEPRECATED.format(form, line))
            return sparse_coo_tensor(*args, check_invariants=False)
        from .._ops.util import as_size
        size = as_size(args[0] if len(args) == 1 and not isinstance(args[0], int) else args)
        _warn_once(_DEPRECATED.format("shape, ", 684))
        return _make(np.zeros((len(size), 0), _I64), _wrap(np.zeros((0,), cls.dtype.np)),
                     size, True)


def _legacy_types() -> dict:
    from .. import _dtype as D
    return {name: _SparseTensorType(name, (), {"dtype": dt, "__module__": __name__})
            for name, dt in (("FloatTensor", D.float32), ("DoubleTensor", D.float64),
                             ("HalfTensor", D.float16), ("BFloat16Tensor", D.bfloat16),
                             ("ByteTensor", D.uint8), ("CharTensor", D.int8),
                             ("ShortTensor", D.int16), ("IntTensor", D.int32),
                             ("LongTensor", D.int64))}


globals().update(_legacy_types())
del SparseTensor
del annotations  # keep dir() to torch's names
