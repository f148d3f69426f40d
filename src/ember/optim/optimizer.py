"""The optimizer base class: parameter groups, per-parameter state, and torch's state_dict format.

An :class:`Optimizer` holds ``param_groups`` (a list of dicts, each with ``'params'`` and the
hyper-parameters, filled in from ``defaults``) and ``state`` (a ``defaultdict(dict)`` keyed by
parameter tensor). ``state_dict()`` replaces the tensors by their integer position across all
groups, exactly as torch does, so a state dict looks and loads like torch's.

Updates run under :func:`ember.no_grad` and write the parameters' arrays in place (bumping their
version counters, as an in-place op would). The arithmetic of each update is torch 2.13's
single-tensor CPU path, operation by operation, in the parameter's dtype: the small kernels at
the end of this module are NumPy translations of torch's ``add(alpha=)``, ``lerp_``,
``addcmul_`` and ``addcdiv_`` that evaluate in torch's order.
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

import numpy as _np

from .. import _dtype as _D
from .._ops import _fused
from .._tensor import Tensor as _Tensor
from ..autograd import grad_mode as _grad_mode
from ..autograd.graph import RemovableHandle

__all__ = ["Optimizer", "required"]

ParamsT = Iterable[_Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, _Tensor]]


class _RequiredParameter:
    """Singleton marking a hyper-parameter that each group must give."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj) -> str:
    if isinstance(obj, _Tensor):
        return "torch." + {"float32": "FloatTensor", "float64": "DoubleTensor",
                           "int64": "LongTensor"}.get(obj.dtype.name, "Tensor")
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__") else f"{module}.{name}"


def _scalar_dtype() -> _D.dtype:
    """The dtype of ``state['step']``: float64 under a float64 default dtype, else float32."""
    return _D.float64 if _D.get_default_dtype() is _D.float64 else _D.float32


def _step_tensor(value: float = 0.0) -> _Tensor:
    """``state['step']``: a 0-d tensor of the scalar dtype (float32 by default)."""
    return _Tensor._wrap(_np.array(value, dtype=_scalar_dtype().np))


def _upgrade_steps(opt: Optimizer, keys: tuple[str, ...]) -> None:
    """Turn number-valued state entries ``keys`` into tensors (old checkpoints)."""
    for group in opt.param_groups:
        for p in group["params"]:
            p_state = opt.state.get(p, [])
            if len(p_state) != 0:
                for key in keys:
                    if key in p_state and not isinstance(p_state[key], _Tensor):
                        p_state[key] = _step_tensor(float(p_state[key]))


def _to_scalar(x):
    """A 1-element tensor hyper-parameter squeezed to 0-d; numbers pass through."""
    if isinstance(x, _Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_value(x):
    """A 0-d tensor's Python number (``item()``); numbers pass through."""
    return x.item() if isinstance(x, _Tensor) else x


def _no_grad_step(func: Callable) -> Callable:
    """Run ``step`` with grad mode off (torch's ``_use_grad_for_differentiable``)."""

    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        with _grad_mode.set_grad_enabled(bool(self.defaults.get("differentiable", False))):
            return func(self, *args, **kwargs)

    return wrapper


class Optimizer:
    r"""Base class for all optimizers.

    Args:
        params: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts defining
            parameter groups.
        defaults: default hyper-parameters, used where a group does not give them.

    >>> import ember
    >>> w = ember.zeros(2, requires_grad=True)
    >>> opt = ember.optim.SGD([w], lr=0.1)
    >>> w.grad = ember.ones(2)
    >>> opt.step()
    >>> w
    tensor([-0.1000, -0.1000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._patch_step_function()

        if isinstance(params, _Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        self.state: defaultdict[_Tensor, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    # ------------------------------------------------------------------ pickling / printing
    # group options an older checkpoint may lack, with their defaults (torch's __setstate__),
    # and the per-parameter state entries kept as tensors that old checkpoints stored as numbers
    _group_defaults: dict[str, Any] = {}
    _tensor_state: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:      # keys an older checkpoint may lack
            for key, value in self._group_defaults.items():
                group.setdefault(key, value)
        if self._tensor_state:
            _upgrade_steps(self, self._tensor_state)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # ------------------------------------------------------------------ hooks
    @staticmethod
    def _hook_step(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            # as torch's: the hooks see ``args`` with the optimizer itself first
            self = args[0]
            for pre_hook in chain(_global_pre_hooks.values(),
                                  self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(f"{func} must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
            out = func(*args, **kwargs)
            for post_hook in chain(self._optimizer_step_post_hooks.values(),
                                   _global_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out

        wrapper.hooked = True  # type: ignore[attr-defined]
        return wrapper

    def _patch_step_function(self) -> None:
        cls = self.__class__
        if not getattr(cls.step, "hooked", False):
            cls.step = Optimizer._hook_step(cls.step)  # type: ignore[method-assign]

    def _register(self, hooks: OrderedDict, hook: Callable, prepend: bool = False):
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)`` to run before each ``step``."""
        return self._register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)`` to run after each ``step``."""
        return self._register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable,
                                     prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)`` to run before ``state_dict()``."""
        return self._register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable,
                                      prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)`` to run after ``state_dict()``."""
        return self._register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable,
                                          prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)`` to run before ``load_state_dict``."""
        return self._register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable,
                                           prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)`` to run after ``load_state_dict``."""
        return self._register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ------------------------------------------------------------------ state dict
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state: ``{'state': {index: {...}}, 'param_groups': [...]}``.

        Parameters are replaced by their position across all groups, in order.
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, _Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param: _Tensor, value: _Tensor, param_id: int,
                                                 param_groups: list[dict], key=None) -> _Tensor:
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            return value.to(dtype=_D.float32) if (capturable or fused) else value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state dict made by :meth:`state_dict` (of this or of a torch optimizer)."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        from copy import deepcopy
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, _Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(_cast(param, v, param_id=param_id,
                                         param_groups=param_groups) for v in value)
            return value

        state: defaultdict[_Tensor, dict] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k,
                                     param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ------------------------------------------------------------------ grads and groups
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to None by default, else to zero)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Perform one optimization step (subclasses implement it)."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a parameter group (a dict with ``'params'`` and optional hyper-parameters)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, _Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. Some "
                                 "param names are missing")
        for param in param_group["params"]:
            if not isinstance(param, _Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set: set[_Tensor] = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {txt} to the optimizer")
        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)


_global_pre_hooks: OrderedDict = OrderedDict()
_global_post_hooks: OrderedDict = OrderedDict()


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """Register a pre-step hook common to all optimizers."""
    handle = RemovableHandle(_global_pre_hooks)
    _global_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """Register a post-step hook common to all optimizers."""
    handle = RemovableHandle(_global_post_hooks)
    _global_post_hooks[handle.id] = hook
    return handle


# ---------------------------------------------------------------------------- kernels
# NumPy translations of the torch CPU kernels the update formulas use. Python numbers are
# rounded to the array's dtype first (torch casts a Scalar to the op's scalar_t), then the
# arithmetic runs in that dtype in torch's order.

_REDUCED = "eE"                     # float16, bfloat16: ATen computes each op in float


def _f32(a: _np.ndarray) -> _np.ndarray:
    return a.astype(_np.float32)


def _number(x) -> float:
    """A number, or a 0-d tensor's value."""
    return x.item() if isinstance(x, _Tensor) else x


def _arr(t: _Tensor) -> _np.ndarray:
    return t._data


def _bump(t: _Tensor) -> None:
    """Record an in-place write on ``t`` (its version counter, shared with its views)."""
    t._vc.value += 1


def _sc(x, a: _np.ndarray):
    """Number ``x`` as a scalar of ``a``'s dtype (a 0-d tensor's value is taken too)."""
    return a.dtype.type(_number(x))


def _k_add(a: _np.ndarray, b: _np.ndarray, alpha=1) -> _np.ndarray:
    """``torch.add(a, b, alpha=alpha)``: ``a + alpha * b`` (fused multiply-add)."""
    return _fused.add(a, b, _sc(alpha, a))


def _k_add_(a: _np.ndarray, b: _np.ndarray, alpha=1) -> None:
    """``a.add_(b, alpha=alpha)``."""
    _fused.add_(a, b, _sc(alpha, a))


def _k_grad(a: _np.ndarray, g: _np.ndarray, group: dict, lr=None) -> _np.ndarray:
    """The gradient ``g`` an update of the parameter's array ``a`` uses: negated under
    ``maximize``, plus ``weight_decay * a``, or, for an optimizer with
    ``decoupled_weight_decay`` (it gives ``lr``) where the group sets it, as it is while
    ``a`` shrinks by ``1 - lr * weight_decay`` (in place)."""
    if group["maximize"]:
        g = _k_neg(g)
    weight_decay = group["weight_decay"]
    if weight_decay != 0:
        if lr is not None and group["decoupled_weight_decay"]:
            _k_mul_(a, 1 - lr * weight_decay, _foreach(group))
        else:
            g = _k_add(g, a, weight_decay)
    return g


def _k_neg(a: _np.ndarray) -> _np.ndarray:
    """``-a`` as an array (NumPy's ``-a`` of a 0-d array is a scalar)."""
    return _np.negative(a, out=_np.empty_like(a))


def _k_mul_(a: _np.ndarray, s, in_type: bool = False) -> None:
    """``a.mul_(s)`` for a number ``s`` (``in_type``: ``_foreach_mul_``)."""
    if a.dtype.char in _REDUCED:
        a[...] = _k_mul(a, s, in_type)
        return
    _np.multiply(a, _sc(s, a), out=a)


def _k_mul(a: _np.ndarray, s, in_type: bool = False) -> _np.ndarray:
    """``a * s`` for a number ``s`` (float16/bfloat16: in float, the number unrounded, as
    ATen's reduced-type ``mul`` reads a scalar; ``in_type``: rounded to the type first, as
    the multi-tensor path's in-place ``_foreach_mul_`` reads it)."""
    if a.dtype.char in _REDUCED:
        s = _number(s)
        return (_f32(a) * _np.float32(a.dtype.type(s) if in_type else s)).astype(a.dtype)
    return a * _sc(s, a)


def _foreach(group: dict) -> bool:
    """Whether the group asks for torch's multi-tensor (``_foreach_*``) update path."""
    return group.get("foreach") is True


def _k_div(a: _np.ndarray, s) -> _np.ndarray:
    """``a / s`` for a number ``s`` (float16/bfloat16: in float by the number unrounded, as
    ATen's ``div_true_kernel`` reads a scalar divisor)."""
    if a.dtype.char in _REDUCED:
        return (_f32(a) / _np.float32(_number(s))).astype(a.dtype)
    return a / _sc(s, a)


def _k_lerp_(a: _np.ndarray, end: _np.ndarray, weight) -> None:
    """``a.lerp_(end, weight)`` for a number ``weight`` (float16/bfloat16: in float, the
    weight unrounded, rounded once)."""
    if a.dtype.char in _REDUCED:
        a32 = _f32(a)
        _fused.lerp_(a32, _f32(end), _number(weight))
        a[...] = a32.astype(a.dtype)
        return
    _fused.lerp_(a, end, _sc(weight, a))


def _k_addcmul(a: _np.ndarray, t1: _np.ndarray, t2, value=1) -> _np.ndarray:
    """``torch.addcmul(a, t1, t2, value=value)`` (float16/bfloat16: in float, ``value``
    unrounded, rounded once)."""
    if a.dtype.char in _REDUCED:
        return _fused.addcmul(_f32(a), _f32(t1), _f32(t2), _number(value)).astype(a.dtype)
    return _fused.addcmul(a, t1, t2, _sc(value, a))


def _k_addcmul_(a: _np.ndarray, t1: _np.ndarray, t2, value=1) -> None:
    """``a.addcmul_(t1, t2, value=value)``."""
    if a.dtype.char in _REDUCED:
        a[...] = _k_addcmul(a, t1, t2, value)
        return
    _fused.addcmul_(a, t1, t2, _sc(value, a))


def _k_addcdiv_(a: _np.ndarray, t1: _np.ndarray, t2: _np.ndarray, value=1) -> None:
    """``a.addcdiv_(t1, t2, value=value)``: ``a + (value * t1) / t2`` (float16/bfloat16: in
    float, ``value`` unrounded, rounded once)."""
    if a.dtype.char in _REDUCED:
        q = _np.float32(_number(value)) * _f32(t1) / _f32(t2)
        a[...] = (_f32(a) + q).astype(a.dtype)
        return
    _np.add(a, _sc(value, a) * t1 / t2, out=a)


def _k_rdiv(s, a: _np.ndarray) -> _np.ndarray:
    """``number / tensor``: torch computes ``a.reciprocal() * number``."""
    return _k_mul(a.dtype.type(1) / a, s)


# elements of one piece of a large parameter's update: the update's temporaries (float64
# ones included) then stay in cache between its many passes
_PIECE = 1 << 17


def _owners(arrays) -> list[int]:
    """The identity of the memory each array views (its base's, or its own): arrays of
    different owners cannot overlap."""
    return [id(x if x.base is None else x.base) for x in arrays]


def _in_pieces(update: Callable, key, written: list, read: _np.ndarray) -> None:
    """``update(key, *written, read)`` (elementwise, in place on ``written``), on pieces of
    :data:`_PIECE` elements where the arrays are large, C-contiguous, of one size and
    without a shared base: each element's arithmetic is the same, so are its bits (not so
    for float16/bfloat16, whose ``add`` rounds differently in the tails of each thread's
    share of the whole array)."""
    arrays = (*written, read)
    n = read.size
    if n >= 2 * _PIECE and read.dtype.char not in _REDUCED \
            and all(x.size == n and x.flags.c_contiguous for x in arrays) \
            and len(set(_owners(arrays))) == len(arrays):
        flat = [x.reshape(-1) for x in arrays]
        for s in range(0, n, _PIECE):
            update(key, *(x[s:s + _PIECE] for x in flat))
        return
    update(key, *written, read)


# elements: parameters up to this size are updated in batches (a larger one costs more to
# copy than its own update's per-call overhead saves)
_BATCH_MAX = 8192
_BATCHED = frozenset((_np.dtype(_np.float32), _np.dtype(_np.float64)))


class _Batch:
    """Small parameters' updates run as one call of an elementwise update.

    An update whose arithmetic is elementwise and the same at every position (the kernels
    above round every element alike) gives each element the same bits on the parameters'
    arrays concatenated as on each array alone, while the per-call cost of NumPy, which
    dominates small arrays, is paid once. ``update(key, *written, read)`` updates
    ``written`` (the first ``nwritten`` arrays) in place; :meth:`add` queues a parameter's
    arrays under ``key`` (the numbers its update depends on), :meth:`run` updates each
    queue at once and writes the results back. Arrays that
    could overlap a queued one are not queued (their owners are compared), and the queues
    run first, keeping torch's order."""

    __slots__ = ("update", "nwritten", "queues", "seen")

    def __init__(self, update: Callable, nwritten: int) -> None:
        self.update, self.nwritten = update, nwritten
        self.queues: dict = {}
        self.seen: set[int] = set()

    def add(self, key, written: list, read: _np.ndarray) -> bool:
        """Queue a parameter's arrays; False: the caller updates them now."""
        if read.size > _BATCH_MAX and not self.seen:
            return False
        owners = _owners((*written, read))
        seen = self.seen
        if not seen.isdisjoint(owners):
            self.run()
            return False
        dt = read.dtype
        if read.size > _BATCH_MAX or dt not in _BATCHED or len(set(owners)) != len(owners):
            return False
        for x in written:
            flags = x.flags
            if x.dtype != dt or not (flags.c_contiguous and flags.writeable):
                return False
        seen.update(owners)
        queue = self.queues.get((dt, key))
        if queue is None:
            self.queues[dt, key] = [(*written, read)]
        else:
            queue.append((*written, read))
        return True

    def run(self) -> None:
        """Update the queued arrays."""
        if not self.queues:
            return
        for (_, key), rows in self.queues.items():
            if len(rows) == 1:
                self.update(key, *rows[0])
                continue
            flat = [_np.concatenate([r[i].reshape(-1) for r in rows])
                    for i in range(len(rows[0]))]
            self.update(key, *flat)
            for i in range(self.nwritten):
                src, start = flat[i], 0
                for r in rows:
                    x = r[i]
                    end = start + x.size
                    _np.copyto(x, src[start:end].reshape(x.shape))
                    start = end
        self.queues.clear()
        self.seen.clear()


def _real(a: _np.ndarray) -> _np.ndarray:
    """A complex array seen as real pairs (torch's ``view_as_real``); real arrays unchanged."""
    if a.dtype.kind == "c":
        return a.view(a.real.dtype).reshape(*a.shape, 2)
    return a


def _run_closure(closure: Callable | None):
    """Evaluate ``closure`` with grad enabled (the loss), or None."""
    if closure is None:
        return None
    with _grad_mode.enable_grad():
        return closure()


# the devices torch 2.13 accepts for ``capturable=True`` (none of them is the CPU)
_CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def _capturable_error(tensors: str = "params and state_steps") -> AssertionError:
    """torch's error when a ``capturable=True`` step meets CPU tensors."""
    return AssertionError(f"If capturable=True, {tensors} must be on supported devices: "
                          f"{_CAPTURABLE_DEVICES}.")


def _check_unsupported(foreach=None, **flags) -> None:
    """Raise for implementation flags ember does not have (fused, capturable, differentiable),
    after torch's errors for flags that do not go together."""
    if flags.get("fused"):
        if flags.get("differentiable"):
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
    for name, value in flags.items():
        if value:
            raise NotImplementedError(f"ember.optim: {name}=True is not supported")


del annotations  # keep dir() to torch's names
