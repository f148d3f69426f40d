"""``torch._dynamo.exc``: the errors tracing raises (``torch.export`` among them)."""

from __future__ import annotations

from enum import Enum, auto

__all__ = ["TorchDynamoException", "UserError", "UserErrorType"]


class TorchDynamoException(RuntimeError):
    """The base of the tracing errors."""


class UserErrorType(Enum):
    """Why a :class:`UserError` was raised."""

    DYNAMIC_CONTROL_FLOW = auto()
    ANTI_PATTERN = auto()
    STANDARD_LIBRARY = auto()
    CONSTRAINT_VIOLATION = auto()
    DYNAMIC_DIM = auto()
    INVALID_INPUT = auto()
    INVALID_OUTPUT = auto()
    UNSUPPORTED_ALIASED_MUTATED_DYNAMIC_INPUTS = auto()


class UserError(TorchDynamoException):
    """A program or an argument that tracing cannot accept, with the kind of the problem
    (``error_type``)."""

    def __init__(self, error_type: UserErrorType, msg: str, case_name: str | None = None) -> None:
        if case_name is not None:
            msg += ("\nFor more information about this error, see: "
                    f"https://pytorch.org/docs/main/generated/exportdb/index.html#{case_name}")
        super().__init__(msg)
        self.error_type = error_type
        self.message = msg


del annotations  # keep dir() to torch's names
