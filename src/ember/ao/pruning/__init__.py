"""``ember.ao.pruning``: torch's sparsifiers (masks on module weights, as
parametrizations, updated by ``step()``)."""

from .sparsifier.base_sparsifier import BaseSparsifier
from .sparsifier.nearly_diagonal_sparsifier import NearlyDiagonalSparsifier
from .sparsifier.utils import (
    FakeSparsity,
    fqn_to_module,
    get_arg_info_from_tensor_fqn,
    module_to_fqn,
)
from .sparsifier.weight_norm_sparsifier import WeightNormSparsifier

__all__ = ["BaseSparsifier", "FakeSparsity", "NearlyDiagonalSparsifier", "WeightNormSparsifier",
           "fqn_to_module", "get_arg_info_from_tensor_fqn", "module_to_fqn"]
