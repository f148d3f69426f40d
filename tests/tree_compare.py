"""Compare nested results (tuples, lists, dicts, tensors, numbers) of torch and ember."""

from __future__ import annotations

import numpy as np

from tests.helpers import ember, same_error, torch


def compare_trees(t, e, where: str = "out", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Same structure; tensors of the same shape, dtype, requires_grad and close values."""
    if isinstance(t, torch.Tensor):
        assert isinstance(e, ember.Tensor), f"{where}: {type(e)}"
        assert tuple(t.shape) == tuple(e.shape), f"{where}: shape {t.shape} vs {e.shape}"
        assert str(t.dtype) == str(e.dtype), where
        assert t.requires_grad == e.requires_grad, f"{where}: requires_grad"
        np.testing.assert_allclose(e.detach().numpy(), t.detach().numpy(), rtol=rtol,
                                   atol=atol, err_msg=where)
    elif isinstance(t, (tuple, list)):
        assert type(t).__name__ == type(e).__name__ and len(t) == len(e), where
        for k, (a, b) in enumerate(zip(t, e)):
            compare_trees(a, b, f"{where}[{k}]", rtol, atol)
    elif isinstance(t, dict):
        assert list(t) == list(e), where
        for k in t:
            compare_trees(t[k], e[k], f"{where}[{k!r}]", rtol, atol)
    else:
        assert t == e, f"{where}: {t!r} vs {e!r}"


def both(fn, *, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """``fn(lib)`` in torch and in ember: the same results, or the same error."""
    outs = []
    for L in (torch, ember):
        try:
            outs.append(("ok", fn(L)))
        except Exception as err:  # noqa: BLE001
            outs.append(("err", err))
    (tk, t), (ek, e) = outs
    if tk == "err":
        assert ek == "err", f"ember did not raise; torch raised {t!r}"
        same_error(t, e)
    else:
        if ek == "err":
            raise e
        compare_trees(t, e, rtol=rtol, atol=atol)
