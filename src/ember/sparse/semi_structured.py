"""torch's 2:4 semi-structured sparse tensors. Their kernels (CUTLASS, cuSPARSELt) run on CUDA
only; on the CPU torch refuses the conversion, and so does Ember, with torch's error."""

from __future__ import annotations

import warnings

from .._tensor import Tensor as _Tensor
from .._tensor import _disabled_torch_function_impl

__all__ = ["SparseSemiStructuredTensor", "to_sparse_semi_structured"]


class SparseSemiStructuredTensor(_Tensor):
    """A 2-d tensor stored in torch's 2:4 semi-structured format (CUDA only)."""

    _DEFAULT_ALG_ID: int = 0
    _FORCE_CUTLASS: bool = False
    _FUSE_TRANSPOSE: bool = False
    _PROTOTYPE_WARNING_SHOWN: bool = False
    _DTYPE_SHAPE_CONSTRAINTS: dict = {}
    __torch_function__ = _disabled_torch_function_impl     # (as torch's class)

    def __new__(cls, shape, packed, meta, packed_t, meta_t, compressed_swizzled_bitmask,
                fuse_transpose_cusparselt: bool = False, alg_id_cusparselt: int = 0,
                requires_grad: bool = False):
        if not cls._PROTOTYPE_WARNING_SHOWN:
            warnings.warn(
                "The PyTorch API of SparseSemiStructuredTensor is in prototype stage and will "
                "change in the near future. Please open a Github issue for features requests "
                "and see our documentation on the torch.sparse module for further information "
                "about the project.", UserWarning, stacklevel=2)
            cls._PROTOTYPE_WARNING_SHOWN = True
        if packed is None and packed_t is None:
            raise ValueError("At least one of packed or packed_t must be provided")
        raise RuntimeError("Error: SparseSemiStructuredTensor needs CUDA tensors")

    @classmethod
    def _validate_device_dim_dtype_shape(cls, original_tensor: _Tensor) -> None:
        """torch's checks of a tensor to compress; the first fails off CUDA."""
        if not original_tensor.is_cuda:
            raise RuntimeError(
                f"Error original_tensor.device= {original_tensor.device} is not supported! "
                "Only CUDA tensors are currently supported.")

    @classmethod
    def from_dense(cls, original_tensor: _Tensor, alg_id: int = _DEFAULT_ALG_ID):
        """Compress ``original_tensor`` (in the CUTLASS or cuSPARSELt subclass)."""
        raise NotImplementedError


class SparseSemiStructuredTensorCUTLASS(SparseSemiStructuredTensor):
    """The CUTLASS layout of :class:`SparseSemiStructuredTensor`."""

    @classmethod
    def from_dense(cls, original_tensor: _Tensor, alg_id: int = 0):
        """Compress ``original_tensor``: CUDA only."""
        cls._validate_device_dim_dtype_shape(original_tensor)
        raise NotImplementedError


class SparseSemiStructuredTensorCUSPARSELT(SparseSemiStructuredTensor):
    """The cuSPARSELt layout of :class:`SparseSemiStructuredTensor`."""

    @classmethod
    def from_dense(cls, original_tensor: _Tensor, alg_id: int = 0):
        """Compress ``original_tensor``: CUDA only."""
        cls._validate_device_dim_dtype_shape(original_tensor)
        raise NotImplementedError


def to_sparse_semi_structured(original_tensor: _Tensor, transposed: bool = False):
    """Convert a dense 2-d tensor to the 2:4 semi-structured format (CUDA only: raises torch's
    error for a CPU tensor)."""
    if transposed:
        warnings.warn(
            "Setting transpose from `to_sparse_semi_structured` is deprecated and will be "
            "removed in a future release. `SparseSemiStructuredTensor` only support contiguous "
            "input tensors.", FutureWarning, stacklevel=2)
    cls = (SparseSemiStructuredTensorCUTLASS if SparseSemiStructuredTensor._FORCE_CUTLASS
           else SparseSemiStructuredTensorCUSPARSELT)
    return cls.from_dense(original_tensor)


del annotations  # keep dir() to torch's names
