"""``ember.__future__``: torch's switches for how ``Module.to``/``_apply`` treat parameters.

``set_overwrite_module_params_on_conversion(True)`` makes a conversion assign new parameter
objects instead of changing ``.data`` in place; ``set_swap_module_params_on_conversion(True)``
swaps the new tensors' contents into the existing parameter objects
(``utils.swap_tensors``). Both are off by default, as in torch.
"""

from __future__ import annotations

__all__ = ["get_overwrite_module_params_on_conversion", "get_swap_module_params_on_conversion",
           "set_overwrite_module_params_on_conversion", "set_swap_module_params_on_conversion"]

_flags = {"overwrite": False, "swap": False}


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Whether conversions assign new parameters rather than setting ``.data``."""
    _flags["overwrite"] = value


def get_overwrite_module_params_on_conversion() -> bool:
    return _flags["overwrite"]


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Whether conversions swap the converted tensors into the existing parameters."""
    _flags["swap"] = value


def get_swap_module_params_on_conversion() -> bool:
    return _flags["swap"]
