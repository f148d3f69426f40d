"""``replicate``: one copy of a module per device, sharing the original's parameters."""

from __future__ import annotations

from collections import OrderedDict

from ._functions import broadcast as _broadcast
from ._functions import device_index as _device_index


def _replica(module):
    replica = module.__new__(type(module))
    replica.__dict__ = module.__dict__.copy()
    replica._parameters = {}
    replica._buffers = replica._buffers.copy()
    replica._modules = replica._modules.copy()
    replica._is_replica = True
    return replica


def replicate(network, devices, detach: bool = False) -> list:
    """Replicas of ``network`` for ``devices`` (torch's algorithm; copying tensors to a device
    fails as on a CPU-only torch, so only parameter- and buffer-free networks replicate)."""
    if not devices:
        return []
    devices = [_device_index(d) for d in devices]
    n = len(devices)
    params = list(network.parameters())
    param_copies = _broadcast(params, devices, detach)
    buffers = list(network.buffers())
    _broadcast([b for b in buffers if b.requires_grad and not detach], devices, detach)
    _broadcast([b for b in buffers if not (b.requires_grad and not detach)], devices, True)
    param_index = {id(p): k for k, p in enumerate(params)}
    modules = list(network.modules())
    index = {m: i for i, m in enumerate(modules)}
    copies = [[] for _ in devices]
    for module in modules:
        replica_factory = getattr(module, "_replicate_for_data_parallel", None)
        for j in range(n):
            r = replica_factory() if replica_factory is not None else _replica(module)
            r._former_parameters = OrderedDict()
            copies[j].append(r)
    for i, module in enumerate(modules):
        for key, child in module._modules.items():
            for j in range(n):
                if child is None:
                    copies[j][i]._modules[key] = None
                else:
                    setattr(copies[j][i], key, copies[j][index[child]])
        for key, param in module._parameters.items():
            for j in range(n):
                copies[j][i]._parameters[key] = None if param is None else \
                    param_copies[j][param_index[id(param)]]
    return [copies[j][0] for j in range(n)]


del annotations  # keep dir() to torch's names
