"""Fixes found by the eighteenth batch of real-style programs (``tests/programs``), each
checked against torch: the parser errors of calls that leave out a required argument
(``x.softmax()``, ``x.flip()``, ``x.reshape()`` …) or give one of the wrong type."""

from __future__ import annotations

import pytest

import ember

from .helpers import torch


def _raised(L, fn):
    try:
        fn(L, L.arange(6.0).reshape(2, 3))
    except Exception as e:      # noqa: BLE001 (the class and message are compared)
        return type(e).__name__, str(e)
    return None


_CALLS = {
    "softmax": lambda L, x: x.softmax(),
    "softmax_fn": lambda L, x: L.softmax(x),
    "softmax_str": lambda L, x: x.softmax("a"),
    "softmax_fn_str": lambda L, x: L.softmax(x, "a"),
    "softmax_none": lambda L, x: x.softmax(None),
    "softmax_kw_none": lambda L, x: L.softmax(x, dim=None),
    "softmax_too_many": lambda L, x: L.softmax(x, 0, L.float64, 3),
    "softmax_bad_dtype": lambda L, x: x.softmax(0, dtype=2),
    "log_softmax": lambda L, x: x.log_softmax(),
    "log_softmax_fn": lambda L, x: L.log_softmax(x),
    "log_softmax_float": lambda L, x: x.log_softmax(1.5),
    "flip": lambda L, x: x.flip(),
    "flip_fn": lambda L, x: L.flip(x),
    "roll": lambda L, x: x.roll(),
    "unsqueeze": lambda L, x: x.unsqueeze(),
    "unsqueeze_fn": lambda L, x: L.unsqueeze(x),
    "select": lambda L, x: x.select(0),
    "transpose": lambda L, x: x.transpose(0),
    "index_select": lambda L, x: x.index_select(0),
    "gather": lambda L, x: x.gather(0),
    "topk": lambda L, x: x.topk(),
    "kthvalue": lambda L, x: x.kthvalue(),
    "chunk": lambda L, x: x.chunk(),
    "logcumsumexp": lambda L, x: x.logcumsumexp(),
    "cummax": lambda L, x: x.cummax(),
    "narrow": lambda L, x: x.narrow(0),
    "movedim": lambda L, x: x.movedim(0),
    "reshape": lambda L, x: x.reshape(),
    "view": lambda L, x: x.view(),
    "repeat": lambda L, x: x.repeat(),
    "expand": lambda L, x: x.expand(),
    "tensor_split": lambda L, x: x.tensor_split(),
    "split": lambda L, x: x.split(),
}


@pytest.mark.parametrize("case", sorted(_CALLS))
def test_missing_or_mistyped_arguments_raise_torchs_parser_error(case):
    want = _raised(torch, _CALLS[case])
    assert want is not None
    assert _raised(ember, _CALLS[case]) == want
