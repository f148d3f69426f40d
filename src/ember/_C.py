"""``torch._C``: the few names of torch's C extension that Python programs use directly."""

from __future__ import annotations

from ._tensor import _disabled_torch_function_impl  # noqa: F401
from .overrides import _DisableTorchFunction as DisableTorchFunction  # noqa: F401
from .overrides import (  # noqa: F401
    _DisableTorchFunctionSubclass as DisableTorchFunctionSubclass,
)
from .overrides import _get_current_function_mode_stack as _get_function_stack_at  # noqa: F401
from .overrides import (  # noqa: F401
    _is_torch_function_enabled,
    _is_torch_function_mode_enabled,
)
from .overrides import has_torch_function as _has_torch_function  # noqa: F401
from .overrides import has_torch_function_unary as _has_torch_function_unary  # noqa: F401
from .overrides import has_torch_function_variadic as _has_torch_function_variadic  # noqa: F401
