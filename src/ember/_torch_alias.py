"""``import torch`` answered by Ember: a meta-path finder that aliases ``torch`` to this package.

After :func:`install_torch_alias`, ``sys.modules["torch"]`` is the ember package itself (the
same object, so ``isinstance`` checks agree) and every ``import torch.X`` / ``from torch.X import
Y`` gives the ember module that stands for it: the submodule ``ember.X`` or, where Ember keeps it
as a module-valued attribute (``torch._tensor_str`` is ``ember._printing``), that attribute. A
``torch.X`` Ember does not have fails with ``ModuleNotFoundError: No module named 'torch.X'
(ember does not provide it)``.

Installed from Python (``python -m ember SCRIPT`` installs it before the script runs)::

    import ember
    ember.install_torch_alias()
    import torch                      # the ember package itself
    import torch.nn.functional as F   # ember.nn.functional
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

ALIAS = "torch"
_PACKAGE = __package__


class _AliasLoader(importlib.abc.Loader):
    """Loads nothing: hands the import system an ember module that already exists."""

    def __init__(self, name: str, module: types.ModuleType) -> None:
        self.name = name
        self.module = module
        self.spec = getattr(module, "__spec__", None)

    def create_module(self, spec):
        return self.module

    def exec_module(self, module) -> None:
        # The import system stamps the alias's spec on the module; the module keeps its own.
        module.__spec__ = self.spec
        if not hasattr(module, "__path__"):
            _alias_attributes(self.name, module)


def _alias_attributes(name: str, module: types.ModuleType) -> None:
    """Register the public ember modules held as attributes of ``module`` (not a package) under
    ``name.attr``: the import system looks those up in ``sys.modules`` before it asks for a
    parent's ``__path__``, so ``import torch.X.attr`` works where ``torch.X`` is a plain module."""
    for attr, value in list(vars(module).items()):
        if not attr.startswith("_") and isinstance(value, types.ModuleType) and _is_ember(value):
            sys.modules.setdefault(f"{name}.{attr}", value)


def torch_module(name: str) -> str | None:
    """torch's name for the ember module ``name`` (``ember.nn.modules.linear`` ->
    ``torch.nn.modules.linear``, ``ember`` -> ``torch``); None for any other module."""
    if name == _PACKAGE or name.startswith(_PACKAGE + "."):
        return ALIAS + name[len(_PACKAGE):]
    return None


def _is_ember(module: types.ModuleType) -> bool:
    mod_name = getattr(module, "__name__", "")
    return mod_name == _PACKAGE or mod_name.startswith(_PACKAGE + ".")


class TorchAliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``torch`` and ``torch.X`` to ember's modules (see the module docstring)."""

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname.startswith(_PACKAGE + "."):       # an ember module loading later (a lazy
            return _renaming_spec(fullname, path, target)   # one): torch's class names too
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        module = _resolve(fullname)
        is_package = hasattr(module, "__path__")
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(fullname, module),
                                              is_package=is_package)


def _resolve(fullname: str) -> types.ModuleType:
    """The ember module that ``torch.X.Y`` stands for, or torch's ModuleNotFoundError."""
    rest = fullname[len(ALIAS):]
    if not rest:
        return sys.modules[_PACKAGE]
    target = _PACKAGE + rest
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name != target:      # ember.X exists but needs something missing: say so
            raise
    parent, _, attr = target.rpartition(".")
    value = getattr(sys.modules.get(parent), attr, None)
    if isinstance(value, types.ModuleType):
        return value
    raise ModuleNotFoundError(f"No module named {fullname!r} ({_PACKAGE} does not provide it)",
                              name=fullname) from None


_FINDER = TorchAliasFinder()


_RENAMED: dict = {}       # class -> its ember module name, while the alias stands


def _name_module_classes(name: str, module: types.ModuleType) -> None:
    """Give the classes defined in ember module ``name`` torch's module name (``ember.nn.
    modules.linear`` -> ``torch.nn.modules.linear``), so that ``print(type(x))`` prints what
    torch prints (``<class 'torch.Tensor'>``); the names still resolve, through the alias."""
    for value in list(vars(module).values()):
        if isinstance(value, type) and value not in _RENAMED \
                and value.__module__ in (name, _PACKAGE):      # (or a top-level class)
            _RENAMED[value] = value.__module__
            value.__module__ = torch_module(value.__module__)


def _name_classes_as_torch() -> None:
    """:func:`_name_module_classes` over every ember module loaded so far."""
    for name, module in list(sys.modules.items()):
        if isinstance(module, types.ModuleType) and _is_ember(module) \
                and name == module.__name__:
            _name_module_classes(name, module)


class _RenamingLoader(importlib.abc.Loader):
    """An ember module's own loader, which then gives its classes torch's module names."""

    def __init__(self, loader) -> None:
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        self._loader.exec_module(module)
        _name_module_classes(module.__name__, module)

    def __getattr__(self, attr: str):            # get_source, get_resource_reader …
        return getattr(self._loader, attr)


def _renaming_spec(fullname: str, path, target):
    spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
    if spec is not None and hasattr(spec.loader, "exec_module"):
        spec.loader = _RenamingLoader(spec.loader)
    return spec


def install_torch_alias() -> None:
    """Make ``import torch`` (and every ``torch.X``) resolve to Ember for this process.

    ``sys.modules["torch"]`` becomes the ember package itself. Idempotent. Raises
    ``RuntimeError`` if a real ``torch`` is already imported (its tensors are not ember's).
    """
    package = sys.modules[_PACKAGE]
    current = sys.modules.get(ALIAS)
    if current is not None and current is not package:
        raise RuntimeError(f"cannot alias {ALIAS!r} to {_PACKAGE}: {ALIAS!r} is already "
                           f"imported from {getattr(current, '__file__', current)!r}")
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    sys.modules[ALIAS] = package
    _name_classes_as_torch()


def remove_torch_alias() -> None:
    """Undo :func:`install_torch_alias`: drop the finder and every ``torch`` entry it made."""
    while _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for cls, module in _RENAMED.items():
        cls.__module__ = module
    _RENAMED.clear()
    for name, module in list(sys.modules.items()):
        if (name == ALIAS or name.startswith(ALIAS + ".")) and _is_ember(module):
            del sys.modules[name]
