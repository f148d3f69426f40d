"""One way to get and set the state dicts of a model and its optimizers, whatever wraps
the model (FSDP, DDP, activation checkpointing): keys are the original module's names, and
optimizer state is keyed by those names too."""

from __future__ import annotations

import contextlib as _contextlib
from dataclasses import dataclass
from typing import Any

__all__ = ["FQNS_T", "PrimitiveType", "ValueType", "DictValueType", "ListDictValueType",
           "OptimizerStateType", "StateDictOptions", "get_model_state_dict",
           "get_optimizer_state_dict", "get_state_dict", "set_model_state_dict",
           "set_optimizer_state_dict", "set_state_dict"]

FQNS_T = set
PrimitiveType = Any
ValueType = Any
DictValueType = dict
ListDictValueType = list
OptimizerStateType = dict


@dataclass
class StateDictOptions:
    """``full_state_dict``: full tensors (else each rank's shards, for sharded models);
    ``cpu_offload``: with ``full_state_dict``, only rank 0 gets the values;
    ``ignore_frozen_params``: leave out parameters that do not require grad;
    ``strict``: ``set_*`` raises on missing or unexpected keys."""

    full_state_dict: bool = False
    cpu_offload: bool = False
    ignore_frozen_params: bool = False
    keep_submodule_prefixes: bool = True
    strict: bool = True
    broadcast_from_rank0: bool = False
    flatten_optimizer_state_dict: bool = False
    dsd_fqn_modifiers: str = "_fqn_modifiers"


_PREFIXES = ("_orig_mod.", "_checkpoint_wrapped_module.", "_fsdp_wrapped_module.")


def _clean(name: str) -> str:
    for p in _PREFIXES:
        name = name.replace(p, "")
    return name


def _inner(model):
    """The model without DDP's and ``compile``'s wrappers (their names are not kept)."""
    from ...nn.parallel.distributed import DistributedDataParallel
    while True:
        if isinstance(model, DistributedDataParallel):
            model = model.module
        elif hasattr(model, "_orig_mod") and type(model).__name__ == "OptimizedModule":
            model = model._orig_mod
        else:
            return model


def _has_fsdp(model) -> bool:
    from ..fsdp import FullyShardedDataParallel
    return any(isinstance(m, FullyShardedDataParallel) for m in model.modules())


@_contextlib.contextmanager
def _fsdp_kind(model, options: StateDictOptions):
    if not _has_fsdp(model):
        yield
        return
    from ..fsdp import (
        FullOptimStateDictConfig,
        FullStateDictConfig,
        ShardedOptimStateDictConfig,
        ShardedStateDictConfig,
        StateDictType,
    )
    if options.full_state_dict:
        args = (StateDictType.FULL_STATE_DICT,
                FullStateDictConfig(offload_to_cpu=options.cpu_offload,
                                    rank0_only=options.cpu_offload),
                FullOptimStateDictConfig(offload_to_cpu=options.cpu_offload,
                                         rank0_only=options.cpu_offload))
    else:
        args = (StateDictType.SHARDED_STATE_DICT,
                ShardedStateDictConfig(offload_to_cpu=options.cpu_offload),
                ShardedOptimStateDictConfig(offload_to_cpu=options.cpu_offload))
    from ..fsdp.fully_sharded_data_parallel import _set_state_dict_type
    prev = _set_state_dict_type(model, *args)
    try:
        yield
    finally:
        _set_state_dict_type(model, prev.state_dict_type, prev.state_dict_config,
                             prev.optim_state_dict_config)


def _frozen(model) -> set:
    return {_clean(n) for n, p in _inner(model).named_parameters() if not p.requires_grad}


def get_model_state_dict(model, *, submodules=None, options: StateDictOptions | None = None):
    """The model's state dict under the original module's names."""
    options = options or StateDictOptions()
    inner = _inner(model)
    with _fsdp_kind(inner, options):
        sd = inner.state_dict()
    out = type(sd)()
    frozen = _frozen(model) if options.ignore_frozen_params else set()
    for k, v in sd.items():
        k = _clean(k)
        if k not in frozen:
            out[k] = v
    if submodules:
        names = {id(m): n for n, m in inner.named_modules()}
        keep = [_clean(names[id(m)]) + "." for m in submodules]
        out = type(out)((k if options.keep_submodule_prefixes else k[len(p):], v)
                        for k, v in out.items() for p in keep if k.startswith(p))
    if options.full_state_dict and not _has_fsdp(inner):
        out = _gather_dtensors(out, options.cpu_offload)
    return out


def _gather_dtensors(sd: dict, rank0_only: bool) -> dict:
    """torch's ``_gather_state_dict``: DTensor values (``fully_shard``'s parameters) as
    full tensors; with ``rank0_only`` the other ranks get an empty dict."""
    from .. import distributed_c10d as _c10d
    from ..tensor import DTensor
    out = type(sd)((k, v.full_tensor() if isinstance(v, DTensor) else v)
                   for k, v in sd.items())
    if rank0_only and _c10d.is_initialized() and _c10d.get_rank() != 0:
        return type(sd)()
    return out


def _distribute_full(model, sd: dict) -> dict:
    """torch's ``_distribute_state_dict``: full tensors for the model's DTensor entries laid
    out as those are."""
    from ..tensor import DTensor, distribute_tensor
    current = model.state_dict()
    out = dict(sd)
    for k, v in sd.items():
        cur = current.get(k)
        if isinstance(cur, DTensor) and not isinstance(v, DTensor):
            out[k] = distribute_tensor(v, cur.device_mesh, cur.placements)
    return out


def set_model_state_dict(model, model_state_dict: dict, *,
                         options: StateDictOptions | None = None):
    """Load ``model_state_dict`` (original names) into the model; returns the missing and
    unexpected keys."""
    options = options or StateDictOptions()
    inner = _inner(model)
    if not _has_fsdp(inner):
        model_state_dict = _distribute_full(inner, model_state_dict)
    with _fsdp_kind(inner, options):
        return inner.load_state_dict(model_state_dict, strict=options.strict)


def _optims(optimizers) -> list:
    from ...optim.optimizer import Optimizer
    return [optimizers] if isinstance(optimizers, Optimizer) else list(optimizers)


def _names(model) -> dict:
    return {id(p): _clean(n) for n, p in _inner(model).named_parameters()}


def _init_optim_state(optim) -> None:
    """Give an optimizer that has not stepped its state (as torch does before saving): one
    ``step()`` with zero gradients and a zero learning rate, then the gradients dropped. An
    optimizer with state, or whose parameters have gradients, is left as it is."""
    if optim.state:
        return
    params = [p for group in optim.param_groups for p in group["params"]]
    if any(p.grad is not None for p in params):
        return
    from ..._factories import zeros_like
    from ..._tensor import Tensor
    for p in params:
        if p.requires_grad:
            p.grad = zeros_like(p)
    lrs = []
    for group in optim.param_groups:
        if "lr" in group:
            lrs.append(group["lr"])
            group["lr"] = group["lr"].new_tensor(0.0) if isinstance(group["lr"], Tensor) else 0.0
    optim.step(closure=None)
    for group in optim.param_groups:
        if "lr" in group:
            group["lr"] = lrs.pop(0)
    optim.zero_grad(set_to_none=True)


def get_optimizer_state_dict(model, optimizers, *, submodules=None,
                             options: StateDictOptions | None = None) -> dict:
    """The optimizers' state keyed by the original parameter names (``state`` maps a name
    to its state; each param group lists names)."""
    options = options or StateDictOptions()
    inner = _inner(model)
    state, groups = {}, []
    for optim in _optims(optimizers):
        _init_optim_state(optim)
        if _has_fsdp(inner):
            from ..fsdp import FullyShardedDataParallel
            with _fsdp_kind(inner, options):
                osd = FullyShardedDataParallel.optim_state_dict(inner, optim)
        else:
            raw = optim.state_dict()
            names = _names(model)
            params = [p for g in optim.param_groups for p in g["params"]]
            osd = {"state": {names[id(params[i])]: s for i, s in raw["state"].items()},
                   "param_groups": [dict(g, params=[names[id(params[i])] for i in g["params"]])
                                    for g in raw["param_groups"]]}
        state.update(osd["state"])
        groups.extend(osd["param_groups"])
    return {"state": state, "param_groups": groups}


def set_optimizer_state_dict(model, optimizers, optim_state_dict: dict, *,
                             options: StateDictOptions | None = None) -> None:
    """Load a state dict of ``get_optimizer_state_dict``'s form into the optimizers."""
    options = options or StateDictOptions()
    inner = _inner(model)
    for optim in _optims(optimizers):
        if _has_fsdp(inner):
            from ..fsdp import FullyShardedDataParallel
            with _fsdp_kind(inner, options):
                FullyShardedDataParallel.optim_state_dict_to_load(
                    inner, optim, optim_state_dict, load_directly=True)
            continue
        names = _names(model)
        params = [p for g in optim.param_groups for p in g["params"]]
        index = {names[id(p)]: i for i, p in enumerate(params)}
        state = {index[k]: v for k, v in optim_state_dict["state"].items() if k in index}
        groups, start = [], 0
        mine = [g for g in optim_state_dict["param_groups"]
                if any(n in index for n in g["params"])]
        for g, saved in zip(optim.param_groups, mine):
            groups.append(dict(saved, params=list(range(start, start + len(g["params"])))))
            start += len(g["params"])
        optim.load_state_dict({"state": state, "param_groups": groups})


def get_state_dict(model, optimizers, *, submodules=None,
                   options: StateDictOptions | None = None) -> tuple:
    """``(get_model_state_dict(model), get_optimizer_state_dict(model, optimizers))``."""
    return (get_model_state_dict(model, submodules=submodules, options=options),
            get_optimizer_state_dict(model, optimizers, submodules=submodules,
                                     options=options))


def set_state_dict(model, optimizers, *, model_state_dict: dict, optim_state_dict: dict,
                   options: StateDictOptions | None = None):
    """Load both state dicts; returns the model's missing and unexpected keys."""
    keys = set_model_state_dict(model, model_state_dict, options=options)
    if optim_state_dict:
        set_optimizer_state_dict(model, optimizers, optim_state_dict, options=options)
    return keys


del annotations
