"""``FullyShardedDataParallel`` (FSDP1's wrapper API) on Ember's MPI process groups.

Each FSDP instance is one unit: its module's parameters (less those of nested units) become
one flat parameter sharded across the group's ranks (see ``_flat_param``). The root instance
(the outermost) runs the forward of its nested units, each gathering its parameters before
its forward and, under ``FULL_SHARD``, freeing them after; backward gathers each unit again
when it reaches it and reduce-scatters its gradient. ``model.parameters()`` shows the flat
parameters (``..._fsdp_wrapped_module._flat_param``), or with ``use_orig_params=True`` the
original names as 1-D views of this rank's part of the shard, as torch shows them.
"""

from __future__ import annotations

import contextlib as _contextlib
import math as _math
import warnings as _warnings

import numpy as _np

from ... import _dtype
from ..._tensor import Tensor as _Tensor
from ...autograd import grad_mode as _grad_mode
from ...autograd.graph import saved_tensors_hooks as _saved_tensors_hooks
from ...nn.modules.module import Module as _Module
from .. import distributed_c10d as _c10d
from . import _flat_param as _fp
from . import wrap as _wrap
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

__all__ = ["FullyShardedDataParallel", "OptimStateKeyType"]

FLAT_PARAM = "_flat_param"
FSDP_WRAPPED_MODULE = "_fsdp_wrapped_module"
FSDP_PREFIX = FSDP_WRAPPED_MODULE + "."
_CHECKPOINT_PREFIX = "_checkpoint_wrapped_module."

_no_sync_handles: set = set()

_DEPRECATED_STATE_DICT_TYPE = (
    "FSDP.state_dict_type() and FSDP.set_state_dict_type() are being deprecated. Please use "
    "APIs, get_state_dict() and set_state_dict(), which can support different parallelisms, "
    "FSDP1, FSDP2, DDP. API doc: https://pytorch.org/docs/stable/distributed.checkpoint.html"
    "#torch.distributed.checkpoint.state_dict.get_state_dict .Tutorial: "
    "https://pytorch.org/tutorials/recipes/distributed_checkpoint_recipe.html .")


class OptimStateKeyType:
    """How a full optimizer state dict names its parameters: by name or by index."""

    PARAM_NAME = 1
    PARAM_ID = 2


def _clean(name: str) -> str:
    return name.replace(FSDP_PREFIX, "").replace(_CHECKPOINT_PREFIX, "")


def _fsdp_modules(module) -> list:
    """The FSDP instances in ``module``'s tree (itself included), outermost first."""
    return [m for m in module.modules() if isinstance(m, FullyShardedDataParallel)]


def _map_tensors(fn, obj):
    """``obj`` with ``fn`` applied to each tensor in it (through tuples, named tuples, lists
    and dicts)."""
    if isinstance(obj, _Tensor):
        return fn(obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_map_tensors(fn, o) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map_tensors(fn, o) for o in obj)
    if isinstance(obj, dict):
        return {k: _map_tensors(fn, v) for k, v in obj.items()}
    return obj


def _cast_inputs(dtype, obj):
    return _map_tensors(
        lambda t: t.to(dtype) if t.is_floating_point() and t.dtype != dtype else t, obj)


def _tensors(obj, out: list) -> list:
    if isinstance(obj, _Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _tensors(o, out)
    elif isinstance(obj, dict):
        for o in obj.values():
            _tensors(o, out)
    return out


def _run_in_float32(module) -> None:
    """torch's hooks on a module kept out of mixed precision: its floating-point inputs are
    cast to float32 and its outputs back to the dtype its inputs had."""
    input_dtype = []

    def cast(dtype, x):
        if not x.is_floating_point() or x.dtype == dtype:
            return x
        input_dtype[:] = [x.dtype]
        return x.to(dtype)

    def pre_hook(m, args):
        return _map_tensors(lambda t: cast(_dtype.float32, t), args)

    def post_hook(m, args, output):
        if input_dtype:
            return _map_tensors(lambda t: cast(input_dtype[0], t), output)
        return None

    module.register_forward_pre_hook(pre_hook)
    module.register_forward_hook(post_hook)


def _mixed_precision_exceptions(root, policy, mixed_precision):
    """torch's auto-wrapping under mixed precision: modules of
    ``_module_classes_to_ignore`` (batch norm by default) get units of their own, without
    mixed precision, besides what ``policy`` wraps, and run in float32."""
    classes = tuple(getattr(mixed_precision, "_module_classes_to_ignore", ()) or ())
    if not classes:
        return policy
    for m in root.modules():
        if isinstance(m, classes):
            _run_in_float32(m)

    def combined(module, recurse: bool, nonwrapped_numel: int):
        if recurse:
            return True
        if isinstance(module, classes):
            return {"mixed_precision": None}
        return _wrap._run_policy(policy, module, False, nonwrapped_numel)

    return combined


class FullyShardedDataParallel(_Module):
    """Shards a module's parameters, gradients and optimizer state across the ranks of a
    process group (torch's FSDP1 wrapper).

    Each rank runs the wrapped module on its own share of each batch; after ``backward``
    each rank's flat parameters hold its shard of the averaged gradient, so an optimizer
    built on ``fsdp_model.parameters()`` updates only its shard. ``auto_wrap_policy`` puts
    submodules in units of their own (each gathered only while it runs);
    ``sharding_strategy``, ``mixed_precision`` and ``use_orig_params`` are torch's. The
    state dict kind is set with ``FSDP.state_dict_type``; ``summon_full_params`` gives
    the full parameters for a while, ``clip_grad_norm_`` clips by the global norm.
    """

    def __init__(self, module: _Module, process_group=None, sharding_strategy=None,
                 cpu_offload: CPUOffload | None = None, auto_wrap_policy=None,
                 backward_prefetch: BackwardPrefetch | None = BackwardPrefetch.BACKWARD_PRE,
                 mixed_precision: MixedPrecision | None = None, ignored_modules=None,
                 param_init_fn=None, device_id=None, sync_module_states: bool = False,
                 forward_prefetch: bool = False, limit_all_gathers: bool = True,
                 use_orig_params: bool = False, ignored_states=None, device_mesh=None) -> None:
        super().__init__()
        if device_id is None:       # as torch on a machine without an accelerator
            raise RuntimeError("FSDP needs a non-CPU accelerator device, but no accelerator "
                               "device is detected.")
        if isinstance(device_id, int) or getattr(device_id, "type", "cpu") != "cpu":
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if device_mesh is not None:
            raise ValueError("device_mesh needs DTensor, which Ember does not have")
        pg = _c10d._pg(process_group)
        strategy = sharding_strategy or ShardingStrategy.FULL_SHARD
        if pg.size() == 1 and strategy is not ShardingStrategy.NO_SHARD:
            _warnings.warn("FSDP is switching to use `NO_SHARD` instead of "
                           f"{strategy} since the world size is 1.", stacklevel=2)
            strategy = ShardingStrategy.NO_SHARD
        elif strategy is ShardingStrategy.NO_SHARD:
            _warnings.warn("The `NO_SHARD` sharding strategy is deprecated. If having issues, "
                           "please use `DistributedDataParallel` instead.", FutureWarning,
                           stacklevel=2)
        if strategy in (ShardingStrategy.HYBRID_SHARD, ShardingStrategy._HYBRID_SHARD_ZERO2):
            # one node: the intra-node group is the whole group, the inter-node one is trivial
            strategy = (ShardingStrategy.FULL_SHARD if strategy is ShardingStrategy.HYBRID_SHARD
                        else ShardingStrategy.SHARD_GRAD_OP)
        ignored = set(ignored_modules or ())
        if ignored_states is not None:
            ignored |= {m for m in ignored_states if isinstance(m, _Module)}
        ignored_params = {p for m in ignored for p in m.parameters()}
        if ignored_states is not None:
            ignored_params |= {p for p in ignored_states if not isinstance(p, _Module)}
        kwargs = dict(process_group=pg, sharding_strategy=sharding_strategy,
                      cpu_offload=cpu_offload,
                      backward_prefetch=backward_prefetch, mixed_precision=mixed_precision,
                      param_init_fn=param_init_fn, device_id=device_id,
                      sync_module_states=sync_module_states,
                      forward_prefetch=forward_prefetch, limit_all_gathers=limit_all_gathers,
                      use_orig_params=use_orig_params, ignored_modules=ignored)
        if auto_wrap_policy is not None:
            auto_wrap_policy = _mixed_precision_exceptions(module, auto_wrap_policy,
                                                            mixed_precision)

            def wrapper(m, **overrides):
                return FullyShardedDataParallel(m, **{**kwargs, **overrides})
            _wrap._recursive_wrap(module, auto_wrap_policy, wrapper, ignored, ignored_params,
                                  only_wrap_children=True)
        self._fsdp_wrapped_module = module
        self.process_group = pg
        self.rank, self.world_size = pg.rank(), pg.size()
        self.sharding_strategy = strategy
        self.mixed_precision = mixed_precision or MixedPrecision()
        self.cpu_offload = cpu_offload or CPUOffload()
        self.backward_prefetch = backward_prefetch
        self.forward_prefetch = forward_prefetch
        self.limit_all_gathers = limit_all_gathers
        self._use_orig_params = use_orig_params
        self._ignored_modules = ignored
        self._ignored_params = ignored_params
        self._is_root = None
        self._state_dict_type = StateDictType.FULL_STATE_DICT
        self._state_dict_config = FullStateDictConfig()
        self._optim_state_dict_config = FullOptimStateDictConfig()
        self._buffers_cast = False
        self._in_summon = False
        params, shared = self._managed_params(module)
        if sync_module_states:
            from ...nn.parallel.distributed import _broadcast_coalesced
            tensors = [p for _, _, p, _ in params] + [
                b for m in self._local_modules(module) for b in m._buffers.values()
                if b is not None]
            if tensors:
                _broadcast_coalesced(tensors, pg, pg._ranks[0])
        self._handle = (_fp.FlatParamHandle(params, pg, strategy, mixed_precision,
                                            use_orig_params, module, shared)
                        if params else None)

    # ---------------------------------------------------------------- construction

    def _local_modules(self, module) -> list:
        """``module`` and its submodules that belong to this unit (not to nested units or
        ignored modules)."""
        out, stack = [], [module]
        while stack:
            m = stack.pop()
            if m in self._ignored_modules:
                continue
            out.append(m)
            stack.extend(reversed([c for c in m._modules.values() if c is not None
                                   and not isinstance(c, FullyShardedDataParallel)]))
        return out

    def _managed_params(self, module) -> list:
        """(module, name, parameter, fqn) of each parameter this unit flattens, in
        ``named_parameters`` order, shared parameters once; and id(parameter) -> the other
        (module, name) places of each shared one."""
        seen, out, shared = set(), [], {}

        def visit(m, prefix):
            if m in self._ignored_modules or isinstance(m, FullyShardedDataParallel):
                return
            for name, p in list(m._parameters.items()):
                if p is None or p in self._ignored_params:
                    continue
                if id(p) in seen:
                    shared.setdefault(id(p), []).append((m, name))
                    continue
                seen.add(id(p))
                out.append((m, name, p, prefix + name))
            for cname, c in m._modules.items():
                if c is not None:
                    visit(c, prefix + cname + ".")

        visit(module, "")
        return out, shared

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._fsdp_wrapped_module, name)

    def __getitem__(self, key):
        return self._fsdp_wrapped_module.__getitem__(key)

    @property
    def module(self) -> _Module:
        """The wrapped module."""
        return self._fsdp_wrapped_module

    @property
    def _flat_param(self):
        return self._handle.flat_param if self._handle is not None else None

    # ---------------------------------------------------------------- forward

    def _lazy_init(self) -> None:
        if self._is_root is not None:
            return
        self._is_root = True
        for m in _fsdp_modules(self):
            if m is not self:
                m._is_root = False
        for m in _fsdp_modules(self):
            h = m._handle
            if h is not None:
                h.packing = (m is not self
                             and m.sharding_strategy in _fp.RESHARD_AFTER_FORWARD
                             and h.sharded)

    def forward(self, *args, **kwargs):
        self._lazy_init()
        mp = self.mixed_precision
        if mp.param_dtype is not None and (
                mp.cast_root_forward_inputs if self._is_root else mp.cast_forward_inputs):
            args, kwargs = _cast_inputs(mp.param_dtype, (args, kwargs))
        if mp.buffer_dtype is not None and not self._buffers_cast:
            for m in self._local_modules(self._fsdp_wrapped_module):
                for k, b in m._buffers.items():
                    if b is not None and b.is_floating_point():
                        m._buffers[k] = b.to(mp.buffer_dtype)
            self._buffers_cast = True
        h = self._handle
        if h is None:
            return self._fsdp_wrapped_module(*args, **kwargs)
        grad = _grad_mode.is_grad_enabled() and h.requires_grad
        h.unshard(grad)
        if grad and h.packing:
            with _saved_tensors_hooks(_fp.pack, _fp.unpack):
                out = self._fsdp_wrapped_module(*args, **kwargs)
        else:
            out = self._fsdp_wrapped_module(*args, **kwargs)
        if not grad or h.packing:
            h.reshard()
        if grad:
            self._register_pre_backward(out)
        return out

    def _register_pre_backward(self, out) -> None:
        """Before this unit's backward runs, its parameters are gathered again and its
        modules' names point at them (for recomputation by activation checkpointing)."""
        h = self._handle
        fired = []

        def hook(g):
            if not fired:
                fired.append(True)
                if not h.views_set:
                    h.ensure_full()
                    with _grad_mode.enable_grad():
                        h.set_views(True)
            return None

        for t in _tensors(out, []):
            if t.requires_grad:
                t.register_hook(hook)

    # ---------------------------------------------------------------- no_sync

    @_contextlib.contextmanager
    def no_sync(self):
        """Within this context backward accumulates unsharded gradients locally without
        reducing them; the first backward after it reduces the sum."""
        handles = {m._handle for m in _fsdp_modules(self) if m._handle is not None}
        added = handles - _no_sync_handles
        _no_sync_handles.update(added)
        try:
            yield
        finally:
            _no_sync_handles.difference_update(added)

    # ---------------------------------------------------------------- parameters

    def named_parameters(self, *args, **kwargs):
        """torch's: the registered parameters, with the ``_fsdp_wrapped_module.`` prefixes
        cleaned away while ``summon_full_params`` is active."""
        for name, p in super().named_parameters(*args, **kwargs):
            yield (_clean(name) if self._in_summon else name), p

    def named_buffers(self, *args, **kwargs):
        """torch's: the buffers, prefixes cleaned while ``summon_full_params`` is active."""
        for name, b in super().named_buffers(*args, **kwargs):
            yield (_clean(name) if self._in_summon else name), b

    @staticmethod
    @_contextlib.contextmanager
    def summon_full_params(module, recurse: bool = True, writeback: bool = True,
                           rank0_only: bool = False, offload_to_cpu: bool = False,
                           with_grads: bool = False):
        """Within this context the FSDP units of ``module`` hold their full parameters
        (gathered in full precision) under their original names; with ``writeback`` the
        changes made to them are kept (each rank keeps its shard of them)."""
        units = _fsdp_modules(module) if recurse else (
            [module] if isinstance(module, FullyShardedDataParallel) else [])
        with _full_params(units, writeback and not rank0_only, with_grads):
            yield

    @staticmethod
    def fsdp_modules(module, root_only: bool = False) -> list:
        """The FSDP instances in ``module`` (only the outermost ones with ``root_only``)."""
        mods = _fsdp_modules(module)
        if root_only:
            inner = {id(n) for m in mods for n in _fsdp_modules(m) if n is not m}
            mods = [m for m in mods if id(m) not in inner]
        return mods

    def clip_grad_norm_(self, max_norm, norm_type=2.0):
        """Clip the gradients of every rank's shards by their global norm (computed across
        the ranks) and return that norm, as torch's ``FSDP.clip_grad_norm_``."""
        from ... import _factories
        from ... import linalg as _linalg
        from ..._ops import search as _search
        from ..._ops import shape as _shape
        self._lazy_init()
        if not self._is_root:
            raise RuntimeError("`clip_grad_norm_()` should only be called on the root FSDP "
                               "instance")
        max_norm, norm_type = float(max_norm), float(norm_type)
        sharded, replicated = [], []
        for m in _fsdp_modules(self):
            h = m._handle
            if h is None:
                continue
            grads = ([i.sharded._grad for i in h.infos if i.sharded is not None]
                     if h.use_orig_params else [h.flat_param._grad])
            (sharded if h.sharded else replicated).extend(g for g in grads if g is not None)
        for p in self.parameters():
            if not getattr(p, "_is_flat_param", False) and p._grad is not None and \
                    not any(p is i.sharded for m in _fsdp_modules(self) if m._handle
                            for i in m._handle.infos):
                replicated.append(p._grad)
        all_grads = sharded + replicated
        dtype = all_grads[0].dtype if all_grads else None

        def norm(grads):
            if not grads:
                return _factories.tensor(0.0)
            return _linalg.vector_norm(
                _shape.stack([_linalg.vector_norm(g.detach(), norm_type) for g in grads]),
                norm_type)

        local_sharded, local_rep = norm(sharded), norm(replicated)
        if norm_type == _math.inf:
            total = _search.maximum(local_sharded, local_rep)
            _c10d.all_reduce(total, op=_c10d.ReduceOp.MAX, group=self.process_group)
        else:
            total = local_sharded ** norm_type
            _c10d.all_reduce(total, group=self.process_group)
            total = (total + local_rep ** norm_type) ** (1.0 / norm_type)
        clip_coef = max_norm / (total + 1e-6)
        clip = clip_coef.clamp(max=1.0)
        for g in all_grads:
            g.mul_(clip.to(g.dtype))
        return total.to(dtype) if dtype is not None else total

    # ---------------------------------------------------------------- state dicts

    @staticmethod
    def set_state_dict_type(module, state_dict_type: StateDictType,
                            state_dict_config: StateDictConfig | None = None,
                            optim_state_dict_config: OptimStateDictConfig | None = None):
        """Set the state-dict kind of every FSDP unit in ``module``; returns the previous
        settings."""
        _warnings.warn(_DEPRECATED_STATE_DICT_TYPE, FutureWarning, stacklevel=2)
        return _set_state_dict_type(module, state_dict_type, state_dict_config,
                                    optim_state_dict_config)

    @staticmethod
    def get_state_dict_type(module) -> StateDictSettings:
        """The state-dict settings of the FSDP units in ``module``."""
        units = _fsdp_modules(module)
        if not units:
            raise RuntimeError("No FSDP instance found in the module")
        u = units[0]
        return StateDictSettings(u._state_dict_type, u._state_dict_config,
                                 u._optim_state_dict_config)

    @staticmethod
    @_contextlib.contextmanager
    def state_dict_type(module, state_dict_type: StateDictType,
                        state_dict_config: StateDictConfig | None = None,
                        optim_state_dict_config: OptimStateDictConfig | None = None):
        """Within this context ``module.state_dict()`` and ``load_state_dict`` use
        ``state_dict_type`` (``FULL_STATE_DICT``, ``SHARDED_STATE_DICT`` or
        ``LOCAL_STATE_DICT``) with its config."""
        prev = FullyShardedDataParallel.set_state_dict_type(
            module, state_dict_type, state_dict_config, optim_state_dict_config)
        try:
            yield
        finally:
            FullyShardedDataParallel.set_state_dict_type(
                module, prev.state_dict_type, prev.state_dict_config,
                prev.optim_state_dict_config)

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """The state dict of the kind ``state_dict_type`` set (full by default): full
        tensors under the original names, per-parameter shards (``ShardedTensor``) or this
        rank's flat shard (``..._flat_param``)."""
        if args:
            destination = args[0] if len(args) > 0 else destination
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        if _StateDictScope.active:
            return super().state_dict(destination=destination, prefix=prefix,
                                      keep_vars=keep_vars)
        from . import _state_dict_utils as _sdu
        with _StateDictScope():
            out = _sdu.state_dict(self, prefix, keep_vars)
        if destination is None:
            return out
        destination.update(out)
        return destination

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Load a state dict of the kind ``state_dict_type`` set."""
        from . import _state_dict_utils as _sdu
        with _StateDictScope():
            return _sdu.load_state_dict(self, state_dict, strict)

    # ---------------------------------------------------------------- optimizer state

    @staticmethod
    def optim_state_dict(model, optim, optim_state_dict=None, group=None) -> dict:
        """The optimizer's state keyed by the original parameter names, each state tensor
        full (``FULL_STATE_DICT``) or this rank's flat shard kept as is otherwise."""
        from . import _state_dict_utils as _sdu
        return _sdu.optim_state_dict(model, optim,
                                     optim_state_dict or optim.state_dict())

    @staticmethod
    def optim_state_dict_to_load(model, optim, optim_state_dict, is_named_optimizer=False,
                                 load_directly=False, group=None) -> dict:
        """The inverse of ``optim_state_dict``: a state dict ``optim.load_state_dict``
        takes."""
        from . import _state_dict_utils as _sdu
        out = _sdu.optim_state_dict_to_load(model, optim, optim_state_dict)
        if load_directly:
            optim.load_state_dict(out)
        return out


def _set_state_dict_type(module, state_dict_type, state_dict_config=None,
                         optim_state_dict_config=None):
    """``set_state_dict_type`` without its deprecation warning."""
    configs = {StateDictType.FULL_STATE_DICT: (FullStateDictConfig,
                                               FullOptimStateDictConfig),
               StateDictType.LOCAL_STATE_DICT: (LocalStateDictConfig,
                                                LocalOptimStateDictConfig),
               StateDictType.SHARDED_STATE_DICT: (ShardedStateDictConfig,
                                                  ShardedOptimStateDictConfig)}
    cfg_cls, optim_cls = configs[state_dict_type]
    state_dict_config = state_dict_config or cfg_cls()
    optim_state_dict_config = optim_state_dict_config or optim_cls()
    if type(state_dict_config) is not cfg_cls:
        raise RuntimeError(f"Expected state_dict_config of type {cfg_cls} but got "
                           f"{type(state_dict_config)}")
    if type(optim_state_dict_config) is not optim_cls:
        raise RuntimeError(f"Expected optim_state_dict_config of type {optim_cls} but "
                           f"got {type(optim_state_dict_config)}")
    units = _fsdp_modules(module)
    if not units:
        raise RuntimeError("No FSDP instance found in the module")
    prev = StateDictSettings(units[0]._state_dict_type, units[0]._state_dict_config,
                             units[0]._optim_state_dict_config)
    for m in units:
        m._state_dict_type = state_dict_type
        m._state_dict_config = state_dict_config
        m._optim_state_dict_config = optim_state_dict_config
    return prev


class _StateDictScope:
    """While a state dict is made or loaded, nested FSDP units behave as plain modules."""

    active = False

    def __enter__(self):
        self.prev = _StateDictScope.active
        _StateDictScope.active = True
        return self

    def __exit__(self, *exc):
        _StateDictScope.active = self.prev
        return False


@_contextlib.contextmanager
def _full_params(units: list, writeback: bool, with_grads: bool = False, dtype=None):
    """Gather every unit's full parameters (in full precision) and register them under their
    original names; afterwards write this rank's shard back (with ``writeback``) and restore
    the sharded state."""
    saved = []
    try:
        for m in units:
            h = m._handle
            m._in_summon = True
            if h is None:
                saved.append((m, None, None))
                continue
            h.clear_views()
            places = [(info, m_, n_) for info in h.infos for m_, n_ in info.places]
            for _, mod, name in places:
                mod.__dict__.pop(name, None)
            full = h.gather(dtype or h.param_dtype)
            if not h.sharded and full is h.flat_param._data:
                full = full.copy()
            grads = None
            if with_grads and h.flat_param._grad is not None:
                g = _Tensor._wrap(h.flat_param._grad._data.copy())
                if h.sharded:
                    out = _Tensor._wrap(_np.empty(h.padded, g._data.dtype))
                    _c10d.all_gather_into_tensor(out, g, group=h.pg)
                    g = out
                grads = g._data
            before = []
            for _, mod, name in places:
                before.append(mod._parameters.get(name))
                mod._parameters.pop(name, None)
            owner_flat = h.owner._parameters.pop(FLAT_PARAM, None)
            from ...nn.parameter import Parameter
            made = {}
            for info in h.infos:
                view = full[info.offset:info.offset + info.numel].reshape(info.shape)
                p = made[id(info)] = Parameter(_Tensor._wrap(view),
                                               requires_grad=info.requires_grad)
                if grads is not None:
                    p._grad = _Tensor._wrap(grads[info.offset:info.offset + info.numel]
                                            .reshape(info.shape))
                info.module._parameters[info.name] = p
            for info in h.infos:         # tied names after the others, as torch orders them
                for mod, name in info.places[1:]:
                    mod._parameters[name] = made[id(info)]
            saved.append((m, full, (places, before, owner_flat)))
        yield
    finally:
        for m, full, state in reversed(saved):
            m._in_summon = False
            if full is None:
                continue
            h = m._handle
            if writeback:
                h.write_back(full)
            places, before, owner_flat = state
            for (_, mod, name), p in zip(places, before):
                mod._parameters.pop(name, None)
                if p is not None:
                    mod._parameters[name] = p
            if owner_flat is not None:
                h.owner._parameters[FLAT_PARAM] = owner_flat
            h.clear_views()


del annotations
