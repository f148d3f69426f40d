"""``ember.distributed.fsdp``: torch's FullyShardedDataParallel (the FSDP1 wrapper API) and
FSDP2's ``fully_shard`` (per-parameter sharding as DTensors) on MPI process groups."""

from ._fully_shard import (
    CPUOffloadPolicy,
    FSDPModule,
    MixedPrecisionPolicy,
    OffloadPolicy,
    UnshardHandle,
    fully_shard,
    register_fsdp_forward_method,
)
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

__all__ = ["BackwardPrefetch", "CPUOffload", "CPUOffloadPolicy", "FSDPModule",
           "MixedPrecisionPolicy", "OffloadPolicy", "UnshardHandle", "fully_shard",
           "register_fsdp_forward_method", "FullOptimStateDictConfig", "FullStateDictConfig",
           "FullyShardedDataParallel", "LocalOptimStateDictConfig", "LocalStateDictConfig",
           "MixedPrecision", "OptimStateDictConfig", "OptimStateKeyType",
           "ShardedOptimStateDictConfig", "ShardedStateDictConfig", "ShardingStrategy",
           "StateDictConfig", "StateDictSettings", "StateDictType"]
