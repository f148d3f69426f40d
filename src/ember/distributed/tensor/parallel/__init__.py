"""``torch.distributed.tensor.parallel``: tensor parallelism: ``parallelize_module`` with
the styles that split ``nn.Linear`` and ``nn.Embedding`` column- or row-wise, sequence
parallelism, module input and output layouts, and ``loss_parallel``."""

from .api import parallelize_module
from .loss import loss_parallel
from .style import (
    ColwiseParallel,
    ParallelStyle,
    PrepareModuleInput,
    PrepareModuleInputOutput,
    PrepareModuleOutput,
    RowwiseParallel,
    SequenceParallel,
)

__all__ = ["ColwiseParallel", "ParallelStyle", "PrepareModuleInput", "PrepareModuleInputOutput",
           "PrepareModuleOutput", "RowwiseParallel", "SequenceParallel", "parallelize_module",
           "loss_parallel"]
