"""``GradScaler``: loss scaling for mixed precision, as torch's.

On the CPU it works as torch's CPU scaler does (scale the loss, unscale and check the
gradients, skip a step with non-finite gradients, grow or back off the scale); asked for CUDA
on a build without CUDA it warns and disables itself, as torch does.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from enum import Enum

__all__ = ["GradScaler", "OptState"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> dict:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class GradScaler:
    """Scale a loss so that low-precision gradients keep their small values."""

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            self._enabled = False
        if self._enabled:
            assert growth_factor > 1.0, "The growth factor must be > 1.0."
            assert backoff_factor < 1.0, "The backoff factor must be < 1.0."
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname: str):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier " \
              "in the iteration."
        assert self._scale is not None, f"Attempted {funcname} but _scale is None.  " + fix
        assert self._growth_tracker is not None, \
            f"Attempted {funcname} but _growth_tracker is None.  " + fix
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self) -> None:
        from .. import _dtype as D
        from .._factories import full
        assert self._growth_tracker is None, "_growth_tracker initialized before _scale"
        self._scale = full((), self._init_scale, dtype=D.float32)
        self._growth_tracker = full((), self._init_growth_tracker, dtype=D.int32)

    def scale(self, outputs):
        """``outputs`` (a tensor or nested iterables of them) multiplied by the scale."""
        if not self._enabled:
            return outputs
        from .._tensor import Tensor
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker()
            return outputs * self._scale

        def apply_scale(val):
            if isinstance(val, Tensor):
                if self._scale is None:
                    self._lazy_init_scale_growth_tracker()
                return val * self._scale
            if isinstance(val, (list, tuple)) or hasattr(val, "__iter__"):
                iterable = map(apply_scale, val)
                return type(val)(iterable) if isinstance(val, (list, tuple)) else iterable
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16: bool):
        from .. import _dtype as D
        from .. import _ops
        isfinite = _ops.function("isfinite")
        with _no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype is D.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    g = param.grad
                    if not bool(isfinite(g).all()):
                        found_inf.fill_(1.0)
                    g.mul_(inv_scale)
        return {"cpu": found_inf}

    def unscale_(self, optimizer) -> None:
        """Divide ``optimizer``'s gradients by the scale, noting any non-finite one."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        from .. import _dtype as D
        from .._factories import full
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = full((), 0.0, dtype=D.float32)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf,
                                                             False)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale (if not done yet) and step ``optimizer`` unless a gradient is not finite."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        assert len(state["found_inf_per_device"]) > 0, \
            "No inf checks were recorded for this optimizer."
        retval = None
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None) -> None:
        """Grow the scale after ``growth_interval`` clean steps; back off after a bad one."""
        if not self._enabled:
            return
        _scale, _growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            from .._tensor import Tensor
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.FloatTensor or "
                          "torch.cuda.FloatTensor with requires_grad=False.")
                assert isinstance(new_scale, Tensor), reason
                assert new_scale.numel() == 1, reason
                assert new_scale.requires_grad is False, reason
                self._scale.copy_(new_scale)
        else:
            found_infs = [found_inf for state in self._per_optimizer_states.values()
                          for found_inf in state["found_inf_per_device"].values()]
            assert len(found_infs) > 0, "No inf checks were recorded prior to update."
            found = sum(f.item() for f in found_infs)
            self._update_scale(found)
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _update_scale(self, found_inf: float) -> None:
        """torch's ``_amp_update_scale_`` (float32 arithmetic on the scale)."""
        import numpy as np
        scale = self._scale._data
        tracker = self._growth_tracker._data
        if found_inf:
            scale[()] = scale * np.float32(self._backoff_factor)
            tracker[()] = 0
        else:
            successful = int(tracker) + 1
            if successful == self._growth_interval:
                grown = scale * np.float32(self._growth_factor)
                if np.isfinite(grown):
                    scale[()] = grown
                tracker[()] = 0
            else:
                tracker[()] = successful
        self._scale._vc.value += 1

    def _get_scale_async(self):
        return self._scale

    def get_scale(self) -> float:
        if self._enabled:
            return self._init_scale if self._scale is None else self._scale.item()
        return 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None \
                else self._growth_tracker.item()
        return 0

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict:
        if self._enabled:
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor,
                    "growth_interval": self._growth_interval,
                    "_growth_tracker": self._get_growth_tracker()}
        return {}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            state["_per_optimizer_states"] = dict(state["_per_optimizer_states"])
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self._enabled:
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state,
                                                     self._per_optimizer_states)


def _no_grad():
    from ..autograd.grad_mode import no_grad
    return no_grad()


def _amp_foreach_non_finite_check_and_unscale_(scaled_grads, found_inf, inv_scale) -> None:
    """Multiply each of ``scaled_grads`` by ``inv_scale`` in place, and set ``found_inf`` to
    1.0 where any holds an inf or NaN (torch's fused GradScaler step)."""
    from .. import _ops
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if inv_scale.numel() != 1:
        raise RuntimeError("inv_scale must be a 1-element tensor.")
    with _no_grad():
        for g in scaled_grads:
            if not bool(_ops.function("isfinite")(g).all()):
                found_inf.fill_(1.0)
            g.mul_(inv_scale)
