"""Differences from torch closed in the tenth fidelity pass, each case compared with torch.

``unsafe_split``'s pieces share their input's storage, ``GRUCell`` runs ATen's in-place gate
arithmetic on them, ``einsum`` contracts as ATen 2.13 does (summed labels in alphabetical
order, operands swapped where ``bmm`` then writes the output in its own order), and what a
differential fuzz of ops found.
"""

import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


# ------------------------------------------------------------- unsafe_split, GRUCell


def _unsafe_pieces(L, split):
    base = L.arange(24.0).reshape(4, 6) * 1
    pieces = split(base)
    pieces[0].mul_(-1)                         # writes through to ``base``, untracked
    return (base, pieces, [p.stride() for p in pieces], [p._version for p in pieces],
            base._version, [p.data_ptr() - base.data_ptr() for p in pieces])


UNSAFE = {
    "unsafe_chunk dim 1": lambda L: _unsafe_pieces(L, lambda t: t.unsafe_chunk(3, 1)),
    "unsafe_split dim 0": lambda L: _unsafe_pieces(L, lambda t: t.unsafe_split(3, 0)),
    "unsafe_split_with_sizes": lambda L: _unsafe_pieces(
        L, lambda t: t.unsafe_split_with_sizes([1, 5], 1)),
    "torch.unsafe_chunk": lambda L: _unsafe_pieces(L, lambda t: L.unsafe_chunk(t, 2, 0)),
}


@pytest.mark.parametrize("case", list(UNSAFE))
def test_unsafe_split_pieces_share_storage(case):
    _same(UNSAFE[case])


def _gru(L, hidden, dtype, grad):
    L.manual_seed(0)
    cell = L.nn.GRUCell(7, hidden).to(getattr(L, dtype))
    x = L.randn(6, 7, dtype=getattr(L, dtype), requires_grad=grad)
    h = L.randn(6, hidden, dtype=getattr(L, dtype), requires_grad=grad)
    y = cell(x, h)
    if not grad:
        return y
    y.backward(L.randn(y.shape, dtype=y.dtype))
    return (y.detach(), type(y.grad_fn).__name__, x.grad, h.grad,
            [p.grad for p in cell.parameters()])


@pytest.mark.parametrize("hidden", [16, 20, 40])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("grad", [False, True])
def test_gru_cell_bits(hidden, dtype, grad):
    """The gates' sigmoids run on the hidden gates' strided chunks, as in ATen's cell."""
    _same(lambda L: _gru(L, hidden, dtype, grad))


# ------------------------------------------------------------- einsum

EINSUM = [("bjd,bij->bid", (4, 5, 3), (4, 2, 5)), ("ij,kj->ki", (3, 4), (5, 4)),
          ("bid,bjd->bij", (4, 2, 3), (4, 5, 3)), ("ij,jk->ik", (3, 4), (4, 5)),
          ("xyz,zyw->xw", (2, 3, 4), (4, 3, 5)), ("zb,ab->za", (3, 4), (5, 4)),
          ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)), ("i...,i...->...", (3, 2, 4), (3, 1, 4)),
          ("nchw,kc->nkhw", (2, 3, 4, 5), (6, 3)), ("ab,b->a", (3, 1), (1,)),
          ("Ab,bC->AC", (3, 4), (4, 5)), ("i,ij,j->", (3,), (3, 4), (4,))]


@pytest.mark.parametrize("eq,shapes", [(c[0], c[1:]) for c in EINSUM],
                         ids=[c[0] for c in EINSUM])
def test_einsum_layout_and_gradients(eq, shapes):
    def fn(L):
        L.manual_seed(0)
        xs = [L.randn(*s, dtype=L.float64, requires_grad=True) for s in shapes]
        y = L.einsum(eq, *xs)
        y.backward(L.randn(y.shape, dtype=y.dtype))      # randn_like follows y's strides
        return y.detach(), type(y.grad_fn).__name__, [x.grad for x in xs]
    _same(fn)
