"""``skip_init``: build a module without running its parameter initialisation."""

import inspect

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
    kwargs["device"] = "meta"       # (the initialisers draw nothing there)
    return module_cls(*args, **kwargs).to_empty(device=final_device)
