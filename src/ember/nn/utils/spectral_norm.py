"""``nn.utils.spectral_norm``: the hook-based spectral normalisation.

``module.<name>`` becomes ``<name>_orig / σ``, σ the largest singular value of the weight
reshaped to a matrix, estimated by power iteration on the buffers ``<name>_u`` and
``<name>_v`` (drawn from the default generator with ``normal_``, then normalised). A forward
pre-hook runs the iterations in training mode, updating ``u`` and ``v`` in place, and
recomputes the weight; eval mode reuses them. State-dict hooks record the format's version and
convert version-0 state dicts, as torch's do.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..._ops.linalg import dot as _dot
from ..._ops.linalg import mv as _mv
from ..._tensor import Tensor as _Tensor
from ...autograd.grad_mode import no_grad as _no_grad
from ...linalg import multi_dot as _multi_dot
from .. import functional as F
from ..modules import conv as _conv
from ..modules.module import Module
from ..parameter import Parameter as _Parameter
from ..parameter import UninitializedParameter as _UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook",
           "spectral_norm", "remove_spectral_norm"]

class SpectralNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_orig``."""

    # version 1: the weight is not a buffer, ``v`` is, and eval mode computes
    # ``W = W_orig / (u @ W_orig @ v)`` rather than using the stored W
    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: _Tensor) -> _Tensor:
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(
                self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        height = weight_mat.size(0)
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> _Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            # u and v are updated in place (module replicas share them) and cloned before use,
            # so that a graph through an earlier forward still finds the values it saved
            with _no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(_mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(_mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                if self.n_power_iterations > 0:
                    u = u.clone()
                    v = v.clone()
        sigma = _dot(u, _mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with _no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, _Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name,
                self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # a v with u = normalize(W @ v) and u @ W @ v = sigma (pinverse: WᵀW may be singular)
        v = _multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(),
                       u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / _dot(u, _mv(weight_mat, v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, _UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying spectral normalization")
        with _no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # the weight stays reachable as a plain attribute (initialisers may read it)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Loads a state dict of version 0 (a stored ``<name>``, no ``<name>_v``): ``v`` is
    solved from ``u`` and rescaled so that ``u @ W_orig @ v`` is the stored weight's σ."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if version is None and all(weight_key + s in state_dict
                                       for s in ("_orig", "_u", "_v")) \
                    and weight_key not in state_dict:
                # a current state dict without its metadata (crafted by hand)
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with _no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    """Records ``spectral_norm.<name>.version`` in the state dict's metadata."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


T_module = TypeVar("T_module", bound=Module)


def _default_dim(module, dim):
    if dim is None:
        return 1 if isinstance(module, (_conv.ConvTranspose1d, _conv.ConvTranspose2d,
                                        _conv.ConvTranspose3d)) else 0
    return dim


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> T_module:
    """Divide ``module.<name>`` by its spectral norm, estimated by ``n_power_iterations``
    power iterations per training forward (``dim``: the output dim, 1 for transposed
    convolutions).

    >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(20, 40))
    >>> m.weight_u.size()
    torch.Size([40])
    """
    SpectralNorm.apply(module, name, n_power_iterations, _default_dim(module, dim), eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo :func:`spectral_norm`: ``module.<name>`` is a plain parameter again.

    >>> m = torch.nn.utils.remove_spectral_norm(torch.nn.utils.spectral_norm(
    ...     torch.nn.Linear(4, 2)))
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break
    return module


del annotations  # keep dir() to torch's names
