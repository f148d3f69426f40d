"""``DataParallel`` and ``data_parallel`` as a torch without accelerators runs them.

torch's ``DataParallel`` finds no device type on such a build, so it only keeps the module
(``.module``, hence the ``module.`` prefix of its state dict) and an empty ``device_ids``, and
its forward calls the module directly.
"""

from __future__ import annotations

from typing import Any

from ..modules.module import Module


class DataParallel(Module):
    """Wraps ``module``; with no accelerator, ``forward`` is ``module(*inputs, **kwargs)``.

    >>> import ember
    >>> net = ember.nn.DataParallel(ember.nn.Linear(2, 1))
    >>> list(net.state_dict())
    ['module.weight', 'module.bias']
    """

    def __init__(self, module: Module, device_ids=None, output_device=None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)

    def replicate(self, module: Module, device_ids) -> list:
        from ...autograd.grad_mode import is_grad_enabled
        from .replicate import replicate
        return replicate(module, device_ids, not is_grad_enabled())

    def scatter(self, inputs, kwargs, device_ids):
        from .scatter_gather import scatter_kwargs
        return scatter_kwargs(inputs, kwargs, device_ids, dim=getattr(self, "dim", 0))

    def parallel_apply(self, replicas, inputs, kwargs) -> list:
        from .parallel_apply import parallel_apply
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[:len(replicas)])

    def gather(self, outputs, output_device):
        from .scatter_gather import gather
        return gather(outputs, output_device, dim=getattr(self, "dim", 0))


def data_parallel(module: Module, inputs, device_ids=None, output_device=None, dim: int = 0,
                  module_kwargs=None):
    """The functional ``DataParallel``: it needs a device type, which a CPU-only build lacks."""
    raise RuntimeError("device type could not be determined")


del annotations  # keep dir() to torch's names
