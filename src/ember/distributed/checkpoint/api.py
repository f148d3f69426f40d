"""The error a distributed checkpoint raises when a rank failed."""

import traceback as _tb

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
        out = f"CheckpointException ranks:{self._failures.keys()}\n"
        for rank, exc in self._failures.items():
            out += f"Traceback (most recent call last): (RANK {rank})\n"
            out += "".join(_tb.format_tb(exc.__traceback__))
            out += "".join(_tb.format_exception_only(type(exc), exc))
        return out
