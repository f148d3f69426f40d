"""``torch.fx.experimental.symbolic_shapes``: the error tracing raises when a program
branches on a tensor's value."""

__all__ = ["GuardOnDataDependentSymNode"]


class GuardOnDataDependentSymNode(RuntimeError):
    """A traced program made a Python decision (``if``, ``bool()``) on a tensor's value,
    which a graph cannot record."""
