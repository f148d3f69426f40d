"""``ember.functional``: the functions torch keeps in ``torch.functional`` (also at the top
level): the same objects as ``ember.einsum``, ``ember.split`` …, for those ember has."""

from __future__ import annotations

from . import _ops

_NAMES = ("atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
          "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu",
          "norm", "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot",
          "unique", "unique_consecutive", "unravel_index")

globals().update({n: _ops.function(n) for n in _NAMES if _ops.function(n) is not None})
__all__ = [n for n in _NAMES if n in globals()]


del annotations  # keep dir() to torch's names
