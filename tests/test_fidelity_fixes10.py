"""Differences from torch closed in the tenth fidelity pass, each case compared with torch.

``unsafe_split``'s pieces share their input's storage, ``GRUCell`` runs ATen's in-place gate
arithmetic on them, ``einsum`` contracts as ATen 2.13 does (summed labels in alphabetical
order, operands swapped where ``bmm`` then writes the output in its own order), and what a
differential fuzz of ops found.
"""

import numpy as np
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


# ------------------------------------------------------------- writing into expanded tensors


def _expanded(L, dtype="float32"):
    return L.zeros(1, 3, dtype=getattr(L, dtype)).expand(2, 3)


def _setitem(index, value):
    def fn(L):
        t = _expanded(L)
        t[index(L)] = value
        return t
    return fn


EXPANDED = {
    "zero_": lambda L: _expanded(L).zero_(),
    "fill_ number": lambda L: _expanded(L).fill_(1.5),
    "fill_ int": lambda L: _expanded(L, "int64").fill_(7),
    "fill_ tensor": lambda L: _expanded(L).fill_(L.tensor(2.0)),
    "zero_ of a graph view": lambda L: L.ones(1, 3, requires_grad=True).clone().expand(2, 3)
    .zero_(),
    "masked_fill_ row mask": lambda L: _expanded(L).masked_fill_(
        L.tensor([True, False, True]), 1.0),
    "masked_fill_ full mask": lambda L: _expanded(L).masked_fill_(
        L.tensor([[True, False, False], [False, True, False]]), 1.0),
    "masked_fill_ tensor value": lambda L: _expanded(L).masked_fill_(
        L.tensor([True, False, True]), L.tensor(2.0)),
    "index_fill_": lambda L: _expanded(L).index_fill_(1, L.tensor([0, 2]), 3.0),
    "index_fill_ dim 0": lambda L: _expanded(L).index_fill_(0, L.tensor([1]), 3.0),
    "index_put_": lambda L: _expanded(L).index_put_((L.tensor([0]),), L.tensor(1.0)),
    "setitem index": _setitem(lambda L: (L.tensor([1]), L.tensor([1])), 1.0),
    "setitem slice": _setitem(lambda L: (slice(None), 1), 1.0),
    "add_": lambda L: _expanded(L).add_(1),
    "copy_": lambda L: _expanded(L).copy_(L.ones(2, 3)),
    "bernoulli_": lambda L: _expanded(L).bernoulli_(),
    "uniform_": lambda L: _expanded(L).uniform_(),
    "atan2_ of a number": lambda L: _expanded(L).atan2_(1.0),
}


@pytest.mark.parametrize("case", list(EXPANDED))
def test_writes_into_expanded_tensors(case):
    """torch's fills write through an expanded tensor's shared elements (masked and index
    fills with a deprecation warning); other in-place ops refuse it."""
    import warnings

    def outcome(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = outcome_of(L, EXPANDED[case])
        return res, [str(x.message) for x in w if "expanded" in str(x.message)]
    (t, tw), (e, ew) = outcome(torch), outcome(ember)
    same_outcome(t, e)
    assert tw == ew


# ------------------------------------------------------------- fuzz findings

FUZZ = {
    "rot90 k=1 is a transposed flip": lambda L: L.arange(12).reshape(3, 4).rot90(),
    "rot90 k=3 other plane": lambda L: L.arange(24).reshape(2, 3, 4).rot90(3, [0, 2]),
    "rot90 k=2 keeps the layout": lambda L: L.arange(12.).reshape(3, 4).t().rot90(2),
    "rot90 k=0 contiguous": lambda L: L.arange(12.).reshape(3, 4).t().rot90(0),
    "rot90 k=-1 of a transposed": lambda L: L.arange(12.).reshape(3, 4).t().rot90(-1),
    "angle of a 0-d complex": lambda L: L.tensor(1.5 + 1j).angle(),
    "angle of a 0-d complex128": lambda L: L.tensor(-1.5 - 1j, dtype=L.complex128).angle(),
    "isclose method with a number": lambda L: L.ones(2).isclose(3),
    "allclose method with a number": lambda L: L.ones(2).allclose(3),
    "equal method with a number": lambda L: L.ones(2).equal(3),
    "isclose function with a number": lambda L: L.isclose(L.ones(2), 3),
    "mv of a 0-d": lambda L: L.mv(L.tensor(1.0), L.ones(1)),
}


@pytest.mark.parametrize("case", list(FUZZ))
def test_fuzz_findings(case):
    _same(FUZZ[case])


# ------------------------------------------------------------- complex reductions, casts


def _cplx(L, shape, dtype="complex64", seed=1):
    rng = np.random.default_rng(seed)
    arr = rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape)
    return L.from_numpy(arr.astype(dtype))


COMPLEX = {
    "sum 3-d": lambda L: _cplx(L, (3, 4, 1)).sum(),
    "sum long": lambda L: _cplx(L, (5000,)).sum(),
    "sum dim": lambda L: _cplx(L, (16, 33)).sum(1),
    "sum strided": lambda L: _cplx(L, (4, 33))[::2].sum(0),
    "sum complex128": lambda L: _cplx(L, (200, 70), "complex128").sum(0),
    "mean": lambda L: _cplx(L, (33, 16)).mean(0),
    "broadcast gradient": lambda L: (lambda x: ((x * _cplx(L, (5, 3))).sum().abs().backward(),
                                                x.grad)[1])(
        _cplx(L, (1, 3), seed=2).requires_grad_()),
    "implicit gradient of a complex scalar": lambda L: _cplx(L, (3,)).requires_grad_().sum()
    .backward(),
    "var": lambda L: _cplx(L, (2, 2, 2)).var(1),
    "var all": lambda L: _cplx(L, (17,)).var(),
    "std strided": lambda L: _cplx(L, (17,))[::2].std(),
    "std dim keepdim": lambda L: _cplx(L, (16, 33)).std(0, keepdim=True),
    "var_mean": lambda L: L.var_mean(_cplx(L, (4, 5, 6)), 1),
    "std_mean all": lambda L: L.std_mean(_cplx(L, (100,), "complex128")),
    "cumprod": lambda L: _cplx(L, (2, 40)).cumprod(1),
    "cumprod complex128": lambda L: _cplx(L, (200,), "complex128").cumprod(0),
    "cumprod dim 0": lambda L: _cplx(L, (30, 3)).cumprod(0),
}


@pytest.mark.parametrize("case", list(COMPLEX))
def test_complex_reductions(case):
    """Complex sums follow torch's cascade (a complex vector holds half the lanes), var is
    the parts' variances added, cumprod accumulates in complex128 with c10's fused products."""
    _same(COMPLEX[case])


_CAST_VALUES = [-3.7, 300.5, 2.5, -200.0, 1e10, -1e10, float("nan"), float("inf"), -0.5,
                255.9, -129.0]


@pytest.mark.parametrize("dst", ["uint8", "int8", "int16", "int32", "int64", "bool"])
def test_bfloat16_to_integer_casts(dst):
    def fn(L):
        x = L.tensor(_CAST_VALUES, dtype=L.float64).to(L.bfloat16)
        return x.to(getattr(L, dst)), x[0].to(getattr(L, dst))
    _same(fn)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 15, 16, 31, 33, 1000])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_mul_bits(n, dtype):
    """Complex products: unfused in torch's vectors, fused by the compiler in a contiguous
    row's tail (complex64 in pairs)."""
    def fn(L):
        x, y = _cplx(L, (n,), dtype, seed=n), _cplx(L, (n,), dtype, seed=n + 1)
        return x * y, x.clone().mul_(y), L.mul(x.reshape(1, n), y.reshape(1, n)), x * 2.5
    _same(fn)
