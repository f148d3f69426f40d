"""``ember.distributed.optim``: ``DistributedOptimizer``, an optimizer over parameters that
other workers own (``RRef``s), stepped with the gradients of a distributed autograd context."""

from __future__ import annotations

import threading as _threading

from .. import autograd as _dist_autograd
from .. import rpc as _rpc


class _LocalOptimizer:
    """The optimizer of the parameters one worker owns (kept on that worker)."""

    global_lock = _threading.Lock()

    def __init__(self, optim_cls, local_params_rref, *args, **kwargs) -> None:
        self._local_params = [rref.local_value() for rref in local_params_rref]
        self.optim = optim_cls(self._local_params, *args, **kwargs)

    def step(self, autograd_ctx_id: int) -> None:
        all_local_grads = _dist_autograd.get_gradients(autograd_ctx_id)
        with _LocalOptimizer.global_lock:
            for param, grad in all_local_grads.items():
                param.grad = grad
            self.optim.step()


def _new_local_optimizer(optim_cls, local_params_rref, *args, **kwargs):
    return _rpc.RRef(_LocalOptimizer(optim_cls, local_params_rref, *args, **kwargs))


def _local_optimizer_step(local_optim_rref, autograd_ctx_id: int) -> None:
    local_optim_rref.local_value().step(autograd_ctx_id)


class DistributedOptimizer:
    """``optimizer_class(params, *args, **kwargs)`` on each worker that owns some of
    ``params_rref``; ``step(context_id)`` steps them all (at once, and waits) with the
    gradients that ``ember.distributed.autograd.backward`` left in that context."""

    def __init__(self, optimizer_class, params_rref, *args, **kwargs) -> None:
        per_worker: dict = {}
        for param in params_rref:
            per_worker.setdefault(param.owner(), []).append(param)
        futs = [_rpc.rpc_async(worker, _new_local_optimizer,
                              args=(optimizer_class, rrefs, *args), kwargs=kwargs)
                for worker, rrefs in per_worker.items()]
        self.remote_optimizers = _wait_for_all(futs)

    def step(self, context_id: int) -> None:
        """One step of every worker's optimizer, with the context's gradients."""
        _dist_autograd._retrieve(context_id)
        futs = [_rpc.rpc_async(optim.owner(), _local_optimizer_step, args=(optim, context_id))
                for optim in self.remote_optimizers]
        _wait_for_all(futs)


def _wait_for_all(futs: list) -> list:
    """Every future's value (all waited for; then the first error raised)."""
    error, results = None, []
    for fut in futs:
        try:
            results.append(fut.wait())
        except Exception as e:   # noqa: BLE001  (raised once all are done)
            error = error or e
    if error is not None:
        raise error
    return results


__all__ = ["DistributedOptimizer"]


del annotations  # keep dir() to torch's names
