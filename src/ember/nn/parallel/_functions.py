"""The device-transfer steps of data parallelism, failing as a CPU-only torch's do."""

from __future__ import annotations


def broadcast(tensors, devices, detach: bool):
    """Copies of ``tensors`` for each device: there is no device to copy them to."""
    if not tensors:
        return []
    if detach:
        raise AttributeError("module 'torch._C' has no attribute '_broadcast_coalesced'")
    raise AssertionError("Broadcast function not implemented for CPU tensors")


def scatter_tensor(target_gpus, dim, tensor):
    """Chunks of ``tensor`` for each device (torch's ``Scatter``)."""
    for d in target_gpus:
        device_index(d)
    raise AttributeError("module 'torch._C' has no attribute '_scatter'")


def gather_tensors(target_device, dim, *tensors):
    """One tensor from the per-device outputs (torch's ``Gather``)."""
    raise AssertionError("Gather function not implemented for CPU tensors")


def device_index(device, what: str = "non cpu"):
    """torch's ``_get_device_index(device, optional=True)`` with no accelerator."""
    if isinstance(device, int) or device is None:
        return -1 if device is None else device
    s = str(device)
    if s.split(":")[0] == "cpu":
        raise ValueError(f"Expected a {what} device, but got: {s}")
    if ":" in s:
        return int(s.split(":")[1])
    return -1
