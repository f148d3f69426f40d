"""``torch.nn.modules.batchnorm``: the batch-norm layers (defined in :mod:`.normalization`)."""

from .normalization import (  # noqa: F401
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    _BatchNorm,
    _LazyNormBase,
    _NormBase,
)
