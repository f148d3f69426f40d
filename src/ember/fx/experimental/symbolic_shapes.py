"""``torch.fx.experimental.symbolic_shapes``: the errors tracing raises when a program
branches on a tensor's value or an example size breaks its dimension's range."""

__all__ = ["GuardOnDataDependentSymNode", "ConstraintViolationError"]


class GuardOnDataDependentSymNode(RuntimeError):
    """A traced program made a Python decision (``if``, ``bool()``) on a tensor's value,
    which a graph cannot record."""


class ConstraintViolationError(RuntimeError):
    """An example size outside the range its dynamic dimension was given."""
