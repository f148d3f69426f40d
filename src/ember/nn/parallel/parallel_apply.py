"""``parallel_apply``: run each replica on its input on its own device."""

from __future__ import annotations

from ._functions import device_index as _device_index


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None) -> list:
    """Apply ``modules[i]`` to ``inputs[i]`` on ``devices[i]``; with no accelerator this fails
    as torch does, after torch's argument checks."""
    if len(modules) != len(inputs):
        raise AssertionError(f"The number of modules {len(modules)} is not equal to the number "
                             f"of inputs {len(inputs)}")
    if kwargs_tup is not None:
        if len(modules) != len(kwargs_tup):
            raise AssertionError(f"The number of modules {len(modules)} is not equal to the "
                                 f"number of kwargs_tup {len(kwargs_tup)}")
    if devices is not None:
        if len(modules) != len(devices):
            raise AssertionError(f"The number of modules {len(modules)} is not equal to the "
                                 f"number of devices {len(devices)}")
    else:
        devices = [None] * len(modules)
    for d in devices:
        _device_index(d, "cuda")
    if devices:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    raise AssertionError("No available accelerator found.")


del annotations  # keep dir() to torch's names
