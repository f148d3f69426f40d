"""``torch.export``: capture a module as an ATen-level graph with its state lifted to inputs.

:func:`export` runs the module on the example inputs and records each ATen operator it
calls (``aten.linear.default``, ``aten.relu.default`` ...) into an :class:`ExportedProgram`:
a :class:`~ember.fx.GraphModule` whose inputs are the parameters (``p_fc_weight``), the
buffers (``b_bn_running_mean``) and the user inputs, each node's ``meta['val']`` holding its
shape (``"f32[s77, 3]"`` with :class:`Dim` marked dimensions symbolic), the
:class:`ExportGraphSignature`, the ``range_constraints`` of the symbols and the
``state_dict``. :meth:`ExportedProgram.module` gives a module computing what the original
does; :func:`save` and :func:`load` store a program in a file.
"""

from __future__ import annotations

import dataclasses as _dataclasses
import math as _math
import operator
from collections import OrderedDict
from enum import Enum as _Enum
from enum import auto as _auto
from typing import Any

__all__ = ["export", "Dim", "dims", "ExportedProgram", "ExportGraphSignature", "save", "load",
           "default_decompositions"]


# ----------------------------------------------------------------------------- Dim

class _IntInfinity:
    """``int_oo``: the unbounded end of a range."""

    def __repr__(self) -> str:
        return "int_oo"

    __str__ = __repr__

    def __gt__(self, other) -> bool:
        return not isinstance(other, _IntInfinity)

    def __lt__(self, other) -> bool:
        return False

    def __ge__(self, other) -> bool:
        return True

    def __le__(self, other) -> bool:
        return isinstance(other, _IntInfinity)

    def __eq__(self, other) -> bool:
        return isinstance(other, _IntInfinity)

    def __hash__(self) -> int:
        return hash(_math.inf)


_int_oo = _IntInfinity()


class _DimHintType(_Enum):
    AUTO = _auto()
    STATIC = _auto()
    DYNAMIC = _auto()


class _DimHint:
    """``Dim.AUTO``, ``Dim.DYNAMIC`` or ``Dim.STATIC`` (callable with ``min``/``max``)."""

    def __init__(self, type_: _DimHintType, min: int | None = None,  # noqa: A002
                 max: int | None = None) -> None:  # noqa: A002
        self.type, self.min, self.max = type_, min, max

    def __call__(self, min: int | None = None, max: int | None = None) -> _DimHint:  # noqa: A002
        return _DimHint(self.type, min=min, max=max)

    def __repr__(self) -> str:
        parts = [self.type.name]
        if self.min is not None:
            parts.append(f"min={self.min}")
        if self.max is not None:
            parts.append(f"max={self.max}")
        return f"DimHint({', '.join(parts)})"


class Dim:
    """A named dynamic dimension, ``Dim("batch", min=2, max=64)``: the dimensions marked with
    it in ``dynamic_shapes`` share one symbol ranging over ``[min, max]``. ``Dim.AUTO`` and
    ``Dim.DYNAMIC`` mark a dimension dynamic without a name, ``Dim.STATIC`` static."""

    AUTO = _DimHint(_DimHintType.AUTO)
    DYNAMIC = _DimHint(_DimHintType.DYNAMIC)
    STATIC = _DimHint(_DimHintType.STATIC)

    def __init__(self, name: str, *, min: int | None = None,  # noqa: A002
                 max: int | None = None) -> None:  # noqa: A002
        _min = 0 if min is None else min
        _max = _int_oo if max is None else max
        if not (_max > _min):
            raise AssertionError(f"Cannot create Dim with inconsistent min={min}, max={max}")
        if not name.isidentifier():
            raise AssertionError(f"Dim name must be a valid identifier, got {name}")
        self.__name__ = name
        self.min = _min
        self.max = _max

    @staticmethod
    def _readable(name: str, min_, max_) -> str:
        if min_ == 2:
            min_ = None
        if max_ == _int_oo:
            max_ = None
        if min_ is None and max_ is None:
            return f"Dim('{name}')"
        if min_ is None:
            return f"Dim('{name}', max={max_})"
        if max_ is None:
            return f"Dim('{name}', min={min_})"
        return f"Dim('{name}', min={min_}, max={max_})"

    def __repr__(self) -> str:
        return Dim._readable(self.__name__, self.min, self.max)


def dims(*names: str, min: int | None = None, max: int | None = None) -> tuple[Dim, ...]:  # noqa: A002
    """One :class:`Dim` for each name, all with the same range."""
    return tuple(Dim(name, min=min, max=max) for name in names)


# ----------------------------------------------------------------------------- signature

from .graph_signature import ExportGraphSignature  # noqa: E402
from .graph_signature import InputKind as _InputKind  # noqa: E402
from .graph_signature import InputSpec as _InputSpec  # noqa: E402
from .graph_signature import OutputKind as _OutputKind  # noqa: E402
from .graph_signature import OutputSpec as _OutputSpec  # noqa: E402
from .graph_signature import TensorArgument as _TensorArgument  # noqa: E402


class _ValueRanges:
    """The range ``VR[lower, upper]`` of a symbol."""

    def __init__(self, lower, upper) -> None:
        self.lower, self.upper = lower, upper

    def __repr__(self) -> str:
        return f"VR[{self.lower}, {self.upper}]"

    def __eq__(self, other) -> bool:
        return (isinstance(other, _ValueRanges) and self.lower == other.lower
                and self.upper == other.upper)

    __hash__ = None


class _Symbol:
    """A size symbol (``s77``) as a ``range_constraints`` key."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, _Symbol) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


# ----------------------------------------------------------------------------- program

class ExportedProgram:
    """A module captured by :func:`export`: ``graph_module`` (its ``graph``),
    ``graph_signature``, ``state_dict``, ``range_constraints``; :meth:`module` runs it."""

    def __init__(self, graph_module, graph_signature: ExportGraphSignature, state_dict: dict,
                 range_constraints: dict, example_inputs=None, in_spec=None, out_spec=None,
                 guards=None, constants=None) -> None:
        self._graph_module = graph_module
        self._graph_signature = graph_signature
        self._state_dict = state_dict
        self._range_constraints = range_constraints
        self._example_inputs = example_inputs
        self._in_spec = in_spec
        self._out_spec = out_spec
        self._guards = guards or []
        self._constants = constants or {}

    @property
    def graph_module(self):
        """The :class:`~ember.fx.GraphModule` of the program (state lifted to inputs)."""
        return self._graph_module

    @property
    def graph(self):
        """The program's :class:`~ember.fx.Graph`."""
        return self._graph_module.graph

    @property
    def graph_signature(self) -> ExportGraphSignature:
        """What the graph's inputs and outputs stand for."""
        return self._graph_signature

    @property
    def state_dict(self) -> dict:
        """The parameters and buffers the program reads, by name."""
        return self._state_dict

    @property
    def range_constraints(self) -> dict:
        """Symbol -> its ``ValueRanges``."""
        return self._range_constraints

    @property
    def constants(self) -> dict:
        """Lifted constant tensors, by name (``lifted_tensor_0``)."""
        return self._constants

    @property
    def example_inputs(self):
        """The ``(args, kwargs)`` the program was traced with."""
        return self._example_inputs

    @property
    def call_spec(self):
        """The input and output tree structures."""
        from collections import namedtuple
        return namedtuple("CallSpec", ["in_spec", "out_spec"])(self._in_spec, self._out_spec)

    def parameters(self):
        """The parameters, as the state dict holds them."""
        for name in self._graph_signature.parameters:
            yield self._state_dict[name]

    def named_parameters(self):
        """``(name, parameter)`` pairs."""
        for name in self._graph_signature.parameters:
            yield name, self._state_dict[name]

    def buffers(self):
        """The buffers, as the state dict holds them."""
        for name in self._graph_signature.buffers:
            yield self._state_dict[name]

    def named_buffers(self):
        """``(name, buffer)`` pairs."""
        for name in self._graph_signature.buffers:
            yield name, self._state_dict[name]

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Unable to call ExportedProgram directly. "
                           "You should use `exported_program.module()` instead.")

    def __str__(self) -> str:
        graph_module = self.graph_module.print_readable(print_output=False).replace(
            "\n", "\n    ")
        graph_signature = str(self.graph_signature).replace("\n", "\n    ")
        return ("ExportedProgram:\n"
                f"    {graph_module}\n"
                f"Graph signature: {graph_signature}\n"
                f"Range constraints: {self.range_constraints}\n")

    def __repr__(self) -> str:
        return str(self)

    def module(self, check_guards: bool = True):
        """A :class:`~ember.fx.GraphModule` taking the user inputs, with the parameters and
        buffers installed: it computes what the exported module does (and checks that the
        inputs' static sizes and symbol ranges hold)."""
        from . import _program
        return _program.unlift(self, check_guards)

    def run_decompositions(self, decomp_table=None) -> ExportedProgram:
        """The program in core ATen: composite ops (``linear``, ``conv2d``, ``batch_norm``
        ...) decomposed into the ops they are built from, in-place updates of buffers
        turned into outputs."""
        from . import _decomp
        return _decomp.run_decompositions(self)

    def validate(self) -> None:
        """Check the graph's invariants (a no-op: the graphs Ember builds hold them)."""


def default_decompositions() -> dict:
    """The decomposition table of :meth:`ExportedProgram.run_decompositions`."""
    from . import _decomp
    return dict(_decomp.DECOMPOSITIONS)


def export(mod, args: tuple, kwargs: dict | None = None, *, dynamic_shapes=None,
           strict: bool = False, preserve_module_call_signature: tuple = (),
           prefer_deferred_runtime_asserts_over_guards: bool = False) -> ExportedProgram:
    """Trace ``mod(*args, **kwargs)`` into an :class:`ExportedProgram` of ATen operators.

    ``dynamic_shapes`` (a dict by argument name, or a tuple by position, of
    ``{dim: Dim}`` or per-dimension lists) marks dimensions dynamic: their sizes become
    symbols in the graph. Branching on a tensor's value raises
    ``GuardOnDataDependentSymNode``, as torch's tracing does."""
    from ..nn import Module
    if not isinstance(mod, Module):
        raise ValueError(f"Expected `mod` to be an instance of `torch.nn.Module`, got "
                         f"{type(mod)}.")
    from .._dynamo.exc import UserError, UserErrorType
    from ..fx.experimental.symbolic_shapes import (ConstraintViolationError,
                                                   GuardOnDataDependentSymNode)
    from . import _program
    try:
        if not isinstance(args, tuple):
            raise UserError(UserErrorType.INVALID_INPUT,
                            f"Expecting `args` to be a tuple of example positional inputs, got "
                            f"{type(args)}")
        return _program.export(mod, args, kwargs or {}, dynamic_shapes)
    except (GuardOnDataDependentSymNode, UserError, ConstraintViolationError) as e:
        e.args = (str(e) + "\n\n" + _DRAFT_EXPORT_MSG,)
        raise e


_DRAFT_EXPORT_MSG = (
    "The error above occurred when calling torch.export.export. If you would like to view "
    "some more information about this error, and get a list of all other errors that may "
    "occur in your export call, you can replace your `export()` call with `draft_export()`.")


def save(ep: ExportedProgram, f, *, extra_files=None, opset_version=None,
         pickle_protocol: int = 2) -> None:
    """Write ``ep`` to the file (or file-like object) ``f``; :func:`load` reads it back."""
    from . import _program
    _program.save(ep, f)


def load(f, *, extra_files=None, expected_opset_version=None) -> ExportedProgram:
    """Read an :class:`ExportedProgram` written by :func:`save`."""
    from . import _program
    return _program.load(f)


del annotations, OrderedDict, operator, Any  # keep dir() to torch's names
