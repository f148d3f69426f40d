"""``ember.classes``: torch's namespace of script classes registered from C++
(``torch.classes.<ns>.<Class>``). Ember has no C++ class registry, so every class reached here
raises torch's error for an unregistered class; :func:`load_library` loads a shared library as
``torch.ops.load_library`` does."""

from __future__ import annotations

import types

__all__ = ["load_library"]


class _ClassNamespace(types.ModuleType):
    """``torch.classes.<ns>``: its attributes would be the classes registered under ``ns``."""

    def __init__(self, name: str) -> None:
        super().__init__("torch.classes" + name)
        self.name = name

    def __getattr__(self, attr: str):
        raise RuntimeError(f"Tried to instantiate class '{self.name}.{attr}', but it does not "
                           "exist! Ensure that it is registered via torch::class_")


def load_library(path: str) -> None:
    """Load a shared library into the process (``torch.ops.load_library``)."""
    from ._aten import ops
    ops.load_library(path)


def __getattr__(name: str):
    if name == "loaded_libraries":       # the paths torch.ops.load_library loaded
        from ._aten import ops
        return ops.loaded_libraries
    if name.startswith("__"):
        raise AttributeError(name)
    namespace = _ClassNamespace(name)
    globals()[name] = namespace
    return namespace
