"""FSDP's configuration types (torch.distributed.fsdp.api): sharding strategies, backward
prefetching, mixed precision, CPU offload and the state-dict kinds with their configs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from enum import Enum, auto

from ...nn.modules.batchnorm import _BatchNorm

__all__ = ["ShardingStrategy", "BackwardPrefetch", "MixedPrecision", "CPUOffload",
           "StateDictType", "StateDictConfig", "FullStateDictConfig", "LocalStateDictConfig",
           "ShardedStateDictConfig", "OptimStateDictConfig", "FullOptimStateDictConfig",
           "LocalOptimStateDictConfig", "ShardedOptimStateDictConfig", "StateDictSettings"]


class ShardingStrategy(Enum):
    """How FSDP shards: ``FULL_SHARD`` (parameters, gradients and optimizer state sharded;
    parameters freed after forward and gathered again for backward), ``SHARD_GRAD_OP``
    (parameters kept gathered from forward until after backward), ``NO_SHARD`` (replicated,
    gradients all-reduced, as DDP). The hybrid strategies shard within a node and replicate
    across nodes."""

    FULL_SHARD = auto()
    SHARD_GRAD_OP = auto()
    NO_SHARD = auto()
    HYBRID_SHARD = auto()
    _HYBRID_SHARD_ZERO2 = auto()


class BackwardPrefetch(Enum):
    """When backward gathers the next unit's parameters (an overlap setting: the results
    are the same either way)."""

    BACKWARD_PRE = auto()
    BACKWARD_POST = auto()


@dataclass
class MixedPrecision:
    """Low-precision forward/backward: ``param_dtype`` for the gathered parameters (and the
    computation), ``reduce_dtype`` for the gradient reduction (``param_dtype`` when None),
    ``buffer_dtype`` for buffers. The sharded parameters stay in full precision."""

    param_dtype: object = None
    reduce_dtype: object = None
    buffer_dtype: object = None
    keep_low_precision_grads: bool = False
    cast_forward_inputs: bool = False
    cast_root_forward_inputs: bool = True
    _module_classes_to_ignore: Sequence = (_BatchNorm,)


@dataclass
class CPUOffload:
    """Keep the sharded parameters on the CPU between uses (they always are here)."""

    offload_params: bool = False


class StateDictType(Enum):
    """Which ``state_dict`` an FSDP model gives: the full parameters under their original
    names, each rank's local flat shard, or each original parameter sharded along dim 0."""

    FULL_STATE_DICT = auto()
    LOCAL_STATE_DICT = auto()
    SHARDED_STATE_DICT = auto()


@dataclass
class StateDictConfig:
    """Settings shared by the state-dict kinds: ``offload_to_cpu`` moves values to the CPU."""

    offload_to_cpu: bool = False


@dataclass
class FullStateDictConfig(StateDictConfig):
    """``FULL_STATE_DICT``'s settings: with ``rank0_only`` only rank 0 gets the values
    (the others an empty dict)."""

    rank0_only: bool = False


@dataclass
class LocalStateDictConfig(StateDictConfig):
    """``LOCAL_STATE_DICT``'s settings."""


@dataclass
class ShardedStateDictConfig(StateDictConfig):
    """``SHARDED_STATE_DICT``'s settings."""

    _use_dtensor: bool = False


@dataclass
class OptimStateDictConfig:
    """Settings shared by the optimizer state-dict kinds."""

    offload_to_cpu: bool = True


@dataclass
class FullOptimStateDictConfig(OptimStateDictConfig):
    """Full optimizer state dict settings."""

    rank0_only: bool = False


@dataclass
class LocalOptimStateDictConfig(OptimStateDictConfig):
    """Local optimizer state dict settings."""

    offload_to_cpu: bool = False


@dataclass
class ShardedOptimStateDictConfig(OptimStateDictConfig):
    """Sharded optimizer state dict settings."""

    _use_dtensor: bool = False


@dataclass
class StateDictSettings:
    """What ``FSDP.state_dict_type`` set: the kind and its two configs."""

    state_dict_type: StateDictType
    state_dict_config: StateDictConfig = _field(default_factory=StateDictConfig)
    optim_state_dict_config: OptimStateDictConfig = _field(default_factory=OptimStateDictConfig)


del annotations
