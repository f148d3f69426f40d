"""``torch.export.graph_signature``: what an exported graph's inputs and outputs stand for."""

from __future__ import annotations

import dataclasses as _dataclasses
from enum import Enum as _Enum
from enum import auto as _auto
from types import MappingProxyType as _MappingProxyType

__all__ = ["ExportGraphSignature", "InputKind", "InputSpec", "OutputKind", "OutputSpec",
           "TensorArgument"]


class InputKind(_Enum):
    """What a graph input stands for."""

    USER_INPUT = _auto()
    PARAMETER = _auto()
    BUFFER = _auto()
    CONSTANT_TENSOR = _auto()
    CUSTOM_OBJ = _auto()
    TOKEN = _auto()


class OutputKind(_Enum):
    """What a graph output stands for."""

    USER_OUTPUT = _auto()
    LOSS_OUTPUT = _auto()
    BUFFER_MUTATION = _auto()
    PARAMETER_MUTATION = _auto()
    GRADIENT_TO_PARAMETER = _auto()
    GRADIENT_TO_USER_INPUT = _auto()
    USER_INPUT_MUTATION = _auto()
    TOKEN = _auto()


@_dataclasses.dataclass
class TensorArgument:
    """A tensor input or output of the graph, by node name."""

    name: str


@_dataclasses.dataclass
class InputSpec:
    """One graph input: its kind, its node, and the state it reads (``fc.weight``)."""

    kind: InputKind
    arg: TensorArgument
    target: str | None
    persistent: bool | None = None

    def __str__(self) -> str:
        target = "" if self.target is None else f" target='{self.target}'"
        persistent = "" if self.persistent is None else f" persistent={self.persistent}"
        return f"{self.arg.name}: {self.kind.name}{target}{persistent}"


@_dataclasses.dataclass
class OutputSpec:
    """One graph output: its kind, its node, and the state it updates."""

    kind: OutputKind
    arg: TensorArgument
    target: str | None

    def __str__(self) -> str:
        target = "" if self.target is None else f" target='{self.target}'"
        return f"{self.arg.name}: {self.kind.name}{target}"


@_dataclasses.dataclass
class ExportGraphSignature:
    """The meaning of the graph's inputs (parameters, buffers, then user inputs) and outputs
    (buffer mutations, then user outputs)."""

    input_specs: list[InputSpec]
    output_specs: list[OutputSpec]

    @property
    def parameters(self) -> tuple[str, ...]:
        """The state names of the lifted parameters."""
        return tuple(s.target for s in self.input_specs if s.kind == InputKind.PARAMETER)

    @property
    def buffers(self) -> tuple[str, ...]:
        """The state names of the lifted buffers."""
        return tuple(s.target for s in self.input_specs if s.kind == InputKind.BUFFER)

    @property
    def user_inputs(self) -> tuple[str, ...]:
        """The node names of the user inputs."""
        return tuple(s.arg.name for s in self.input_specs if s.kind == InputKind.USER_INPUT)

    @property
    def user_outputs(self) -> tuple[str, ...]:
        """The node names of the user outputs."""
        return tuple(s.arg.name for s in self.output_specs if s.kind == OutputKind.USER_OUTPUT)

    @property
    def inputs_to_parameters(self) -> dict[str, str]:
        """Input node name -> parameter name."""
        return _immutable({s.arg.name: s.target for s in self.input_specs
                           if s.kind == InputKind.PARAMETER})

    @property
    def inputs_to_buffers(self) -> dict[str, str]:
        """Input node name -> buffer name."""
        return _immutable({s.arg.name: s.target for s in self.input_specs
                           if s.kind == InputKind.BUFFER})

    @property
    def buffers_to_mutate(self) -> dict[str, str]:
        """Output node name -> the buffer it updates."""
        return _immutable({s.arg.name: s.target for s in self.output_specs
                           if s.kind == OutputKind.BUFFER_MUTATION})

    def __str__(self) -> str:
        input_specs = "\n".join(str(s) for s in self.input_specs)
        output_specs = "\n".join(str(s) for s in self.output_specs)
        return f"\n# inputs\n{input_specs}\n\n# outputs\n{output_specs}\n"


def _immutable(d: dict):
    return _MappingProxyType(d)


del annotations  # keep dir() to torch's names
