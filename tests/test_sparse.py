"""Sparse COO tensors against torch: construction, printing, coalesce / to_dense / products
bit for bit, autograd (grad_fn names, the values' and the dense operand's gradients, a sparse
leaf's sparse ``.grad``), torch's errors for what it refuses, and save / load."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

import ember

from .helpers import torch

LIBS = (torch, ember)
IDX = [[0, 1, 1, 0, 2], [2, 0, 2, 2, 1]]
VALS = [3.0, 4.0, 5.0, 6.0, -1.5]

pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks")


def _np(t):
    return t.detach().numpy()


def _same_bits(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(np.ascontiguousarray(a).view(np.uint8),
                          np.ascontiguousarray(b).view(np.uint8)), (a, b)


def _same(want, got) -> None:
    """Same kind, layout, shape, dtype, bits, coalesced flag, grad_fn name and print."""
    if isinstance(want, (tuple, list)):
        assert len(want) == len(got)
        for w, g in zip(want, got):
            _same(w, g)
        return
    if not isinstance(want, torch.Tensor):
        assert want == got
        return
    assert isinstance(got, ember.Tensor)
    assert str(want.layout) == str(got.layout) and want.is_sparse == got.is_sparse
    assert tuple(want.shape) == tuple(got.shape) and str(want.dtype) == str(got.dtype)
    assert type(want.grad_fn).__name__ == type(got.grad_fn).__name__
    if want.is_sparse:
        assert want.is_coalesced() == got.is_coalesced()
        _same_bits(_np(want._indices()), _np(got._indices()))
        _same_bits(_np(want._values()), _np(got._values()))
    else:
        _same_bits(_np(want), _np(got))
    assert repr(want) == repr(got)


def both(fn):
    """``fn(lib)`` with torch and with ember; the results compared."""
    want, got = fn(torch), fn(ember)
    _same(want, got)
    return want, got


def errors(fn):
    """torch's and ember's exceptions from ``fn(lib)``: the same class and message."""
    found = []
    for lib in LIBS:
        with pytest.raises(Exception) as info:
            fn(lib)
        found.append(info.value)
    want, got = found
    assert type(want).__name__ == type(got).__name__, (want, got)
    return str(want), str(got)


def same_error(fn) -> None:
    want, got = errors(fn)
    assert want == got


def same_dispatch_error(fn) -> None:
    """torch's dispatcher error: the message up to its list of registered kernels."""
    want, got = errors(fn)
    assert want.startswith(got), (want, got)


def sp(lib, idx=IDX, vals=VALS, size=(3, 3), **kw):
    return lib.sparse_coo_tensor(lib.tensor(idx), lib.tensor(vals, **kw), size)


def _random(rng, dt, m, k, nnz):
    idx = np.stack([rng.integers(0, m, nnz), rng.integers(0, k, nnz)])
    vals = (rng.standard_normal(nnz) * 10.0 ** rng.integers(-3, 3, nnz)).astype(dt)
    return idx, vals


# ----------------------------------------------------------------------------- construction

def test_attributes():
    for lib in LIBS:
        s = sp(lib)
        assert s.is_sparse and str(s.layout) == "torch.sparse_coo"
        assert (s.sparse_dim(), s.dense_dim(), s._nnz(), s.is_coalesced()) == (2, 0, 5, False)
        assert tuple(s.shape) == (3, 3) and tuple(s.size()) == (3, 3) and s.size(1) == 3
        assert s.dim() == 2 and s.numel() == 9 and str(s.device) == "cpu"
        assert not s.requires_grad and s.is_leaf and s.stride() == (0, 0)
        assert not s.is_contiguous() and len(s) == 3
    assert not ember.ones(2).is_sparse and ember.ones(2).sparse_dim() == 0
    assert ember.ones(2, 3).dense_dim() == 2
    both(lambda L: L.ones(2).to_dense())


def test_coalesced_flag_of_constructions():
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0]]), L.tensor([1.0]), (2,)))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[1, 0]]), L.tensor([1.0, 2.0]), (2,)))
    both(lambda L: L.sparse_coo_tensor(L.zeros(1, 0, dtype=L.long), L.zeros(0), (2,)))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1.0, 2.0]), (2,),
                                       is_coalesced=True))


def test_inferred_size_lists_and_dtypes():
    both(lambda L: L.sparse_coo_tensor([[0, 4], [1, 2]], [1, 2]))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0, 4], [1, 2]]), L.tensor([1.0, 2.0])))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0.0, 1.0]]), L.tensor([1.0, 2.0]), (3,)))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([3, 4]), (5,),
                                       dtype=L.float64))
    both(lambda L: sp(L, vals=[1, 2, 3, 4, 5]))


def test_legacy_constructors():
    idx = [[0, 1], [1, 0]]
    both(lambda L: L.sparse.FloatTensor(L.tensor(idx), L.tensor([1.0, 2.0]), L.Size([2, 2])))
    both(lambda L: L.sparse.FloatTensor(L.tensor(idx), L.tensor([1.0, 2.0])))
    both(lambda L: L.sparse.FloatTensor(L.tensor(idx), L.tensor([1.0, 2.0], dtype=L.float64),
                                        L.Size([2, 2])))
    both(lambda L: L.sparse.LongTensor(L.tensor(idx), L.tensor([1, 2]), L.Size([2, 3])))
    both(lambda L: L.sparse.DoubleTensor(2, 3))
    for lib in LIBS:
        s = lib.sparse.FloatTensor(lib.tensor(idx), lib.tensor([1.0, 2.0]))
        assert isinstance(s, lib.sparse.FloatTensor)
        assert not isinstance(s, lib.sparse.DoubleTensor)
        assert not isinstance(lib.ones(2), lib.sparse.FloatTensor)
    ember.sparse._WARNED.clear()        # (torch warns once per process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            ember.sparse.FloatTensor(ember.tensor(idx), ember.tensor([1.0, 2.0]),
                                     ember.Size([2, 2]))
    assert [str(w.message) for w in caught] == [
            "torch.sparse.SparseTensor(indices, values, shape, *, device=) is deprecated.  "
            "Please use torch.sparse_coo_tensor(indices, values, shape, dtype=, device=). "
            "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:653.)"]


def test_hybrid_values():
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([[3.0, 4.0], [1, 2]]),
                                       (2, 2)))
    both(lambda L: L.tensor([[0, 1.0], [2, 0]]).to_sparse(1))
    both(lambda L: L.tensor([[0, 1.0], [2, 0]]).to_sparse(1).to_dense())


def test_empty():
    both(lambda L: L.zeros(3, 4).to_sparse())
    both(lambda L: L.sparse_coo_tensor(L.zeros(2, 0, dtype=L.long), L.zeros(0), (2, 3)))


def test_to_sparse():
    x = [[0.0, 1.5, 0.0], [-2.0, 0.0, float("nan")], [0.0, 0.0, 0.0]]
    both(lambda L: L.tensor(x).to_sparse())
    both(lambda L: L.tensor(x).to_sparse_coo())
    both(lambda L: L.tensor(x, dtype=L.float64).to_sparse(2))
    both(lambda L: L.tensor([[1, 0], [0, 2]]).to_sparse())
    both(lambda L: L.tensor([[1.0, 0], [0, 2]]).to_sparse().to_sparse())


# ----------------------------------------------------------------------------- printing

def test_printing():
    both(lambda L: sp(L))
    both(lambda L: sp(L).coalesce())
    both(lambda L: sp(L, requires_grad=True))
    both(lambda L: sp(L, requires_grad=True).coalesce())
    both(lambda L: L.sparse_coo_tensor(L.tensor(IDX), L.tensor(VALS), (3, 3),
                                       requires_grad=True))
    both(lambda L: sp(L, vals=[1e-5, 2.0, 3e5, 4.0, 5.0], size=(3, 30)))
    both(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([3.0, 4.0]), (5,),
                                       dtype=L.float64))
    for lib in LIBS:     # str is repr
        assert str(sp(lib)) == repr(sp(lib))
    assert str(sp(torch)) == str(sp(ember))


def test_printing_many_entries():
    rng = np.random.default_rng(0)
    idx, vals = _random(rng, np.float32, 40, 40, 1500)
    both(lambda L: L.sparse_coo_tensor(L.tensor(idx), L.tensor(vals), (40, 40)))


# ----------------------------------------------------------------------------- kernels

def _from(L, idx, vals, size, coalesce=False):
    out = L.sparse_coo_tensor(L.tensor(idx), L.tensor(vals), size)
    return out.coalesce() if coalesce else out


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(20))
def test_coalesce_and_to_dense_bits(dt, seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 6))
    idx, vals = _random(rng, dt, m, m, int(rng.integers(1, 300)))
    both(lambda L: _from(L, idx, vals, (m, m)).coalesce())
    both(lambda L: _from(L, idx, vals, (m, m)).to_dense())
    both(lambda L: _from(L, idx, vals, (m, m), True).to_dense())


def test_indices_values():
    both(lambda L: sp(L).coalesce().indices())
    both(lambda L: sp(L).coalesce().values())
    both(lambda L: sp(L)._indices())
    both(lambda L: sp(L)._values())
    for lib in LIBS:
        c = sp(lib).coalesce()
        assert c.coalesce() is c
        assert c.to_sparse() is c


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("co", [False, True])
def test_products_bits(dt, seed, co):
    rng = np.random.default_rng(seed)
    m, k, n = (int(v) for v in rng.integers(1, 70, 3))
    idx, vals = _random(rng, dt, m, k, int(rng.integers(0, 600)))
    d = rng.standard_normal((k, n)).astype(dt)
    c = rng.standard_normal((m, n)).astype(dt)

    def s(L):
        return _from(L, idx, vals, (m, k), co)
    both(lambda L: L.sparse.mm(s(L), L.tensor(d)))
    both(lambda L: L.mm(s(L), L.tensor(d)))
    both(lambda L: L.matmul(s(L), L.tensor(d)))
    both(lambda L: s(L) @ L.tensor(d))
    both(lambda L: L.spmm(s(L), L.tensor(d)))
    both(lambda L: s(L).mm(L.tensor(d)))
    both(lambda L: L.addmm(L.tensor(c), s(L), L.tensor(d)))
    both(lambda L: L.addmm(L.tensor(c), s(L), L.tensor(d), beta=0.5, alpha=1.5))
    both(lambda L: L.addmm(L.tensor(c[:1]), s(L), L.tensor(d), beta=0, alpha=-2))
    both(lambda L: L.sparse.addmm(L.tensor(c), s(L), L.tensor(d), beta=0.5, alpha=1.5))
    both(lambda L: L.mm(L.tensor(c.T), s(L)))
    both(lambda L: L.tensor(d.T) @ s(L).t())


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_matrix_vector_bits(dt):
    rng = np.random.default_rng(4)
    idx, vals = _random(rng, dt, 30, 20, 300)
    v = rng.standard_normal(20).astype(dt)
    both(lambda L: L.mv(_from(L, idx, vals, (30, 20)), L.tensor(v)))
    both(lambda L: L.matmul(_from(L, idx, vals, (30, 20), True), L.tensor(v)))
    both(lambda L: _from(L, idx, vals, (30, 20)) @ L.tensor(v))


def test_integer_product():
    both(lambda L: L.sparse.mm(L.tensor([[1, 0], [2, 3]]).to_sparse(),
                               L.tensor([[1, 2], [3, 4]])))


OTHER = ([[1, 2, 0], [1, 0, 0]], [7.0, -2.0, 0.25])


@pytest.mark.parametrize("co", [False, True])
def test_add_mul_transpose(co):
    def a(L):
        return _from(L, IDX, VALS, (3, 3), co)

    def b(L):
        return _from(L, OTHER[0], OTHER[1], (3, 3), co)
    both(lambda L: a(L) + b(L))
    both(lambda L: a(L) + a(L))
    both(lambda L: a(L) - b(L))
    both(lambda L: a(L).add(b(L), alpha=-1))
    both(lambda L: a(L) * 2.5)
    both(lambda L: 2.5 * a(L))
    both(lambda L: a(L) * L.tensor(3.0))
    both(lambda L: a(L) / 3)
    both(lambda L: -a(L))
    both(lambda L: a(L).t())
    both(lambda L: a(L).transpose(0, 1))
    both(lambda L: L.ones(3, 3) + a(L))
    both(lambda L: L.ones(3, 3) - a(L))
    both(lambda L: a(L).double())
    both(lambda L: a(L).detach())
    both(lambda L: a(L).clone())


@pytest.mark.parametrize("co", [False, True])
def test_module_function_forms(co):
    def a(L):
        return _from(L, IDX, VALS, (3, 3), co)
    both(lambda L: L.add(a(L), a(L)))
    both(lambda L: L.add(a(L), a(L).t(), alpha=2))
    both(lambda L: L.sub(a(L), a(L).t()))
    both(lambda L: L.mul(a(L), 2))
    both(lambda L: L.div(a(L), 4))
    both(lambda L: L.neg(a(L)))
    both(lambda L: L.t(a(L)))
    both(lambda L: L.transpose(a(L), 0, 1))
    both(lambda L: L.sum(a(L)))
    both(lambda L: L.clone(a(L)))
    both(lambda L: L.add(L.ones(3, 3), a(L)))
    both(lambda L: L.ones(3, 3).sub(a(L)))
    both(lambda L: L.ones(3, 3).add_(a(L)))
    both(lambda L: L.ones(3, 3).add_(a(L), alpha=-0.5))
    both(lambda L: L.ones(3, 3, dtype=L.float64).sub_(a(L).double()))
    same_error(lambda L: L.add(a(L), L.ones(3, 3)))
    same_error(lambda L: L.add(a(L), 1))
    same_error(lambda L: L.ones(3, 4).add_(a(L)))


def test_in_place_add_counts_a_version():
    x = ember.ones(3, 3)
    v = x._version
    x.add_(sp(ember))
    assert x._version == v + 1


def test_sparse_sum():
    both(lambda L: L.sparse.sum(sp(L)))
    both(lambda L: sp(L).sum())
    both(lambda L: L.sparse.sum(sp(L), 0))
    both(lambda L: L.sparse.sum(sp(L), 1))
    both(lambda L: L.sparse.sum(sp(L), (0, 1)))
    both(lambda L: L.sparse.sum(L.tensor([[0, 1.0], [2, 0]]).to_sparse(1), 1))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dim", [0, 1, -1, -2])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_bits_and_gradients(dt, seed, dim, log):
    rng = np.random.default_rng(seed)
    m, k = (int(v) for v in rng.integers(1, 12, 2))
    idx, vals = _random(rng, dt, m, k, int(rng.integers(1, 150)))
    vals = (rng.standard_normal(vals.size) * 3).astype(dt)
    g = rng.standard_normal((m, k)).astype(dt)

    def run(L):
        v = L.tensor(vals, requires_grad=True)
        s = L.sparse_coo_tensor(L.tensor(idx), v, (m, k))
        out = (L.sparse.log_softmax if log else L.sparse.softmax)(s, dim)
        out.to_dense().backward(L.tensor(g))
        return out, v.grad
    both(run)


def test_softmax_hybrid_and_errors():
    vals = np.arange(12.0, dtype=np.float32).reshape(4, 3) / 5
    both(lambda L: L.sparse.softmax(L.sparse_coo_tensor(
        L.tensor([[0, 1, 1, 0], [2, 0, 2, 1]]), L.tensor(vals), (2, 3, 3)), 1))
    both(lambda L: L.sparse.log_softmax(sp(L), 0, dtype=L.float64))
    same_dispatch_error(lambda L: L.sparse.softmax(L.ones(2), 0))


def test_sparse_mask():
    mask = ([[0, 1, 1], [0, 0, 1]], [1.0, 1.0, 1.0])
    both(lambda L: L.tensor([[0, 1.0], [2, 0]]).sparse_mask(
        L.sparse_coo_tensor(L.tensor(mask[0]), L.tensor(mask[1]), (2, 2))))


# ----------------------------------------------------------------------------- autograd

def _grads(L, fn, dt=np.float32):
    """``fn(L, values, dense)`` backpropagated with a fixed gradient: the output and the
    gradients of the values and of the dense operand."""
    rng = np.random.default_rng(7)
    v = L.tensor(np.array(VALS, dt), requires_grad=True)
    d = L.tensor(rng.standard_normal((3, 4)).astype(dt), requires_grad=True)
    s = L.sparse_coo_tensor(L.tensor(IDX), v, (3, 3))
    out = fn(L, s, d)
    g = out.to_dense() if out.is_sparse else out
    g.backward(L.tensor(rng.standard_normal(tuple(g.shape)).astype(dt)))
    return out, v.grad, d.grad


@pytest.mark.parametrize("name", ["sparse.mm", "mm", "matmul", "matmul_op", "spmm", "addmm",
                                  "sparse.addmm",
                                  "to_dense", "coalesce", "t", "scaled", "sum", "add", "mv",
                                  "dense_mm"])
def test_gradients(name):
    fns = {
        "sparse.mm": lambda L, s, d: L.sparse.mm(s, d),
        "mm": lambda L, s, d: L.mm(s, d),
        "matmul": lambda L, s, d: L.matmul(s, d),
        "matmul_op": lambda L, s, d: s @ d,
        "spmm": lambda L, s, d: L.spmm(s, d),
        "addmm": lambda L, s, d: L.addmm(d[:1] * 3, s, d, beta=0.5, alpha=2.0),
        "sparse.addmm": lambda L, s, d: L.sparse.addmm(d[:1] * 3, s, d, beta=0.5, alpha=2.0),
        "to_dense": lambda L, s, d: s.to_dense() * d[:, :3],
        "coalesce": lambda L, s, d: s.coalesce().to_dense() * d[:, :3],
        "t": lambda L, s, d: L.sparse.mm(s.t(), d),
        "scaled": lambda L, s, d: L.sparse.mm(-(s * 2) / 3, d),
        "sum": lambda L, s, d: L.sparse.sum(s, 1).to_dense() * d[:, 0],
        "mv": lambda L, s, d: L.mv(s, d[:, 1]),
        "dense_mm": lambda L, s, d: L.mm(d.t(), s),
        "add": lambda L, s, d: L.sparse.mm(s + s.t(), d),
    }
    for dt in (np.float32, np.float64):
        want = _grads(torch, fns[name], dt)
        got = _grads(ember, fns[name], dt)
        _same(want, got)


def test_sparse_leaf_gradient():
    def leaf(L, fn, twice=False):
        s = L.sparse_coo_tensor(L.tensor(IDX), L.tensor(VALS), (3, 3), requires_grad=True)
        for _ in range(2 if twice else 1):
            fn(L, s).backward()
        return s.grad
    d = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    both(lambda L: leaf(L, lambda L, s: L.sparse.mm(s, L.tensor(d)).sum()))
    both(lambda L: leaf(L, lambda L, s: L.mm(s, L.tensor(d)).sum()))
    both(lambda L: leaf(L, lambda L, s: L.mm(L.tensor(d.T), s).sum()))
    both(lambda L: leaf(L, lambda L, s: s.to_dense().sum()))
    both(lambda L: leaf(L, lambda L, s: s.to_dense().sum(), twice=True))
    both(lambda L: leaf(L, lambda L, s: L.sparse.sum(s)))
    both(lambda L: leaf(L, lambda L, s: (s.coalesce().values() * L.tensor([1.0, 2, 3, 4])).sum()))


@pytest.mark.parametrize("co", [False, True])
def test_sparse_leaf_gradient_coalesced_flag(co):
    def run(L, fn):
        s = _from(L, IDX, VALS, (3, 3), co).detach().requires_grad_()
        fn(L, s).backward()
        return s.grad
    both(lambda L: run(L, lambda L, s: s.to_dense().sum()))
    both(lambda L: run(L, lambda L, s: L.sparse.mm(s, L.ones(3, 2)).sum()))
    both(lambda L: run(L, lambda L, s: L.sparse.sum(s)))
    both(lambda L: run(L, lambda L, s: s.coalesce().values().sum()))


def test_values_gradient():
    def run(L):
        v = L.tensor(VALS, requires_grad=True)
        vv = L.sparse_coo_tensor(L.tensor(IDX), v, (3, 3)).coalesce().values()
        (vv * L.arange(4.0)).sum().backward()
        return vv, v.grad, L.sparse_coo_tensor(L.tensor(IDX), v, (3, 3))._values()
    both(run)


def test_to_sparse_gradient():
    def run(L, sparse_dim=None):
        x = L.tensor([[0, 1.0], [2, 0]], requires_grad=True)
        y = x.to_sparse() if sparse_dim is None else x.to_sparse(sparse_dim)
        z = y.to_dense() * L.tensor([[1.0, 2], [3, 4]])
        z.sum().backward()
        return y, x.grad
    both(run)
    both(lambda L: run(L, 1))


def test_backward_twice_frees_the_graph():
    def run(L):
        v = L.tensor(VALS, requires_grad=True)
        out = L.sparse_coo_tensor(L.tensor(IDX), v, (3, 3)).to_dense().sum()
        out.backward()
        out.backward()
    errors(run)


# ----------------------------------------------------------------------------- errors

def test_strided_ops_refuse_sparse():
    same_dispatch_error(lambda L: sp(L).view(9))
    same_dispatch_error(lambda L: sp(L).exp())
    same_dispatch_error(lambda L: L.exp(sp(L)))
    same_dispatch_error(lambda L: sp(L).softmax(0))
    same_error(lambda L: sp(L).reshape(9))
    same_error(lambda L: sp(L).contiguous())
    same_error(lambda L: sp(L).numpy())
    same_error(lambda L: sp(L).data_ptr())
    same_error(lambda L: sp(L).tolist())
    same_error(lambda L: sp(L).item())
    same_error(lambda L: sp(L).nbytes)


def test_errors():
    same_error(lambda L: sp(L).indices())
    same_error(lambda L: sp(L).values())
    same_error(lambda L: L.ones(2).indices())
    same_error(lambda L: L.ones(2).values())
    same_error(lambda L: L.ones(2).coalesce())
    same_error(lambda L: L.ones(2).is_coalesced())
    same_dispatch_error(lambda L: L.ones(2)._nnz())
    same_dispatch_error(lambda L: L.ones(2)._indices())
    same_dispatch_error(lambda L: L.ones(2)._values())
    same_dispatch_error(lambda L: L.ones(2).sparse_mask(L.ones(2)))
    same_error(lambda L: sp(L) + L.ones(3, 3))
    same_error(lambda L: sp(L) + sp(L, size=(3, 4)))
    same_error(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1.0, 2, 3]), (3,)))
    same_error(lambda L: L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1.0, 2]), (2, 3)))
    same_error(lambda L: L.sparse_coo_tensor(L.tensor([[[0]]]), L.tensor([1.0]), (2,)))
    same_error(lambda L: L.sparse.mm(sp(L), L.ones(2, 2)))
    same_error(lambda L: L.mm(sp(L), L.ones(2, 2)))
    same_error(lambda L: L.mm(L.ones(2, 2), sp(L)))
    same_error(lambda L: L.sparse.mm(sp(L), L.ones(3, 2, dtype=L.float64)))
    same_error(lambda L: L.sparse.mm(L.ones(2, 2, 2).to_sparse(), L.ones(2, 2)))
    same_error(lambda L: L.sparse.mm(L.ones(2, 2).to_sparse(1), L.ones(2, 2)))
    same_error(lambda L: L.tensor([[1.0]]).to_sparse(3))


def test_invariants_warning():
    import ember.sparse._sparse as impl
    impl._WARNED[0] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sp(ember)
        sp(ember)
    assert [str(w.message) for w in caught] == [impl._INVARIANTS_WARNING]
    assert "Sparse invariant checks are implicitly disabled" in impl._INVARIANTS_WARNING


# ----------------------------------------------------------------------------- save / load

def test_save_load_round_trip_and_torch_format(tmp_path):
    for co in (False, True):
        s = sp(ember)
        s = s.coalesce() if co else s
        buf = io.BytesIO()
        ember.save({"adj": s}, buf)
        buf.seek(0)
        back = ember.load(buf)["adj"]
        _same(torch.load(io.BytesIO(buf.getvalue()))["adj"], back)
        tbuf = io.BytesIO()
        torch.save({"adj": sp(torch).coalesce() if co else sp(torch)}, tbuf)
        tbuf.seek(0)
        _same(torch.load(io.BytesIO(tbuf.getvalue()))["adj"], ember.load(tbuf)["adj"])


_UNARY_GRADS = ["abs", "relu", "sign", "floor", "ceil", "round", "trunc", "frac", "deg2rad",
                "rad2deg", "log1p", "square"]
_UNARY_NO_GRAD = ["sqrt", "sin", "sinh", "tanh", "erf", "erfinv", "sgn", "nan_to_num", "expm1",
                  "asin", "atan", "tan", "asinh", "atanh"]


def _unary_input(lib, dtype="float32"):
    v = np.array([0.3, -0.4, 0.5, 0.6, -0.0], dtype)
    return lib.sparse_coo_tensor([[0, 1, 1, 0, 2], [2, 0, 2, 2, 1]], lib.tensor(v),
                                 (3, 3)).requires_grad_()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", _UNARY_GRADS + ["isnan", "isinf", "signbit", "isposinf"])
def test_unary_ops_on_coalesced_values(name, dtype):
    """torch's ``coalesced_unary_ufunc``: the dense op on the coalesced values, the result
    coalesced; the gradient at the coalesced pattern (empty for the step functions)."""
    def run(lib):
        s = _unary_input(lib, dtype)
        r = getattr(s, name)()
        if not r.requires_grad:
            return r
        w = lib.arange(9.0, dtype=r.dtype).view(3, 3) - 2
        (r.to_dense() * w).sum().backward()
        return r, s.grad
    both(run)


@pytest.mark.parametrize("name", _UNARY_NO_GRAD)
def test_unary_ops_whose_backward_torch_cannot_run(name):
    both(lambda lib: getattr(_unary_input(lib), name)())
    errors_match = same_dispatch_error if name in ("sin", "sinh", "tanh", "erf", "erfinv",
                                                   "sgn", "nan_to_num") else same_error
    errors_match(lambda lib: getattr(_unary_input(lib), name)().to_dense().sum().backward())


@pytest.mark.parametrize("expr", [
    lambda lib, s: s.pow(2), lambda lib, s: s.pow(2.5), lambda lib, s: s ** 3,
    lambda lib, s: lib.pow(s, -1.5), lambda lib, s: lib.relu(s),
    lambda lib, s: lib.nn.functional.relu(s), lambda lib, s: lib.abs(s)])
def test_unary_functions_and_pow(expr):
    def run(lib):
        s = _unary_input(lib)
        r = expr(lib, s)
        (r.to_dense() * (lib.arange(9.0).view(3, 3) - 2)).sum().backward()
        return r, s.grad
    both(run)


def test_unary_ops_integer_and_hybrid_values():
    def run(lib):
        s = lib.sparse_coo_tensor([[0, 1, 1, 0, 2], [2, 0, 2, 2, 1]], lib.tensor([1, -2, 3, 4, 0]),
                                  (3, 3))
        h = lib.sparse_coo_tensor([[0, 1, 0]], lib.tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 3.0]]),
                                  (2, 2))
        return s.abs(), s.sqrt(), s.floor(), s.isnan(), s.pow(2), s.relu(), s.sign(), h.tanh()
    both(run)
    same_error(lambda lib: _unary_input(lib).pow(0))
    same_error(lambda lib: _unary_input(lib).pow(1).to_dense().sum().backward())


def _spgemm_operands(lib, seed=0):
    rng = np.random.default_rng(seed)
    a = lib.sparse_coo_tensor([[0, 2, 1, 0, 2, 2], [1, 0, 3, 1, 2, 3]],
                              lib.tensor(rng.standard_normal(6).astype(np.float32)), (3, 4))
    b = lib.sparse_coo_tensor([[1, 3, 0, 2, 1, 3], [0, 0, 4, 1, 4, 2]],
                              lib.tensor(rng.standard_normal(6).astype(np.float32)), (4, 5))
    return a.requires_grad_(), b.requires_grad_()


@pytest.mark.parametrize("product", [
    lambda lib, a, b: lib.sparse.mm(a, b), lambda lib, a, b: a.mm(b),
    lambda lib, a, b: lib.mm(a, b), lambda lib, a, b: a @ b])
def test_sparse_sparse_mm(product):
    """``_sparse_sparse_matmul``: each row's sums in ``_csr_matmult``'s order, a coalesced
    result; ``SparseSparseMatmulBackward0`` masks the gradients to the operands' patterns,
    ``MmBackward0`` does not."""
    def run(lib):
        a, b = _spgemm_operands(lib)
        r = product(lib, a, b)
        (r.to_dense() * lib.arange(15.0).view(3, 5)).sum().backward()
        return r, a.grad, b.grad
    both(run)


def test_sparse_sparse_mm_bits_dense_gradient_and_errors():
    rng = np.random.default_rng(5)
    x = np.maximum(rng.standard_normal((30, 40)), 0).astype(np.float32)
    y = np.maximum(rng.standard_normal((40, 20)), 0).astype(np.float32)
    both(lambda lib: lib.sparse.mm(lib.tensor(x).to_sparse(), lib.tensor(y).to_sparse()))

    def dense_grad(lib, f):
        a, b = _spgemm_operands(lib)
        return lib.autograd.grad(f(a, b), (a, b), grad_outputs=lib.ones(3, 5))
    both(lambda lib: dense_grad(lib, lib.mm))
    same_error(lambda lib: dense_grad(lib, lib.sparse.mm))
    same_error(lambda lib: lib.sparse.mm(*_spgemm_operands(lib)[:1], _spgemm_operands(lib)[0]))
    same_error(lambda lib: lib.sparse.mm(_spgemm_operands(lib)[0],
                                         _spgemm_operands(lib)[1].double()))


def _csr_parts(c):
    """A CSR matrix as what can be compared: its print and its three component tensors."""
    assert c.is_sparse_csr and not c.is_sparse and str(c.layout) == "torch.sparse_csr"
    return repr(c), c.crow_indices(), c.col_indices(), c.values(), c._nnz(), c.to_dense()


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
def test_csr_construction_conversion_and_printing():
    d = [[0.0, 3.0, 0.0], [4.0, 0.0, 5.0]]

    def run(lib):
        x = lib.tensor(d)
        return (*_csr_parts(x.to_sparse_csr()), *_csr_parts(x.to_sparse().to_sparse_csr()),
                *_csr_parts(lib.sparse_csr_tensor(lib.tensor([0, 1, 3]), lib.tensor([1, 0, 2]),
                                                  lib.tensor([1.0, 2.0, 3.0]), (2, 3))),
                *_csr_parts(lib.sparse_csr_tensor([0, 1, 3], [1, 0, 2], [1.0, 2.0, 3.0])),
                *_csr_parts(lib.zeros(2, 0).to_sparse_csr()),
                *_csr_parts(lib.tensor([[1, 0], [0, 2]]).to_sparse_csr()),
                *_csr_parts(x.double().requires_grad_().to_sparse_csr()),
                *_csr_parts(x.to_sparse(layout=lib.sparse_csr)),
                x.to_sparse_csr().to_sparse())
    both(run)
    same_dispatch_error(lambda lib: lib.tensor(d).to_sparse_csr().view(6))


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cols", [1, 3, 17, 64])
def test_csr_times_dense(cols, dtype):
    """torch's MKL build: ``mkl_sparse_?_mm``, whose kernel differs by CPU (a fused chain
    per row on an AVX-512 Xeon, rounded products on a Zen 4): Ember makes the same call."""
    rng = np.random.default_rng(cols)
    a = (rng.standard_normal((40, 50)) * (rng.random((40, 50)) < 0.3)).astype(dtype)
    b = rng.standard_normal((50, cols)).astype(dtype)
    both(lambda lib: lib.tensor(a).to_sparse_csr() @ lib.tensor(b))
    both(lambda lib: lib.mm(lib.tensor(a).to_sparse_csr(), lib.tensor(b)))


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
def test_csr_times_dense_on_threads():
    """A larger product on one and on two threads (MKL's threads follow torch's count)."""
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((700, 300)) * (rng.random((700, 300)) < 0.1)).astype(np.float32)
    b = rng.standard_normal((300, 33)).astype(np.float32)
    before = torch.get_num_threads(), ember.get_num_threads()
    try:
        for n in (1, 2):
            torch.set_num_threads(n)
            ember.set_num_threads(n)
            both(lambda lib: lib.tensor(a).to_sparse_csr() @ lib.tensor(b))
    finally:
        torch.set_num_threads(before[0])
        ember.set_num_threads(before[1])


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
def test_csr_times_dense_without_mkl(monkeypatch):
    """Without MKL, ``addmm_out_sparse_csr_native_cpu``'s algorithm: each row's products
    rounded and added in stored order."""
    from ember.sparse import _csr
    monkeypatch.setattr(_csr, "_mkl_csr_mm", lambda a, b: None)
    rng = np.random.default_rng(8)
    a = (rng.standard_normal((30, 20)) * (rng.random((30, 20)) < 0.4)).astype(np.float32)
    b = rng.standard_normal((20, 5)).astype(np.float32)
    want = np.zeros((30, 5), np.float32)
    for i, j in zip(*np.nonzero(a)):
        want[i] += a[i, j] * b[j]
    got = (ember.tensor(a).to_sparse_csr() @ ember.tensor(b)).numpy()
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("name", ["abs", "sqrt", "sin", "tanh", "relu", "floor", "log1p",
                                  "deg2rad", "nan_to_num", "erfinv"])
def test_unary_ops_in_place(name):
    """``coalesced_unary_ufunc_``: the values of a coalesced tensor changed in place (a held
    ``_values()`` sees it); an uncoalesced one refused."""
    def run(lib):
        s = _unary_input(lib).detach().coalesce()
        held = s._values()
        assert getattr(s, name + "_")() is s
        return s, held
    both(run)
    same_error(lambda lib: getattr(_unary_input(lib).detach(), name + "_")())
    same_error(lambda lib: getattr(_unary_input(lib).detach().coalesce().requires_grad_(),
                                   name + "_")())


def test_unary_in_place_result_type_error():
    same_error(lambda lib: lib.sparse_coo_tensor([[0, 2]], lib.tensor([1, 4]), (3,))
               .coalesce().sqrt_())
