"""Objects that ``save``/``load`` checkpoint through their own ``state_dict`` and
``load_state_dict`` (a model, an optimizer, an application's state)."""

from typing import Protocol, runtime_checkable

__all__ = ["Stateful"]


@runtime_checkable
class Stateful(Protocol):
    """Anything with ``state_dict()`` and ``load_state_dict(state_dict)``."""

    def state_dict(self) -> dict:
        ...

    def load_state_dict(self, state_dict: dict) -> None:
        ...
