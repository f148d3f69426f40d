"""``skip_init``: build a module without running its parameter initialisation."""

import inspect

from ... import random as _random
from ..modules.module import Module as _Module


def skip_init(module_cls, *args, **kwargs):
    """Instantiate ``module_cls(*args, **kwargs)`` with uninitialised parameters and buffers
    (on ``device``, the CPU by default).

    >>> import ember
    >>> m = ember.nn.utils.skip_init(ember.nn.Linear, 5, 1)
    >>> m.weight.shape
    torch.Size([1, 5])
    """
    if not issubclass(module_cls, _Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    # torch builds the module on the meta device, where initialisers draw no random numbers;
    # ember has no meta device, so it builds on the CPU and puts the generator back
    state = _random.get_rng_state()
    try:
        module = module_cls(*args, device="cpu", **kwargs)
    finally:
        _random.set_rng_state(state)
    return module.to_empty(device=final_device)
