"""FSDP's state dicts (full, sharded, local) and optimizer state dicts keyed by the
original parameter names."""

from __future__ import annotations

import warnings as _warnings
from collections import OrderedDict as _OrderedDict

import numpy as _np

from ..._tensor import Tensor as _Tensor
from ...autograd.grad_mode import no_grad as _no_grad
from ...nn.modules.module import Module as _Module
from ...nn.modules.module import _load_result
from .. import distributed_c10d as _c10d
from ._shard_utils import ShardedTensor, chunk_dim0
from .api import FullStateDictConfig, ShardingStrategy, StateDictType
from .fully_sharded_data_parallel import (
    FLAT_PARAM,
    _clean,
    _fsdp_modules,
    _full_params,
)


def _unit_prefixes(model) -> dict:
    """id(unit) -> the cleaned prefix of its wrapped module's names."""
    out = {}
    for name, m in model.named_modules():
        if m in _fsdp_modules(model):
            p = _clean(name + ".") if name else ""
            out[id(m)] = p
    return out


def _raw(model, prefix: str) -> _OrderedDict:
    return _Module.state_dict(model, prefix=prefix, keep_vars=True)


def _kind(model):
    """The state-dict kind and config to use: ``NO_SHARD`` units always give full ones."""
    kind, cfg = model._state_dict_type, model._state_dict_config
    if model.sharding_strategy is ShardingStrategy.NO_SHARD:
        _warnings.warn("When using ``NO_SHARD`` for ``ShardingStrategy``, full_state_dict "
                       "will be returned.", stacklevel=4)
        return StateDictType.FULL_STATE_DICT, FullStateDictConfig()
    return kind, cfg


def state_dict(model, prefix: str, keep_vars: bool) -> _OrderedDict:
    kind, cfg = _kind(model)
    out = _OrderedDict()
    out._metadata = _OrderedDict()
    units = _fsdp_modules(model)
    pg = model.process_group
    if kind is StateDictType.LOCAL_STATE_DICT:
        prefixes = _unit_prefixes(model)
        flat_keys = {}
        for m in units:
            h = m._handle
            if h is not None:
                flat_keys[prefix + prefixes[id(m)] + FLAT_PARAM] = h
        managed = {id(i.sharded) for m in units if m._handle for i in m._handle.infos}
        for k, v in _raw(model, prefix).items():
            ck = _clean(k)
            if ck in flat_keys or id(v) in managed:
                continue
            out[ck] = v if keep_vars else v.detach()
        for key, h in flat_keys.items():
            valid = max(0, min(h.shard_numel, h.unpadded - h.rank * h.shard_numel)) \
                if h.sharded else h.unpadded
            local = h.flat_param.detach()[:valid] if valid > 0 else None
            offset = h.rank * h.shard_numel if h.sharded else 0
            out[key] = ShardedTensor.from_local(local, [offset], (h.unpadded,),
                                                h.flat_param.dtype, pg)
        return out
    with _full_params(units, writeback=False):
        raw = _raw(model, prefix)
        for k, v in raw.items():
            if k.endswith(FLAT_PARAM):
                continue
            ck = _clean(k)
            is_param = getattr(v, "_is_param", False)
            if kind is StateDictType.SHARDED_STATE_DICT and is_param:
                out[ck] = chunk_dim0(v.detach(), pg)
            else:
                out[ck] = v.detach().clone() if is_param else (v if keep_vars else v.detach())
        for k, meta in getattr(raw, "_metadata", {}).items():
            out._metadata[_clean(k + ".")[:-1] if k else k] = meta
    if kind is StateDictType.FULL_STATE_DICT and getattr(cfg, "rank0_only", False) \
            and pg.rank() != 0:
        return _OrderedDict()
    return out


def load_state_dict(model, sd, strict: bool):
    kind, _ = _kind(model)
    units = _fsdp_modules(model)
    missing, unexpected, errors = [], [], []
    if kind is StateDictType.LOCAL_STATE_DICT:
        prefixes = _unit_prefixes(model)
        managed = {id(i.sharded) for m in units if m._handle for i in m._handle.infos}
        targets = _OrderedDict()
        for k, v in _raw(model, "").items():
            if not k.endswith(FLAT_PARAM) and id(v) not in managed:
                targets[_clean(k)] = v
        for m in units:
            h = m._handle
            if h is not None:
                targets[prefixes[id(m)] + FLAT_PARAM] = h
        for key, target in targets.items():
            if key not in sd:
                missing.append(key)
                continue
            value = sd[key]
            if isinstance(target, _Tensor):
                with _no_grad():
                    target.copy_(value)
                continue
            if not isinstance(value, ShardedTensor):
                errors.append(f"{key}: LOCAL_STATE_DICT expects a ShardedTensor")
                continue
            shards = value.local_shards()
            if shards:
                arr = shards[0].tensor.detach().numpy().reshape(-1)
                target.flat_param._data[:arr.size] = arr
                target.flat_param._vc.value += 1
        unexpected = [k for k in sd if k not in targets]
    else:
        with _full_params(units, writeback=True):
            targets = _OrderedDict((_clean(k), v) for k, v in _raw(model, "").items()
                                   if not k.endswith(FLAT_PARAM))
            for key, target in targets.items():
                if key not in sd:
                    missing.append(key)
                    continue
                value = sd[key]
                if isinstance(value, ShardedTensor):
                    value = value.full()
                if tuple(value.shape) != tuple(target.shape):
                    errors.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{value.shape} from checkpoint, the shape in current "
                                  f"model is {target.shape}.")
                    continue
                with _no_grad():
                    target.copy_(value)
            unexpected = [k for k in sd if k not in targets]
    return _load_result(model, missing, unexpected, errors, strict)


# ---------------------------------------------------------------- optimizer state

def _param_names(model) -> dict:
    """id(parameter the optimizer sees) -> (handle or None, original cleaned name(s))."""
    out = {}
    prefixes = _unit_prefixes(model)
    for m in _fsdp_modules(model):
        h = m._handle
        if h is None:
            continue
        base = prefixes[id(m)]
        if h.use_orig_params:
            for info in h.infos:
                out[id(info.sharded)] = (h, [info], base)
        else:
            out[id(h.flat_param)] = (h, list(h.infos), base)
    for name, p in model.named_parameters():
        if id(p) not in out:
            out[id(p)] = (None, _clean(name), "")
    return out


def _gather_flat(h, t: _Tensor) -> _np.ndarray:
    """A flat-shard-shaped state tensor, gathered to the full flat array."""
    arr = t.detach().contiguous()
    if not h.sharded:
        return arr._data
    out = _Tensor._wrap(_np.empty(h.padded, arr._data.dtype))
    _c10d.all_gather_into_tensor(out, arr, group=h.pg)
    return out._data


def _with_others_keys(h, s: dict, span: tuple[int, int]) -> dict:
    """An original parameter's optimizer state on this rank, completed with the keys the
    other ranks hold: a rank whose shard has none of the parameter leaves its gradient None
    (as torch's ``_use_sharded_grad_views``), so its optimizer keeps no state for it. Its
    part of a flat state tensor is empty; a value that is not (``step``) is the first
    holder's. Every rank then gathers the same tensors."""
    n = span[1] - span[0]
    mine = {k: ("flat", v._data.dtype.str) if isinstance(v, _Tensor) and v.dim() >= 1
            and v.numel() == n else ("value", v._data if isinstance(v, _Tensor) else v)
            for k, v in s.items()}
    everyone = [None] * h.world
    _c10d.all_gather_object(everyone, mine, group=h.pg)
    out = dict(s)
    for theirs in everyone:
        for key, (kind, v) in theirs.items():
            if key in out:
                continue
            if kind == "flat":
                out[key] = _Tensor._wrap(_np.zeros(n, _np.dtype(v)))
            else:
                out[key] = _Tensor._wrap(_np.array(v)) if isinstance(v, _np.ndarray) else v
    return out


def optim_state_dict(model, optim, osd: dict) -> dict:
    """``osd`` (the optimizer's own state dict) keyed by the original names, with each
    flat state tensor unflattened to the original parameters' full tensors (or, for a
    sharded kind, their dim-0 chunks)."""
    kind = model._state_dict_type
    names = _param_names(model)
    params = [p for g in optim.param_groups for p in g["params"]]
    index_to_names, state = {}, {}
    for idx, p in enumerate(params):
        h, infos, base = names[id(p)]
        s = osd["state"].get(idx, {})
        if h is None:
            index_to_names[idx] = [infos]
            state[infos] = dict(s)
            continue
        index_to_names[idx] = [base + i.fqn for i in infos]
        fulls = {}
        span = h.shard_span(infos[0])
        if h.use_orig_params and h.sharded:
            s = _with_others_keys(h, s, span)
        for key, v in s.items():
            flat_like = isinstance(v, _Tensor) and v.dim() >= 1 and (
                v.numel() == h.shard_numel if not h.use_orig_params
                else v.numel() == span[1] - span[0])
            if flat_like and h.use_orig_params:
                local = _np.zeros(h.shard_numel, v._data.dtype)
                local[span[0]:span[1]] = v._data.reshape(-1)
                v = _Tensor._wrap(local)
            fulls[key] = _gather_flat(h, v) if flat_like else v
        for info in infos:
            entry = {}
            for key, v in fulls.items():
                if isinstance(v, _np.ndarray):
                    t = _Tensor._wrap(v[info.offset:info.offset + info.numel]
                                      .reshape(info.shape).copy())
                    entry[key] = chunk_dim0(t, h.pg) if (
                        kind is StateDictType.SHARDED_STATE_DICT) else t
                else:
                    entry[key] = v
            state[base + info.fqn] = entry
    groups = []
    for g in osd["param_groups"]:
        ng = {k: v for k, v in g.items() if k != "params"}
        ng["params"] = [n for idx in g["params"] for n in index_to_names[idx]]
        groups.append(ng)
    return {"state": state, "param_groups": groups}


def optim_state_dict_to_load(model, optim, named: dict) -> dict:
    """The inverse of ``optim_state_dict``: flat-shard state tensors, keyed by index."""
    names = _param_names(model)
    params = [p for g in optim.param_groups for p in g["params"]]
    state, groups = {}, []
    for idx, p in enumerate(params):
        h, infos, base = names[id(p)]
        if h is None:
            if infos in named["state"]:
                state[idx] = dict(named["state"][infos])
            continue
        entries = [named["state"].get(base + i.fqn) for i in infos]
        if all(e is None for e in entries):
            continue
        out = {}
        for key in next(e for e in entries if e is not None):
            first = next(e for e in entries if e is not None)[key]
            if not isinstance(first, (_Tensor, ShardedTensor)) or (
                    isinstance(first, _Tensor) and first.dim() == 0):
                out[key] = first
                continue
            dtype = first.dtype
            full = _np.zeros(h.padded, dtype.np)
            for info, e in zip(h.infos if not h.use_orig_params else infos, entries):
                v = e[key]
                if isinstance(v, ShardedTensor):
                    v = v.full()
                full[info.offset:info.offset + info.numel] = v.detach().numpy().reshape(-1)
            lo = h.rank * h.shard_numel if h.sharded else 0
            local = full[lo:lo + h.shard_numel].copy()
            if h.use_orig_params:
                local = h._local_view(local, infos[0]).copy()
            out[key] = _Tensor._wrap(local)
        state[idx] = out
    start = 0
    for g, ng in zip(optim.param_groups, named["param_groups"]):
        new = {k: v for k, v in ng.items() if k != "params"}
        new["params"] = list(range(start, start + len(g["params"])))
        start += len(g["params"])
        groups.append(new)
    return {"state": state, "param_groups": groups}


del annotations
