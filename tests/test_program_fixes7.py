"""Fixes found by the seventh batch of real-style programs (``tests/programs``), each checked
against torch: linalg.lstsq names ScalarTypes ("Float", "Double") when the dtypes of its
arguments differ; unsqueeze (and indexing with None) gives the new dim torch's stride;
clone/empty_like keep a dense layout's strides exactly, those of size-1 dims included."""

from __future__ import annotations

import pytest

import ember

from .helpers import errors_alike, torch


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_lstsq_dtype_mismatch_names_scalar_types(dtypes):
    errors_alike(lambda L: L.linalg.lstsq(L.ones(4, 2, dtype=getattr(L, dtypes[0])),
                                          L.ones(4, 1, dtype=getattr(L, dtypes[1]))))


UNSQUEEZES = {
    "middle": lambda L: L.zeros(2, 3).unsqueeze(1),
    "front": lambda L: L.zeros(2, 3).unsqueeze(0),
    "end": lambda L: L.zeros(2, 3).unsqueeze(-1),
    "transposed": lambda L: L.zeros(2, 3).t().unsqueeze(1),
    "strided": lambda L: L.zeros(2, 3)[:, ::2].unsqueeze(1),
    "before_size_one": lambda L: L.zeros(4, 1, 3).unsqueeze(1),
    "index_none": lambda L: L.zeros(2, 3)[:, None],
    "index_ellipsis_nones": lambda L: L.zeros(2, 3)[..., None, None],
    "scalar": lambda L: L.tensor(1.0).unsqueeze(0),
}


@pytest.mark.parametrize("case", sorted(UNSQUEEZES))
def test_unsqueeze_strides_are_torchs(case):
    """A new size-1 dim takes the next dim's extent as its stride (NumPy's newaxis: 0)."""
    assert UNSQUEEZES[case](ember).stride() == UNSQUEEZES[case](torch).stride()


def test_unsqueezed_view_writes_through():
    for lib in (ember, torch):
        base = lib.arange(6.0).reshape(2, 3)
        base.unsqueeze(1).add_(1)
        assert base.sum().item() == 21.0



LIKES = {
    "unsqueezed_permuted": lambda L: L.arange(24.0).reshape(2, 3, 4).permute(0, 2, 1)
    .unsqueeze(1),
    "permuted_size_one": lambda L: L.zeros(2, 4, 1, 3).permute(0, 2, 3, 1),
}


@pytest.mark.parametrize("case", sorted(LIKES))
def test_clone_and_empty_like_keep_dense_strides_exactly(case):
    """A dense layout's strides are kept as they are, a size-1 dim's included."""
    got = {}
    for L in (ember, torch):
        t = LIKES[case](L)
        got[L.__name__] = (t.clone().stride(), L.empty_like(t).stride(),
                           L.empty_like(t, dtype=L.float64).stride(),
                           t.clone().add_(1).sum().item())
    assert got["ember"] == got["torch"]
