"""``ember.cuda.amp.common``."""

__all__ = ["amp_definitely_not_available"]


def amp_definitely_not_available() -> bool:
    """True: there is no CUDA (nor XLA) to run mixed precision on."""
    return True
