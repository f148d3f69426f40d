"""``fully_shard`` (FSDP2): per-parameter sharding of a module over a device mesh, with the
sharded parameters as DTensors.

``fully_shard(module)`` puts the parameters of ``module`` (less those of submodules sharded
before it) in one group. Each parameter becomes a ``DTensor`` parameter laid out
``Shard(0)`` over the mesh: rank ``r`` keeps ``torch.chunk(param, world)[r]`` (the last
chunks shorter or empty, as torch's dim-0 padding leaves them), so an optimizer built on
``model.parameters()`` steps the local shards. A forward pre-hook all-gathers the group (in
``param_dtype`` under a ``MixedPrecisionPolicy``) and registers the unsharded parameters on
the modules; a forward hook registers the sharded ones again (``reshard_after_forward``).
Backward reduce-scatters the unsharded gradients (mean over the ranks, divided as torch
divides them) into the sharded parameters' DTensor gradients, accumulating into gradients
already there.

The module's class becomes ``FSDP<Orig>`` (a subclass of :class:`FSDPModule` and the
original class), whose methods control resharding and gradient synchronisation.
"""

from __future__ import annotations

import functools as _functools
from dataclasses import dataclass

import numpy as _np

from ..._tensor import Tensor as _Tensor
from ...autograd import grad_mode as _grad_mode
from ...autograd.function import Function as _Function
from ...nn.modules.module import Module as _Module
from ...nn.parameter import Parameter as _Parameter
from .. import distributed_c10d as _c10d
from ..device_mesh import DeviceMesh as _DeviceMesh
from ..device_mesh import init_device_mesh as _init_device_mesh
from ..tensor._api import DTensor as _DTensor
from ..tensor._api import DTensorSpec as _DTensorSpec
from ..tensor.placement_types import Replicate as _Replicate
from ..tensor.placement_types import Shard as _Shard
from ._flat_param import predivide_factor as _predivide_factor
from .fully_sharded_data_parallel import _cast_inputs, _tensors

__all__ = ["CPUOffloadPolicy", "FSDPModule", "MixedPrecisionPolicy", "OffloadPolicy",
           "UnshardHandle", "fully_shard", "register_fsdp_forward_method"]


@dataclass(frozen=True)
class MixedPrecisionPolicy:
    """Module-level mixed precision: ``param_dtype`` for the unsharded parameters (the
    all-gather and the forward/backward computation), ``reduce_dtype`` for the gradient
    reduction (``param_dtype`` when None), ``output_dtype`` for the forward's floating-point
    outputs; ``cast_forward_inputs`` casts the forward's floating-point inputs to
    ``param_dtype``. The sharded parameters keep their dtype."""

    param_dtype: object = None
    reduce_dtype: object = None
    output_dtype: object = None
    cast_forward_inputs: bool = True


@dataclass
class OffloadPolicy:
    """No offloading (the default ``offload_policy``)."""


@dataclass
class CPUOffloadPolicy(OffloadPolicy):
    """Keep the sharded parameters, their gradients and the optimizer state in CPU memory
    (where every tensor is here; ``pin_memory`` is accepted)."""

    pin_memory: bool = True


_cls_to_fsdp_cls: dict = {}
_STATE = "_fsdp_state"      # the module's __dict__ entry that holds its FSDPState


def _state_of(module):
    return module.__dict__.get(_STATE)


def _cast(dtype, obj):
    return obj if dtype is None else _cast_inputs(dtype, obj)


def _register_hooks(state) -> None:
    """The state's forward hooks on each of its modules (pre-hook first of all)."""
    for m in state.modules:
        m.register_forward_pre_hook(_functools.partial(_pre_forward, state), prepend=True,
                                    with_kwargs=True)
        m.register_forward_hook(_functools.partial(_post_forward, state))
        m.register_state_dict_pre_hook(lambda module, prefix, keep_vars: state.reshard())
        m.register_load_state_dict_pre_hook(lambda module, *args: state.reshard())


class _FSDPParam:
    """One managed parameter: its places on the modules, its sharded DTensor parameter and
    the layout of its shard in the group's collectives."""

    def __init__(self, places: list, param, mesh) -> None:
        self.places = places                       # [(module, name)], tied names included
        self.orig_dtype = param.dtype
        self.shape = tuple(param.shape)
        if not self.shape:
            raise ValueError(f"fully_shard doesn't support scalar parameters. Change "
                             f"{places[0][1]} to a 1D tensor with numel equal to 1.")
        self.orig = param                          # the parameter it replaced
        world, rank = mesh.size(mesh.ndim - 1), mesh.get_local_rank(mesh.ndim - 1)
        rows = self.shape[0]
        self.padded_rows = -(-rows // world)
        self.row_numel = int(_np.prod(self.shape[1:], dtype=_np.int64))
        self.shard_numel = self.padded_rows * self.row_numel
        lo = min(rank * self.padded_rows, rows)
        hi = min(lo + self.padded_rows, rows)
        self.local_rows = hi - lo
        local = _Tensor._wrap(_np.ascontiguousarray(param._data[lo:hi]).copy())
        local.requires_grad_(param.requires_grad)
        spec = _DTensorSpec(mesh, (_Replicate(),) * (mesh.ndim - 1) + (_Shard(0),), self.shape)
        self.sharded = _DTensor._as_parameter(_DTensor._make(local, spec),
                                              requires_grad=param.requires_grad)
        self.unsharded_grad = None      # accumulated while gradient sync is off

    @property
    def local(self) -> _Tensor:
        return self.sharded._local_tensor

    def register(self, tensor) -> None:
        for module, name in self.places:
            module._parameters[name] = tensor


class _Unshard(_Function):
    """The group's unsharded parameters as functions of the local shards: the backward is
    the gradient reduction, which writes the sharded gradients itself."""

    @staticmethod
    def forward(ctx, group, *locals_):
        ctx.group = group
        ctx.set_materialize_grads(False)
        return tuple(_Tensor._wrap(a) for a in group.gathered)

    @staticmethod
    def backward(ctx, *grads):
        ctx.group.post_backward(grads)
        return (None,) * (1 + len(grads))


class _ParamGroup:
    """The parameters of one ``fully_shard`` call, gathered and reduced together."""

    def __init__(self, params: list, mesh, mp_policy, reshard_after_forward) -> None:
        self.params, self.mesh = params, mesh
        self.pg = mesh.get_group(mesh.ndim - 1)              # the shard dimension
        self.world = mesh.size(mesh.ndim - 1)
        self.replicate_pg = mesh.get_group(0) if mesh.ndim == 2 else None    # HSDP
        self.all_reduce_grads = True
        self.partial = None            # HSDP: reduce-scattered gradients awaiting all-reduce
        self.mp = mp_policy
        self.set_dtypes()
        self.reshard_after_forward = bool(reshard_after_forward)
        self.reshard_after_backward = True
        self.reduce_grads = True
        self.divide_factor = None
        self.force_sum = False
        self.gathered = None           # the unsharded arrays while unsharded
        self.unsharded = None          # the tensors registered on the modules
        self.linked = False            # whether those lead back to the shards (autograd)
        self.versions = None           # the shards' versions when they were linked
        self.parked = False            # resharded after forward, the linked ones kept aside
        self.sharded_registered = True

    def set_dtypes(self) -> None:
        """torch's ``init_dtype_attrs``: no cast to the dtype the parameters have already,
        no reduction dtype apart when it is ``param_dtype``."""
        orig = self.params[0].orig_dtype if self.params else None
        param_dtype = self.mp.param_dtype
        self.param_dtype = None if param_dtype == orig else param_dtype
        reduce = self.mp.reduce_dtype
        self.reduce_dtype = None if reduce == param_dtype else reduce

    # ----------------------------------------------------------- all-gather
    def unshard(self) -> None:
        """All-gather the group's shards (in ``param_dtype``), once until resharded."""
        if self.gathered is not None or not self.params:
            return
        pieces = []
        for p in self.params:
            local = p.local.detach()
            if self.param_dtype is not None:
                local = local.to(self.param_dtype)
            piece = _np.zeros(p.shard_numel, local._data.dtype)
            piece[:local.numel()] = local._data.reshape(-1)
            pieces.append(piece)
        send = _np.concatenate(pieces)
        if self.world == 1:
            out = send.reshape(1, -1)
        else:
            out_t = _Tensor._wrap(_np.empty(send.size * self.world, send.dtype))
            _c10d.all_gather_into_tensor(out_t, _Tensor._wrap(send), group=self.pg)
            out = out_t._data.reshape(self.world, -1)
        gathered, offset = [], 0
        for p in self.params:
            block = out[:, offset:offset + p.shard_numel]
            offset += p.shard_numel
            full = block.reshape(self.world * p.padded_rows, *p.shape[1:])[:p.shape[0]]
            gathered.append(_np.ascontiguousarray(full))
        self.gathered = gathered

    def register_unsharded(self) -> None:
        """Point the modules' names at the unsharded parameters (differentiable back to the
        shards when grad mode is on)."""
        if self.parked and self._versions() != self.versions:
            self.gathered = self.unsharded = None       # the shards changed since
            self.linked = False
        self.parked = self.sharded_registered = False
        self.unshard()
        if not self.params:
            return
        grad = [p for p in self.params if p.local.requires_grad]
        if grad and _grad_mode.is_grad_enabled() and self.linked:
            # the tensors of an earlier forward whose backward has not run yet (torch's
            # unsharded parameters are the same leaves from one forward to the next): one
            # backward reduces their gradients once, summed
            for p, t in zip(self.params, self.unsharded):
                p.register(t)
            return
        self.linked = bool(grad) and _grad_mode.is_grad_enabled()
        if self.linked:
            self.versions = self._versions()
            outs = _Unshard.apply(self, *(p.local for p in self.params))
            if not isinstance(outs, tuple):
                outs = (outs,)
            outs = [o if p.local.requires_grad else o.detach()
                    for o, p in zip(outs, self.params)]
            for o in outs:
                # torch registers the unsharded parameters as Parameters; these are the
                # gathered values still linked to the shards for the gradient reduction
                o.__class__ = _Parameter
        else:
            outs = [_Parameter(_Tensor._wrap(a), requires_grad=p.local.requires_grad)
                    for a, p in zip(self.gathered, self.params)]
        self.unsharded = outs
        for p, t in zip(self.params, outs):
            p.register(t)

    def register_gathered(self) -> None:
        """Gather (if need be) and register the unsharded values as Parameters of their
        own, not linked to the shards."""
        self.unshard()
        self.linked = self.parked = self.sharded_registered = False
        for p, a in zip(self.params, self.gathered or ()):
            p.register(_Parameter(_Tensor._wrap(a), requires_grad=p.local.requires_grad))

    def reshard(self, after_forward: bool = False) -> None:
        """Register the sharded parameters again and drop the unsharded ones; after a
        forward whose backward is to come, the linked ones are kept aside for a later
        forward before that backward (while the shards stay as they were)."""
        for p in self.params:
            p.register(p.sharded)
        self.sharded_registered = True
        if after_forward and self.linked:
            self.parked = True
            return
        self.gathered = self.unsharded = None
        self.linked = self.parked = False

    def _versions(self) -> list:
        return [p.local._vc.value for p in self.params]

    # ----------------------------------------------------------- reduce-scatter
    def post_backward(self, grads) -> None:
        with_grad, unsharded = [], []
        for p, g in zip(self.params, grads):
            if g is not None:
                g = g.detach()
                if p.unsharded_grad is not None:
                    g = p.unsharded_grad + g.to(p.unsharded_grad.dtype)
                    p.unsharded_grad = None
            elif p.unsharded_grad is not None:
                g, p.unsharded_grad = p.unsharded_grad, None
            if g is None:
                continue
            if not self.reduce_grads:
                p.unsharded_grad = (g.to(self.reduce_dtype) if self.reduce_dtype is not None
                                    else g)
                continue
            with_grad.append(p)
            unsharded.append(g)
        if self.reshard_after_backward:
            self.reshard()
        if with_grad:
            self._reduce(with_grad, unsharded)

    def _reduce(self, params: list, grads: list) -> None:
        """torch's ``foreach_reduce``: the gradients, each padded on dim 0 and cut in one
        chunk per rank, reduce-scattered in ``reduce_dtype`` as one flat tensor."""
        dtype = self.reduce_dtype or grads[0].dtype
        rows = []
        for p, g in zip(params, grads):
            g = g.to(dtype)
            block = _np.zeros((self.world, p.shard_numel), g._data.dtype)
            block.reshape(-1)[:g.numel()] = g._data.reshape(-1)
            rows.append(block)
        flat = _Tensor._wrap(_np.concatenate(rows, axis=1).reshape(-1))
        pre, post, rs_op, ar_op = self._divide_factors(dtype)
        if pre is not None and pre != 1:
            flat.div_(pre)
        if self.world > 1:
            out = _Tensor._wrap(_np.empty(flat.numel() // self.world, flat._data.dtype))
            if isinstance(rs_op, float):          # PREMUL_SUM(rs_op)
                flat.mul_(rs_op)
                rs_op = _c10d.ReduceOp.SUM
            _c10d.reduce_scatter_tensor(out, flat, op=rs_op, group=self.pg)
        else:
            out = flat / self.divide_factor if self.divide_factor is not None else flat
        if self.replicate_pg is not None:
            if not self.all_reduce_grads:       # HSDP: reduce-scattered, not yet all-reduced
                self.partial = out if self.partial is None else self.partial + out
                return
            if self.partial is not None:
                out = out + self.partial
                self.partial = None
            _c10d.all_reduce(out, op=ar_op, group=self.replicate_pg)
        if post is not None and post != 1:
            out.div_(post)
        if out.dtype != params[0].orig_dtype:
            out = out.to(params[0].orig_dtype)
        offset = 0
        for p in params:
            local = out[offset:offset + p.local_rows * p.row_numel].view(
                p.local_rows, *p.shape[1:])
            offset += p.shard_numel
            if p.local._grad is not None:
                p.local._grad.add_(local)
            else:
                p.local._grad = local.clone()
            for hook in (p.sharded.__dict__.get("_post_accumulate_grad_hooks") or {}).values():
                hook(p.sharded)

    def _divide_factors(self, dtype):
        """(pre-divide, post-divide, reduce-scatter op, all-reduce op) as torch's
        ``_get_gradient_divide_factors`` picks them; a float reduce-scatter op ``f`` is
        ``PREMUL_SUM(f)``."""
        from ... import _dtype
        SUM, AVG = _c10d.ReduceOp.SUM, _c10d.ReduceOp.AVG
        factor = self.divide_factor
        overflow_risk = dtype not in (_dtype.float32, _dtype.bfloat16)
        dp_size = self.world * (self.replicate_pg.size() if self.replicate_pg else 1)
        if not overflow_risk and not self.force_sum:
            if factor is None:
                return (None, None, SUM, SUM) if dp_size == 1 else (None, None, AVG, AVG)
            return None, None, (AVG if factor == self.world else 1 / factor), SUM
        if factor is None:
            factor = float(dp_size)
        if overflow_risk:
            pre = _predivide_factor(factor)
            return pre, factor / pre, SUM, SUM
        return None, factor, SUM, SUM


class FSDPState:
    """What ``fully_shard`` attaches to a module: its modules, its parameter group and
    whether it is the root (the first whose forward runs)."""

    def __init__(self, modules: list, mesh, mp_policy, offload_policy, auto_reshard) -> None:
        self.modules = modules
        self.mesh = mesh
        self.mp = mp_policy
        self.offload_policy = offload_policy
        self.auto_reshard = auto_reshard
        self.is_root = None
        self.groups: list = []
        self.to_run: set = set()     # ids of the modules whose forward is still to run

    def lazy_init(self) -> None:
        if self.is_root is not None:
            return
        self.is_root = True
        if len(self.modules) > 1:
            raise RuntimeError(f"FSDP requires a single root module but got {self.modules}")
        root = self.modules[0]
        states = []
        for name, m in root.named_modules():
            st = _state_of(m)
            if st is None:
                continue
            if st is not self:
                if st not in states and st.is_root is not None:
                    raise RuntimeError(f"FSDP state has already been lazily initialized for "
                                       f"{name}\nFSDP requires running forward through the "
                                       f"root module first")
                st.is_root = False
            if st not in states:
                states.append(st)
        if self.auto_reshard:
            for g in self.groups:
                g.reshard_after_forward = False
        names = {id(p): n for n, p in root.named_parameters()}
        seen = set()
        for st in states:
            for g in st.groups:
                for p in g.params:
                    if id(p.orig) in seen:
                        raise ValueError(
                            f"Parameter '{names.get(id(p.sharded))}' is shared with a parameter "
                            f"already managed by another FSDP group. For shared/tied "
                            f"parameters, use fully_shard([module_a, module_b]) to place them "
                            f"in the same FSDP group.")
                    seen.add(id(p.orig))

    def reshard(self) -> None:
        for g in self.groups:
            g.reshard()


def _pre_forward(state, module, args, kwargs):
    state.lazy_init()
    if not state.to_run:
        state.to_run = {id(m) for m in state.modules}
    if state.mp.cast_forward_inputs and state.mp.param_dtype is not None:
        args, kwargs = _cast(state.mp.param_dtype, (args, kwargs))
    for g in state.groups:
        g.register_unsharded()
    return args, kwargs


def _post_forward(state, module, args, output):
    state.to_run.discard(id(module))
    if not state.to_run:        # (grouped modules: once every one of them has run)
        for g in state.groups:
            if g.reshard_after_forward:
                g.reshard(after_forward=True)
    if _grad_mode.is_grad_enabled():
        _register_pre_backward(state, output)
    return _cast(state.mp.output_dtype, output)


def _register_pre_backward(state, output) -> None:
    """Before backward reaches the module, its unsharded parameters are registered again,
    for what recomputes the forward in backward (activation checkpointing)."""
    def hook(grad):
        for g in state.groups:
            if g.sharded_registered:
                g.register_gathered()
        return None

    for t in _tensors(output, []):
        if t.requires_grad:
            t.register_hook(hook)


class UnshardHandle:
    """What ``unshard(async_op=True)`` returns: ``wait()`` until the all-gather is done
    (here it is done already)."""

    def wait(self) -> None:
        """Wait for the unshard (a no-op: it has completed)."""
        return None


class FSDPModule:
    """The class ``fully_shard`` mixes into a module's class (as ``FSDP<Orig>``): control
    over the module's sharded parameter group."""

    def __new__(cls, *args, **kwargs):
        # indexing a container builds ``type(self)(...)``: build the original class
        orig = cls.__mro__[2]
        self = orig.__new__(orig)
        self.__init__(*args, **kwargs)
        return self

    def _get_fsdp_state(self) -> FSDPState:
        state = _state_of(self)
        if state is None:
            raise AssertionError(f"No FSDP state found on {self}")
        return state

    def _fsdp_modules(self, recurse: bool) -> list:
        return ([m for m in self.modules() if isinstance(m, FSDPModule)] if recurse
                else [self])

    def reshard(self) -> None:
        """Register the sharded parameters again, freeing the unsharded ones (not
        recursive)."""
        self._get_fsdp_state().reshard()

    def unshard(self, async_op: bool = False):
        """All-gather the parameters and register the unsharded ones (not recursive);
        with ``async_op`` give an :class:`UnshardHandle`."""
        for g in self._get_fsdp_state().groups:
            g.register_gathered()
        handle = UnshardHandle()
        return handle if async_op else None

    def set_is_last_backward(self, is_last_backward: bool) -> None:
        """Whether the next backward is the last of the step (microbatching; reductions
        complete as they run here)."""
        self._get_fsdp_state().is_last_backward = is_last_backward

    def set_requires_gradient_sync(self, requires_gradient_sync: bool, *,
                                   recurse: bool = True) -> None:
        """Whether backward reduces the gradients; without, they accumulate unsharded
        (in ``reduce_dtype`` when set) until a backward with sync (``no_sync`` of FSDP1)."""
        for m in self._fsdp_modules(recurse):
            for g in m._get_fsdp_state().groups:
                g.reduce_grads = g.all_reduce_grads = requires_gradient_sync

    def set_requires_all_reduce(self, requires_all_reduce: bool, *,
                                recurse: bool = True) -> None:
        """HSDP: whether backward all-reduces the reduce-scattered gradients across the
        replicas; without, they accumulate until a backward that does."""
        for m in self._fsdp_modules(recurse):
            for g in m._get_fsdp_state().groups:
                g.all_reduce_grads = requires_all_reduce

    def set_reshard_after_forward(self, reshard_after_forward: bool,
                                  recurse: bool = True) -> None:
        """Whether to reshard the parameters after forward (overrides the root's
        default of keeping them)."""
        if not isinstance(reshard_after_forward, bool):
            raise ValueError(f"reshard_after_forward should be a bool, got "
                             f"{type(reshard_after_forward)}")
        for m in self._fsdp_modules(recurse):
            state = m._get_fsdp_state()
            state.auto_reshard = False
            for g in state.groups:
                g.reshard_after_forward = reshard_after_forward

    def set_reshard_after_backward(self, reshard_after_backward: bool, *,
                                   recurse: bool = True) -> None:
        """Whether to reshard the parameters after backward."""
        for m in self._fsdp_modules(recurse):
            for g in m._get_fsdp_state().groups:
                g.reshard_after_backward = reshard_after_backward

    def set_modules_to_forward_prefetch(self, modules: list) -> None:
        """Modules whose all-gather to start after this one's in forward (an overlap
        setting: results are the same)."""
        _assert_all_fsdp_modules(modules)
        self._get_fsdp_state().forward_prefetch = list(modules)

    def set_modules_to_backward_prefetch(self, modules: list) -> None:
        """Modules whose all-gather to start after this one's in backward (an overlap
        setting: results are the same)."""
        _assert_all_fsdp_modules(modules)
        self._get_fsdp_state().backward_prefetch = list(modules)

    def set_post_optim_event(self, event) -> None:
        """The event the next all-gathers wait on (there are no streams here)."""
        self._get_fsdp_state().post_optim_event = event

    def set_gradient_divide_factor(self, factor: float) -> None:
        """Divide the summed gradients by ``factor`` instead of the world size."""
        for g in self._get_fsdp_state().groups:
            g.divide_factor = factor

    def set_reduce_scatter_divide_factor(self, factor: float) -> None:
        """Deprecated name of :meth:`set_gradient_divide_factor`."""
        self.set_gradient_divide_factor(factor)

    def set_force_sum_reduction_for_comms(self, enable: bool) -> None:
        """Reduce with SUM and divide separately (as for fp16) instead of averaging."""
        for g in self._get_fsdp_state().groups:
            g.force_sum = enable

    def set_unshard_in_backward(self, unshard_in_backward: bool) -> None:
        """Whether backward needs the unsharded parameters (accepted)."""
        self._get_fsdp_state().unshard_in_backward = unshard_in_backward

    def reset_iter_state(self) -> None:
        """After a failed forward or backward: reshard every group and drop unreduced
        gradients."""
        for m in self.modules():
            if isinstance(m, FSDPModule):
                for g in m._get_fsdp_state().groups:
                    g.reshard()
                    for p in g.params:
                        p.unsharded_grad = None

    def _apply(self, fn, recurse: bool = True):
        # ``to()``/``double()`` … make new sharded parameters: the group takes them as its own
        state = self._get_fsdp_state()
        state.reshard()
        out = super()._apply(fn, recurse)
        for g in state.groups:
            for p in g.params:
                module, name = p.places[0]
                new = module._parameters.get(name)
                if isinstance(new, _DTensor) and new is not p.sharded:
                    p.sharded = new
                    p.orig_dtype = new.dtype
                    p.register(new)
            g.set_dtypes()
        return out

    def __deepcopy__(self, memo):
        raise AssertionError("FSDP does not support deepcopy. Please use state dict for "
                             "serialization.")


def _assert_all_fsdp_modules(modules) -> None:
    for m in modules:
        if not isinstance(m, FSDPModule):
            raise ValueError(f"Expects FSDPModule but got {type(m)}: {m}")


def _fsdp_class(cls) -> type:
    new = _cls_to_fsdp_cls.get(cls)
    if new is None:
        new = type(f"FSDP{cls.__name__}", (FSDPModule, cls), {})
        _cls_to_fsdp_cls[cls] = new
    return new


def _managed_params(modules: list, ignored: set) -> tuple:
    """The parameters of ``modules``' trees not in other FSDP states nor ignored, each once,
    with every (module, name) that holds it."""
    places: dict = {}
    order: list = []
    seen_modules: set = set()

    def visit(m, top: bool) -> None:
        if id(m) in seen_modules or (not top and _state_of(m) is not None):
            return
        seen_modules.add(id(m))
        for name, p in m._parameters.items():
            if p is None or p in ignored:
                continue
            if id(p) not in places:
                places[id(p)] = (p, [])
                order.append(id(p))
            places[id(p)][1].append((m, name))
        for c in m._modules.values():
            if c is not None:
                visit(c, False)

    for m in modules:
        visit(m, True)
    return [places[i] for i in order]


def _default_mesh() -> _DeviceMesh:
    if not _c10d.is_initialized():
        raise ValueError("FSDP requires a default process group (init_process_group) or a "
                         "mesh")
    return _init_device_mesh("cpu", (_c10d.get_world_size(),))


def fully_shard(module, *, mesh: _DeviceMesh | None = None, reshard_after_forward=None,
                shard_placement_fn=None, mp_policy: MixedPrecisionPolicy = MixedPrecisionPolicy(),
                offload_policy: OffloadPolicy = OffloadPolicy(),  # noqa: B008 (torch's default)
                ignored_params=None,
                dp_mesh_dims=None):
    """Shard ``module``'s parameters (those not already sharded by a call on a submodule)
    over ``mesh`` (the world by default; a 2-D mesh replicates over its first dimension and
    shards over its second, HSDP) as ``Shard(0)`` DTensors, gathered
    around its forward and reduce-scattered in backward; returns ``module``, whose class is
    now ``FSDP<Orig>``. Call it bottom-up: on the layers, then on the root.

    ``reshard_after_forward`` (None: True but for the root) frees the unsharded parameters
    after forward; ``mp_policy`` sets mixed precision, ``offload_policy`` is accepted (all
    tensors live in CPU memory), ``ignored_params`` stay as they are."""
    from ...nn.modules.container import ModuleDict, ModuleList
    modules = [module] if isinstance(module, _Module) else list(module)
    for m in modules:
        if isinstance(m, (ModuleList, ModuleDict)):
            raise ValueError(f"fully_shard does not support containers that do not implement "
                             f"forward: {m}")
        if _state_of(m) is not None:
            raise AssertionError(f"Each distinct composable distributed API can only be "
                                 f"applied to a module once. fully_shard has already been "
                                 f"applied to the following module:\n{m}")
    mesh = mesh or _default_mesh()
    if mesh.ndim not in (1, 2):
        raise ValueError(f"fully_shard expects a 1D or 2D DeviceMesh but got {mesh}")
    if shard_placement_fn is not None or dp_mesh_dims is not None:
        raise NotImplementedError("fully_shard: shard_placement_fn and dp_mesh_dims are not "
                                  "supported")
    if isinstance(reshard_after_forward, int) and not isinstance(reshard_after_forward, bool):
        reshard_after_forward = True      # resharding to a smaller world: the same numbers
    auto = reshard_after_forward is None
    state = FSDPState(modules, mesh, mp_policy, offload_policy, auto)
    params = []
    for p, places in _managed_params(modules, set(ignored_params or ())):
        if isinstance(p, _DTensor):
            raise NotImplementedError("fully_shard: parameters that are DTensors already "
                                      "(tensor parallelism) are not supported")
        params.append(_FSDPParam(places, p, mesh))
    if params:
        state.groups.append(_ParamGroup(params, mesh, mp_policy,
                                        True if auto else reshard_after_forward))
    for m in modules:
        m.__dict__[_STATE] = state
        m.__class__ = _fsdp_class(type(m))
    for p in params:
        p.register(p.sharded)
    _register_hooks(state)
    return module


fully_shard.state = _state_of


def register_fsdp_forward_method(module, method_name: str) -> None:
    """Gather ``module``'s parameters around calls of its method ``method_name`` too."""
    if not isinstance(module, FSDPModule):
        return
    state = module._get_fsdp_state()
    orig = getattr(module, method_name)

    @_functools.wraps(orig)
    def wrapped(*args, **kwargs):
        args, kwargs = _pre_forward(state, module, args, kwargs)
        out = orig(*args, **kwargs)
        return _post_forward(state, module, args, out)

    setattr(module, method_name, wrapped)


del annotations
