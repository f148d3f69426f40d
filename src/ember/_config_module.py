"""Configuration modules of torch's compiler (``torch._dynamo.config``,
``torch._inductor.config``): torch's names and defaults (``_compiler_config.json``, written by
``tools/config_defaults.py``), settable and patchable as torch's are. Ember runs compiled code
eagerly, so the values steer nothing; a name torch does not have raises torch's error."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import types

_DEFAULTS: dict = {}


def _defaults(name: str) -> dict:
    if not _DEFAULTS:
        here = os.path.join(os.path.dirname(__file__), "_compiler_config.json")
        with open(here) as f:
            _DEFAULTS.update(json.load(f))
    return {k: set(v["set"]) if isinstance(v, dict) and set(v) == {"set"} else v
            for k, v in _DEFAULTS[name].items() if not _is_alias(v)}


def _aliases(name: str) -> dict:
    _defaults(name)
    return {k: v["alias"] for k, v in _DEFAULTS[name].items() if _is_alias(v)}


def _is_alias(value) -> bool:
    return isinstance(value, dict) and set(value) == {"alias"}


class SubConfigProxy:
    """A dotted group of a config module (``config.cpp``): ``config.cpp.threads``."""

    def __init__(self, config: ConfigModule, prefix: str) -> None:
        object.__setattr__(self, "_config", config)
        object.__setattr__(self, "_prefix", prefix)

    def __getattr__(self, name: str):
        return getattr(self._config, self._prefix + name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._config, self._prefix + name, value)


class ConfigModule(types.ModuleType):
    """A module whose attributes are a fixed set of named settings."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        object.__setattr__(self, "_values", _defaults(name))
        object.__setattr__(self, "_alias", _aliases(name))
        object.__setattr__(self, "_groups", {k.split(".")[0] for k in self._values if "." in k})

    def _missing(self, name: str) -> AttributeError:
        return AttributeError(f"{self.__name__}.{name} does not exist")

    def __getattr__(self, name: str):
        values = self.__dict__.get("_values")
        if values is None or name.startswith("__"):
            raise AttributeError(name)
        name = self._alias.get(name, name)
        if name in values:
            return values[name]
        if name in self._groups or any(k.startswith(name + ".") for k in values):
            return SubConfigProxy(self, name + ".")
        raise self._missing(name)

    def __setattr__(self, name: str, value) -> None:
        name = self._alias.get(name, name)
        if name.startswith("__"):               # the import system's own (__spec__ …)
            super().__setattr__(name, value)
        elif name not in self._values:
            raise self._missing(name)
        else:
            self._values[name] = value

    def __delattr__(self, name: str) -> None:
        if name not in self._values:
            raise self._missing(name)
        self._values[name] = _defaults(self.__name__)[name]

    def get_config_copy(self) -> dict:
        """Every setting and its value."""
        return copy.deepcopy(self._values)

    def patch(self, arg1=None, arg2=None, **changes):
        """Set some settings within a ``with`` block (or around a decorated function):
        ``patch("name", value)``, ``patch({"name": value})`` or ``patch(name=value)``."""
        if isinstance(arg1, str):
            changes[arg1] = arg2
        elif isinstance(arg1, dict):
            changes.update(arg1)
        changes = {self._alias.get(k, k): v for k, v in changes.items()}
        for name in changes:
            if name not in self._values:
                raise self._missing(name)
        return _Patch(self, changes)


class _Patch(contextlib.ContextDecorator):
    def __init__(self, config: ConfigModule, changes: dict) -> None:
        self._config, self._changes, self._saved = config, changes, []

    def __enter__(self):
        values = self._config._values
        self._saved.append({k: values[k] for k in self._changes})
        values.update(self._changes)
        return self

    def __exit__(self, *exc) -> None:
        self._config._values.update(self._saved.pop())

    def __call__(self, fn):
        @functools.wraps(fn)
        def patched(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return patched
