"""``ember.distributed.fsdp``: torch's FullyShardedDataParallel (the FSDP1 wrapper API) on
MPI process groups. FSDP2's ``fully_shard`` (built on DTensor) is not here."""

from .api import (
    BackwardPrefetch,
    CPUOffload,
    FullOptimStateDictConfig,
    FullStateDictConfig,
    LocalOptimStateDictConfig,
    LocalStateDictConfig,
    MixedPrecision,
    OptimStateDictConfig,
    ShardedOptimStateDictConfig,
    ShardedStateDictConfig,
    ShardingStrategy,
    StateDictConfig,
    StateDictSettings,
    StateDictType,
)
from .fully_sharded_data_parallel import FullyShardedDataParallel, OptimStateKeyType

__all__ = ["BackwardPrefetch", "CPUOffload", "FullOptimStateDictConfig", "FullStateDictConfig",
           "FullyShardedDataParallel", "LocalOptimStateDictConfig", "LocalStateDictConfig",
           "MixedPrecision", "OptimStateDictConfig", "OptimStateKeyType",
           "ShardedOptimStateDictConfig", "ShardedStateDictConfig", "ShardingStrategy",
           "StateDictConfig", "StateDictSettings", "StateDictType"]
