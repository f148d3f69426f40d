"""``torch.distributed.rpc.functions``: ``async_execution``."""

import functools


def async_execution(fn):
    """Mark ``fn`` as returning a ``torch.futures.Future``: the callee replies once that
    future completes (with its value), instead of with the future itself, so the function
    can return while the work it started (e.g. nested ``rpc_async`` calls) goes on."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    wrapper._wrapped_async_rpc_function = fn
    return wrapper
