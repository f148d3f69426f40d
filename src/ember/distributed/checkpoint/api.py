"""The error a distributed checkpoint raises when a rank failed."""

__all__ = ["CheckpointException"]


class CheckpointException(BaseException):
    """A failure of ``save``/``load`` on one or more ranks: ``failures`` maps each failing
    rank to its exception."""

    def __init__(self, msg: str, failures: dict) -> None:
        super().__init__(msg, failures)
        self._failures = failures

    @property
    def failures(self) -> dict:
        return self._failures

    def __str__(self) -> str:
        return f"CheckpointException ranks:{self._failures.keys()}\n" + "\n".join(
            f"Traceback (most recent call last): (RANK {r})\n{e!r}"
            for r, e in self._failures.items())
