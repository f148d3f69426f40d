"""One FSDP unit's parameters as a single flat, sharded parameter (torch's FlatParamHandle).

The unit's parameters are flattened, one after the other, into one 1-D tensor (with
``use_orig_params`` each starts at a 16-byte boundary, as torch aligns them), padded to a
multiple of the world size and cut into equal shards; each rank keeps its shard as the
``_flat_param`` Parameter the optimizer sees. Forward all-gathers the shards (in
``param_dtype`` under mixed precision) into the unsharded flat tensor and points the modules'
parameter names at views of it; backward reduce-scatters the unsharded gradient into the
shard's ``.grad``, each rank's part divided as torch divides it (by the pre-divide factor
before the reduction and the post-divide factor after).

Freeing after forward (``FULL_SHARD``) is real: tensors that autograd saves from the
unsharded parameters are packed as (unit, offset, shape, strides), not kept, and backward
gathers the unit again when it first needs one of them.
"""

from __future__ import annotations

import numpy as _np

from ..._tensor import Tensor as _Tensor
from ...autograd import grad_mode as _grad_mode
from ...autograd.function import Function as _Function
from ...nn.parameter import Parameter as _Parameter
from .. import distributed_c10d as _c10d
from .api import ShardingStrategy as _Strategy

_ALIGNMENT = 16          # bytes: torch's alignment of each parameter under use_orig_params
_PAD_VALUE = 42          # what torch fills its alignment padding with

_SHARDED = (_Strategy.FULL_SHARD, _Strategy.SHARD_GRAD_OP, _Strategy.HYBRID_SHARD,
            _Strategy._HYBRID_SHARD_ZERO2)
RESHARD_AFTER_FORWARD = (_Strategy.FULL_SHARD, _Strategy.HYBRID_SHARD)


def predivide_factor(world: float) -> float:
    """torch's gradient pre-divide factor: the largest power of 2 not above sqrt(world)
    that divides it, so neither division alone loses precision."""
    factor = 1
    while world % factor == 0 and world / factor > factor:
        factor *= 2
    return float(factor)


class ParamInfo:
    """Where one original parameter lives: its module, name, shape and span in the flat."""

    __slots__ = ("module", "name", "fqn", "shape", "numel", "offset", "requires_grad",
                 "sharded", "places")

    def __init__(self, module, name: str, fqn: str, shape, numel: int, offset: int,
                 requires_grad: bool) -> None:
        self.module, self.name, self.fqn = module, name, fqn
        self.shape, self.numel, self.offset = shape, numel, offset
        self.requires_grad = requires_grad
        self.sharded = None          # use_orig_params: the Parameter viewing this rank's part
        self.places = [(module, name)]   # every (module, name) holding it (tied weights)


class _Unshard(_Function):
    """The unsharded flat parameter as a function of the sharded one: its backward is the
    gradient reduction, which writes the shard's gradient itself (so returns None)."""

    @staticmethod
    def forward(ctx, flat_param, handle):
        ctx.handle = handle
        return _Tensor._wrap(handle.full)

    @staticmethod
    def backward(ctx, grad):
        ctx.handle.post_backward(grad)
        return None, None


class FlatParamHandle:
    """The flat parameter of one FSDP unit and the collectives that shard it."""

    def __init__(self, params: list, pg, strategy, mixed_precision, use_orig_params: bool,
                 owner, shared: dict | None = None) -> None:
        self.pg, self.world, self.rank = pg, pg.size(), pg.rank()
        self.strategy = strategy
        self.sharded = strategy in _SHARDED and self.world > 1
        self.mp = mixed_precision
        self.use_orig_params = use_orig_params
        self.owner = owner                  # the module that holds ``_flat_param``
        first = params[0][2]
        self.param_dtype = first.dtype
        self.requires_grad = any(p.requires_grad for _, _, p, _ in params)
        if use_orig_params is False and len({p.requires_grad for _, _, p, _ in params}) > 1:
            raise ValueError("Must flatten tensors with uniform `requires_grad` when "
                             "`use_orig_params=False`")
        compute = mixed_precision.param_dtype if mixed_precision is not None else None
        self.compute_dtype = compute or self.param_dtype
        reduce = mixed_precision.reduce_dtype if mixed_precision is not None else None
        self.reduce_dtype = reduce or self.compute_dtype
        self.keep_low_precision_grads = bool(mixed_precision is not None
                                             and mixed_precision.keep_low_precision_grads)
        align = _ALIGNMENT // self.compute_dtype.itemsize if use_orig_params else 0
        pieces, self.infos, total = [], [], 0
        for module, name, p, fqn in params:
            if p.dtype != self.param_dtype:
                raise ValueError(f"Must flatten tensors with uniform dtype but got "
                                 f"{self.param_dtype} and {p.dtype}")
            if align:
                pad = align - total % align
                if 0 < pad < align:
                    pieces.append(_np.full(pad, _PAD_VALUE, p._data.dtype))
                    total += pad
            self.infos.append(ParamInfo(module, name, fqn, tuple(p.shape), p.numel(), total,
                                        p.requires_grad))
            self.infos[-1].places += (shared or {}).get(id(p), [])
            pieces.append(_np.ascontiguousarray(p._data).reshape(-1))
            total += p.numel()
        self.unpadded = total
        flat = _np.concatenate(pieces)
        if self.sharded:
            self.shard_numel = -(-total // self.world)
            padded = _np.zeros(self.shard_numel * self.world, flat.dtype)
            padded[:total] = flat
            self.padded = padded.size
            lo = self.rank * self.shard_numel
            local = padded[lo:lo + self.shard_numel].copy()
        else:
            self.shard_numel = self.padded = total
            local = flat
        self.flat_param = _Parameter(_Tensor._wrap(local), requires_grad=self.requires_grad)
        self.flat_param._is_flat_param = True
        self.full = None                     # the unsharded flat array while gathered
        self.unsharded_grad = None           # no_sync's accumulated unsharded gradient
        self.views_set = False
        self.packing = False                 # freed after forward: saved views are packed
        for info in self.infos:
            for module, name in info.places:
                module._parameters.pop(name, None)
        if use_orig_params:
            owner.__dict__["_flat_param"] = self.flat_param
            self._register_sharded_views()
        else:
            owner.register_parameter("_flat_param", self.flat_param)
            self.clear_views()

    # ---------------------------------------------------------------- sharded views

    def shard_span(self, info: ParamInfo) -> tuple[int, int]:
        """The part of ``info``'s flat span that this rank's shard holds, in shard offsets."""
        lo = self.rank * self.shard_numel if self.sharded else 0
        a = max(info.offset, lo)
        b = min(info.offset + info.numel, lo + self.shard_numel)
        return (a - lo, max(a, b) - lo)

    def _local_view(self, local: _np.ndarray, info: ParamInfo) -> _np.ndarray:
        """``info``'s part of a shard-sized array: 1-D where sharded, else its full shape."""
        a, b = self.shard_span(info)
        return local[a:b] if self.sharded else local[a:b].reshape(info.shape)

    def _register_sharded_views(self) -> None:
        """``use_orig_params``: each original name is a Parameter viewing this rank's part of
        the flat shard (1-D, possibly empty), as torch shows them between iterations."""
        local = self.flat_param._data
        for info in self.infos:
            p = _Parameter(_Tensor._wrap(self._local_view(local, info)),
                           requires_grad=info.requires_grad)
            p._vc = self.flat_param._vc
            info.sharded = p
            for module, name in info.places:
                module._parameters[name] = p

    # ---------------------------------------------------------------- unshard / reshard

    def gather(self, dtype=None) -> _np.ndarray:
        """The unsharded flat parameter (padded), in ``dtype`` (the compute dtype)."""
        dtype = dtype or self.compute_dtype
        shard = self.flat_param.detach()
        if shard.dtype != dtype:
            shard = shard.to(dtype)
        if not self.sharded:
            return shard._data
        out = _Tensor._wrap(_np.empty(self.padded, shard._data.dtype))
        _c10d.all_gather_into_tensor(out, shard.contiguous(), group=self.pg)
        return out._data

    def unshard(self, grad: bool) -> None:
        """Gather the parameters and point the modules' names at views of them; with
        ``grad`` the views lead back to the flat parameter through the reduction."""
        self.full = self.gather()
        _LIVE[id(self)] = self
        self.set_views(grad)

    def set_views(self, grad: bool) -> None:
        if grad and self.requires_grad and _grad_mode.is_grad_enabled():
            full = _Unshard.apply(self.flat_param, self)
        else:
            full = _Tensor._wrap(self.full)
        for info in self.infos:
            view = full[info.offset:info.offset + info.numel].view(info.shape)
            for module, name in info.places:
                module.__dict__[name] = view
        self.views_set = True

    def clear_views(self) -> None:
        """Drop the views of the unsharded parameters. Without ``use_orig_params`` each
        name keeps a placeholder of its shape holding no memory (zeros), as torch keeps a
        view of the freed storage: modules may still read a parameter's shape."""
        local = self.flat_param._data
        for info in self.infos:
            if self.use_orig_params:
                held = None
            elif not self.sharded:           # the local flat parameter is the whole of it
                held = _Tensor._wrap(local[info.offset:info.offset + info.numel]
                                     .reshape(info.shape))
            else:
                held = _Tensor._wrap(_np.broadcast_to(_np.zeros((), local.dtype), info.shape))
            for module, name in info.places:
                if held is None:
                    module.__dict__.pop(name, None)
                else:
                    module.__dict__[name] = held
        self.views_set = False

    def reshard(self) -> None:
        """Free the unsharded parameters (a no-op where nothing is sharded)."""
        self.clear_views()
        self.full = None
        _LIVE.pop(id(self), None)

    def ensure_full(self) -> _np.ndarray:
        """The unsharded flat array, gathered again if it was freed (backward's unshard)."""
        if self.full is None:
            self.full = self.gather()
            _LIVE[id(self)] = self
        return self.full

    # ---------------------------------------------------------------- gradients

    def post_backward(self, grad, sync: bool = True) -> None:
        """Reduce the unsharded gradient and accumulate this rank's shard of it."""
        from .fully_sharded_data_parallel import _no_sync_handles
        g = grad.detach()
        if g.dtype != self.compute_dtype:
            g = g.to(self.compute_dtype)
        if self.unsharded_grad is not None:
            g = self.unsharded_grad + g
            self.unsharded_grad = None
        if self in _no_sync_handles:
            self.unsharded_grad = g
            return
        if g.dtype != self.reduce_dtype:
            g = g.to(self.reduce_dtype)
        else:
            g = g.clone()
        pre = predivide_factor(self.world)
        post = self.world / pre
        if self.sharded:
            if g.numel() < self.padded:
                padded = _Tensor._wrap(_np.zeros(self.padded, g._data.dtype))
                padded._data[:g.numel()] = g._data
                g = padded
            if pre > 1:
                g.div_(pre)
            out = _Tensor._wrap(_np.empty(self.shard_numel, g._data.dtype))
            _c10d.reduce_scatter_tensor(out, g, group=self.pg)
        else:
            if pre > 1:
                g.div_(pre)
            if self.world > 1:
                _c10d.all_reduce(g, group=self.pg)
            out = g
        if post > 1:
            out.div_(post)
        if not self.keep_low_precision_grads and out.dtype != self.param_dtype:
            out = out.to(self.param_dtype)
        self._accumulate(out)
        self.reshard()

    def _accumulate(self, shard_grad) -> None:
        fp = self.flat_param
        if self.use_orig_params:
            existing = [(info, info.sharded._grad) for info in self.infos
                        if info.sharded is not None and info.sharded._grad is not None]
            if existing:
                base = _np.zeros(self.shard_numel, shard_grad._data.dtype)
                for info, g in existing:
                    a, b = self.shard_span(info)
                    base[a:b] = g._data.reshape(-1)
                shard_grad = _Tensor._wrap(base + shard_grad._data)
            fp._grad = shard_grad
            for info in self.infos:
                # torch's _use_sharded_grad_views: None where the parameter has nothing in
                # this rank's shard (so clip_grad_norm_ and the optimizers skip it)
                a, b = self.shard_span(info)
                info.sharded._grad = (_Tensor._wrap(self._local_view(shard_grad._data, info))
                                      if info.requires_grad and (b > a or not self.sharded)
                                      else None)
            return
        if fp._grad is None:
            fp._grad = shard_grad
        else:
            if fp._grad.dtype != shard_grad.dtype:
                shard_grad = shard_grad.to(fp._grad.dtype)
            fp._grad._data += shard_grad._data
            fp._grad._vc.value += 1

    # ---------------------------------------------------------------- full parameters

    def full_views(self) -> list:
        """Each original parameter's full tensor, a view of the gathered flat array."""
        full = self.full
        return [_Tensor._wrap(full[i.offset:i.offset + i.numel].reshape(i.shape))
                for i in self.infos]

    def write_back(self, full: _np.ndarray) -> None:
        """Copy this rank's shard out of a full flat array into the flat parameter."""
        local = self.flat_param._data
        if self.sharded:
            lo = self.rank * self.shard_numel
            local[...] = full[lo:lo + self.shard_numel].astype(local.dtype, copy=False)
        elif full is not local:
            local[...] = full[:local.size]
        self.flat_param._vc.value += 1


_LIVE: dict = {}          # id -> handle, for the handles whose unsharded array is alive


def _address(arr: _np.ndarray) -> int:
    return arr.__array_interface__["data"][0]


def pack(t):
    """Saved-tensor pack hook: a tensor viewing a freed-after-forward unsharded flat array
    is kept as where it is in that array, so the array itself can be freed."""
    arr = t._data
    if arr.size == 0:
        return t
    at = _address(arr)
    for h in _LIVE.values():
        full = h.full
        if full is None or not h.packing:
            continue
        base = _address(full)
        if base <= at < base + full.nbytes and arr.dtype == full.dtype:
            return (_Packed, h, at - base, arr.shape, arr.strides)
    return t


def unpack(packed):
    """The saved-tensor unpack hook: gather the unit again if it was freed."""
    if isinstance(packed, tuple) and packed and packed[0] is _Packed:
        _, h, offset, shape, strides = packed
        full = h.ensure_full()
        return _Tensor._wrap(_np.ndarray(shape, full.dtype, buffer=full, offset=offset,
                                         strides=strides))
    return packed


class _Packed:
    """Marks a packed saved tensor."""
