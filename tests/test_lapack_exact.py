"""Linear algebra is torch's bit for bit where MKL's runtime is installed (``ember[mkl]``):
the decompositions make ATen's LAPACK calls (``BatchLinearAlgebraKernel.cpp``: the same
routine, ``uplo``/``jobz`` flags, workspace query and batched column-major copies), so the
factors, their strides and what is computed from them are torch's. MKL's threaded LAPACK may
split work between threads, so 1 and 2 threads are both checked. Without MKL the kernels are
NumPy's LAPACK, a few ulps apart, and these tests skip."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _vml

from .helpers import torch

pytestmark = [pytest.mark.skipif(_vml.library() is None, reason="MKL's runtime is not installed"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

SQUARE = [(1, 1), (3, 3), (8, 8), (40, 40), (130, 130), (2, 3, 17, 17)]
DTYPES = ["float32", "float64", "complex64", "complex128"]


def _bits(t):
    a = t.detach().resolve_conj().numpy()
    return a.shape, a.dtype.str, a.strides, np.ascontiguousarray(a).view(np.uint8).tobytes()


def _all_bits(res):
    if isinstance(res, (tuple, list)):
        return [_bits(t) for t in res]
    return _bits(res)


def _data(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x


def _spd(rng, shape, dtype):
    x = _data(rng, shape, dtype)
    return x @ np.swapaxes(x, -1, -2).conj() + shape[-1] * np.eye(shape[-1])


def _same(fn, *arrays, dtype, grad=False):
    """``fn(L, *tensors)`` with ember and torch: the same bits (and, with ``grad``, the same
    gradient of the sum of the squared magnitudes of the outputs)."""
    got = []
    for L in (ember, torch):
        ts = [L.tensor(a, dtype=getattr(L, dtype), requires_grad=grad) for a in arrays]
        res = fn(L, *ts)
        out = [_all_bits(res)]
        if grad:
            outs = res if isinstance(res, (tuple, list)) else (res,)
            loss = sum(((o * o.conj()).real if o.is_complex() else o * o).sum()
                       for o in outs if o.is_floating_point() or o.is_complex())
            grads = L.autograd.grad(loss, ts, allow_unused=True)
            out.append([None if g is None else _bits(g) for g in grads])
        got.append(out)
    return got[0] == got[1]


CHOLESKY = {
    "linalg.cholesky": lambda L, a: L.linalg.cholesky(a),
    "linalg.cholesky_upper": lambda L, a: L.linalg.cholesky(a, upper=True),
    "cholesky_ex": lambda L, a: L.linalg.cholesky_ex(a),
    "cholesky_legacy": lambda L, a: L.cholesky(a),
    "cholesky_legacy_upper": lambda L, a: L.cholesky(a, upper=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CHOLESKY))
def test_cholesky(name, dtype, threads):
    if name.startswith("cholesky_legacy") and dtype.startswith("complex"):
        pytest.skip("torch.cholesky takes real input only")
    rng = np.random.default_rng(0)
    for shape in SQUARE:
        assert _same(CHOLESKY[name], _spd(rng, shape, dtype), dtype=dtype), shape


def test_cholesky_ex_keeps_potrfs_partial_factor():
    a = np.eye(4)
    a[2, 2] = -1
    assert _same(lambda L, x: L.linalg.cholesky_ex(x), np.stack([np.eye(4), a]),
                 dtype="float64")


RECT = [(1, 1), (5, 3), (3, 5), (8, 8), (70, 40), (40, 70), (130, 130), (2, 3, 17, 9),
        (2, 9, 17)]

QR = {
    "linalg.qr": lambda L, a: L.linalg.qr(a),
    "linalg.qr_complete": lambda L, a: L.linalg.qr(a, mode="complete"),
    "linalg.qr_r": lambda L, a: L.linalg.qr(a, mode="r"),
    "qr_legacy": lambda L, a: L.qr(a, some=False),
    "geqrf": lambda L, a: L.geqrf(a),
    "householder_product": lambda L, a: L.linalg.householder_product(*L.geqrf(a))
    if a.shape[-2] >= a.shape[-1] else L.orgqr(*L.geqrf(a.mT)),
    "ormqr": lambda L, a: L.ormqr(*L.geqrf(a), L.ones_like(a) + a * 0.5),
    "ormqr_right_transposed": lambda L, a: L.ormqr(*L.geqrf(a), L.ones_like(a.mT) + a.mT,
                                                   left=False, transpose=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(QR))
def test_qr(name, dtype, threads):
    rng = np.random.default_rng(1)
    for shape in RECT:
        assert _same(QR[name], _data(rng, shape, dtype), dtype=dtype), shape


def test_orthogonal_init_and_parametrization():
    got = []
    for L in (ember, torch):
        L.manual_seed(0)
        w, w2 = L.empty(30, 50), L.empty(50, 30)
        w3 = L.empty(8, 3, 3, 3, dtype=L.float64)
        L.nn.init.orthogonal_(w)
        L.nn.init.orthogonal_(w2, gain=2.0)
        L.nn.init.orthogonal_(w3, gain=0.7)
        m = L.nn.utils.parametrizations.orthogonal(L.nn.Linear(6, 6))
        m2 = L.nn.utils.parametrizations.orthogonal(L.nn.Linear(9, 5),
                                                    orthogonal_map="householder")
        got.append([_bits(t) for t in (w, w2, w3, m.weight, m2.weight)])
    assert got[0] == got[1]


LU = {
    "lu_factor": lambda L, a, b: L.linalg.lu_factor(a),
    "lu_factor_ex": lambda L, a, b: L.linalg.lu_factor_ex(a),
    "lu": lambda L, a, b: L.linalg.lu(a),
    "lu_legacy": lambda L, a, b: L.lu(a, get_infos=True),
    "lu_unpack": lambda L, a, b: L.lu_unpack(*L.linalg.lu_factor(a)),
    "lu_solve": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b),
    "lu_solve_adjoint": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b,
                                                          adjoint=True),
    "lu_solve_right": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b.mT,
                                                        left=False),
    "lu_solve_legacy": lambda L, a, b: L.lu_solve(b, *L.linalg.lu_factor(a)),
    "solve": lambda L, a, b: L.linalg.solve(a, b),
    "solve_vector": lambda L, a, b: L.linalg.solve(a, b[..., 0]),
    "solve_transposed": lambda L, a, b: L.linalg.solve(a.mT, b),
    "solve_right": lambda L, a, b: L.linalg.solve(a, b.mT, left=False),
    "solve_broadcast": lambda L, a, b: L.linalg.solve(a, L.stack([b, 2 * b])),
    "solve_ex": lambda L, a, b: L.linalg.solve_ex(a, b),
    "inv": lambda L, a, b: L.linalg.inv(a),
    "inv_transposed": lambda L, a, b: L.linalg.inv(a.mT),
    "inverse": lambda L, a, b: L.inverse(a),
    "inv_ex": lambda L, a, b: L.linalg.inv_ex(a),
    "det": lambda L, a, b: L.linalg.det(a),
    "det_transposed": lambda L, a, b: L.det(a.mT),
    "slogdet": lambda L, a, b: L.linalg.slogdet(a),
    "logdet": lambda L, a, b: L.logdet(a),
}
# torch's complex prod (the product of the diagonal) is not Ember's yet
_COMPLEX_PROD = {"det", "det_transposed", "slogdet", "logdet"}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(LU))
def test_lu(name, dtype, threads):
    if dtype.startswith("complex") and name in _COMPLEX_PROD:
        pytest.skip("the product of a complex diagonal is not torch's bits yet")
    rng = np.random.default_rng(2)
    for shape in SQUARE + [(5, 2, 2)]:
        a = _data(rng, shape, dtype)
        b = _data(rng, shape[:-1] + (3,), dtype)
        assert _same(LU[name], a, b, dtype=dtype), shape


def test_singular_inv_ex_and_solve_ex_keep_getrs_output():
    a = np.ones((2, 3, 3))
    a[0] = np.eye(3)
    b = np.ones((2, 3, 1))
    for fn in (lambda L, x, y: L.linalg.inv_ex(x), lambda L, x, y: L.linalg.solve_ex(x, y),
               lambda L, x, y: L.linalg.lu_factor_ex(x)):
        assert _same(fn, a, b, dtype="float64")


SPECTRAL = {
    "svd": lambda L, a: L.linalg.svd(a),
    "svd_reduced": lambda L, a: L.linalg.svd(a, full_matrices=False),
    "svdvals": lambda L, a: L.linalg.svdvals(a),
    "svd_legacy": lambda L, a: L.svd(a),
    "svd_legacy_complete": lambda L, a: L.svd(a, some=False),
    "svd_legacy_values_only": lambda L, a: L.svd(a, compute_uv=False),
    "pinv": lambda L, a: L.linalg.pinv(a),
    "pinv_atol": lambda L, a: L.linalg.pinv(a, atol=0.5),
    "pinverse": lambda L, a: L.pinverse(a),
    "matrix_rank": lambda L, a: L.linalg.matrix_rank(a),
    "matrix_norm_2": lambda L, a: L.linalg.matrix_norm(a, ord=2),
    "matrix_norm_nuc": lambda L, a: L.linalg.matrix_norm(a, ord="nuc"),
    "cond": lambda L, a: L.linalg.cond(a),
}
HERMITIAN = {
    "eigh": lambda L, a: L.linalg.eigh(a),
    "eigh_upper": lambda L, a: L.linalg.eigh(a, UPLO="U"),
    "eigvalsh": lambda L, a: L.linalg.eigvalsh(a),
    "pinv_hermitian": lambda L, a: L.linalg.pinv(a + a.mH, hermitian=True),
    "matrix_rank_hermitian": lambda L, a: L.linalg.matrix_rank(a + a.mH, hermitian=True),
}
# complex matrix products are NumPy's in Ember, not MKL's
_COMPLEX_MATMUL = {"pinv", "pinv_atol", "pinverse", "pinv_hermitian"}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(SPECTRAL) + sorted(HERMITIAN))
def test_svd_and_eigh(name, dtype, threads):
    if dtype.startswith("complex") and name in _COMPLEX_MATMUL:
        pytest.skip("complex matrix products are not torch's bits yet")
    fn = SPECTRAL.get(name) or HERMITIAN[name]
    rng = np.random.default_rng(3)
    for shape in SQUARE + ([] if name in HERMITIAN else [(5, 3), (3, 5), (70, 20),
                                                          (2, 9, 30)]):
        assert _same(fn, _data(rng, shape, dtype), dtype=dtype), shape


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eigvalsh_and_svdvals_of_inputs_requiring_grad(dtype):
    """Where a gradient may be needed torch asks LAPACK for the vectors too (another
    algorithm, other bits of the values)."""
    rng = np.random.default_rng(4)
    a = _data(rng, (40, 40), dtype)
    assert _same(lambda L, x: L.linalg.eigvalsh(x), a, dtype=dtype, grad=True)
    assert _same(lambda L, x: L.linalg.svdvals(x), a, dtype=dtype, grad=True)


CHOLESKY_SOLVERS = {
    "cholesky_solve": lambda L, a, b: L.cholesky_solve(b, L.linalg.cholesky(a)),
    "cholesky_solve_upper": lambda L, a, b: L.cholesky_solve(
        b, L.linalg.cholesky(a, upper=True), upper=True),
    "cholesky_solve_broadcast": lambda L, a, b: L.cholesky_solve(L.stack([b, 2 * b]),
                                                                 L.linalg.cholesky(a)),
    "cholesky_inverse": lambda L, a, b: L.cholesky_inverse(L.linalg.cholesky(a)),
    "cholesky_inverse_upper": lambda L, a, b: L.cholesky_inverse(
        L.linalg.cholesky(a, upper=True), upper=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CHOLESKY_SOLVERS))
def test_cholesky_solve_and_inverse(name, dtype, threads):
    rng = np.random.default_rng(5)
    for shape in SQUARE:
        a, b = _spd(rng, shape, dtype), _data(rng, shape[:-1] + (3,), dtype)
        assert _same(CHOLESKY_SOLVERS[name], a, b, dtype=dtype), shape


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("driver", ["gels", "gelsd", "gelss"])
@pytest.mark.parametrize("vector", [False, True], ids=["matrix", "vector"])
def test_lstsq(driver, dtype, vector, threads):
    """Solution, residuals, rank and singular values (gelsy: see the tests below)."""
    def fn(L, a, b):
        res = L.linalg.lstsq(a, b[..., 0] if vector else b, driver=driver)
        # the residuals of complex systems are summed in another order (not torch's bits)
        return res if not a.is_complex() else (res.solution, res.rank, res.singular_values)

    rng = np.random.default_rng(6)
    for shape in RECT:
        a, b = _data(rng, shape, dtype), _data(rng, shape[:-1] + (4,), dtype)
        assert _same(fn, a, b, dtype=dtype), shape


@pytest.mark.parametrize("dtype", DTYPES)
def test_lstsq_gelsy_after_the_first_matrix(dtype, threads):
    """gelsy, the default driver: ATen gives it one uninitialized ``jpvt`` for the whole
    batch, so from the second matrix on each starts from the permutation the one before
    returned, every column fixed: QR without column pivoting, deterministic (the first
    matrix's pivoting follows leftover heap bytes, so it is left out here)."""
    rng = np.random.default_rng(8)
    for shape in [(3, 70, 40), (3, 40, 70), (4, 17, 9), (3, 9, 17), (3, 8, 8), (5, 2500, 10)]:
        a, b = _data(rng, shape, dtype), _data(rng, shape[:-1] + (3,), dtype)
        got = [L.linalg.lstsq(L.tensor(a, dtype=getattr(L, dtype)),
                              L.tensor(b, dtype=getattr(L, dtype))) for L in (ember, torch)]
        assert _all_bits(got[0].solution[1:]) == _all_bits(got[1].solution[1:]), shape
        assert got[0].rank[1:].tolist() == got[1].rank[1:].tolist()


def test_lstsq_gelsy_does_not_pivot_later_matrices():
    """A zero first column (or a zero column among the first ranks) stops gelsy's rank
    estimate there when the columns are not pivoted: torch's ranks from the second matrix
    on, and Ember's for every matrix."""
    rng = np.random.default_rng(9)
    for col, rank in ((0, 0), (3, 3)):
        a = rng.standard_normal((4, 20, 5))
        a[..., col] = 0
        b = rng.standard_normal((4, 20, 2))
        ranks = [L.linalg.lstsq(L.tensor(a), L.tensor(b)).rank.tolist() for L in (ember, torch)]
        assert ranks[0] == [rank] * 4
        assert ranks[1][1:] == [rank] * 3


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_eig(name, dtype, threads):
    fn = (lambda L, a: L.linalg.eig(a)) if name == "eig" else (lambda L, a: L.linalg.eigvals(a))
    rng = np.random.default_rng(7)
    split = []
    for shape in SQUARE:
        a = _data(rng, shape, dtype)
        if _same(fn, a, dtype=dtype):
            continue
        # on two threads MKL's runtime and the MKL built into torch may split geev's work
        # differently (seen on an AVX512 Intel CPU: a float32 130x130 matrix); the
        # eigenvalues then agree to the type's precision, in geev's order or another
        # (its deflation may meet them in another order; docs/differences.md)
        assert threads == 2, shape
        values = [np.sort_complex(L.linalg.eigvals(L.tensor(a, dtype=getattr(L, dtype)))
                                  .numpy().reshape(-1)) for L in (ember, torch)]
        tol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
        scale = np.abs(values[1]).max()
        np.testing.assert_allclose(values[0], values[1], rtol=0, atol=tol * scale)
        split.append(shape)
    if split:
        pytest.xfail(f"two-thread geev split differently from torch's MKL here: {split}")


TRIANGULAR = {
    "left": lambda L, a, b, up: L.linalg.solve_triangular(a, b, upper=up),
    "right": lambda L, a, b, up: L.linalg.solve_triangular(a, b.mT, upper=up, left=False),
    "transposed_A": lambda L, a, b, up: L.linalg.solve_triangular(a.mT, b, upper=up),
    "unitriangular": lambda L, a, b, up: L.linalg.solve_triangular(a, b, upper=up,
                                                                  unitriangular=True),
    "broadcast": lambda L, a, b, up: L.linalg.solve_triangular(a, L.stack([b, b]), upper=up),
    "one_column": lambda L, a, b, up: L.linalg.solve_triangular(a, b[..., :1], upper=up),
    "triangular_solve": lambda L, a, b, up: L.triangular_solve(b, a, upper=up),
    "triangular_solve_transposed": lambda L, a, b, up: L.triangular_solve(b, a, upper=up,
                                                                          transpose=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [True, False], ids=["upper", "lower"])
@pytest.mark.parametrize("name", sorted(TRIANGULAR))
def test_triangular_solves(name, upper, dtype, threads):
    rng = np.random.default_rng(8)
    for shape in SQUARE:
        a = _data(rng, shape, dtype) + shape[-1] * np.eye(shape[-1])
        b = _data(rng, shape[:-1] + (4,), dtype)
        assert _same(lambda L, x, y: TRIANGULAR[name](L, x, y, upper), a, b, dtype=dtype), \
            shape


def _gram(L, a):
    return a @ a.mT + a.shape[-1] * L.eye(a.shape[-1], dtype=a.dtype)


GRADIENTS = {
    "cholesky": lambda L, a, b: L.linalg.cholesky(_gram(L, a)),
    "cholesky_upper": lambda L, a, b: L.linalg.cholesky(_gram(L, a), upper=True),
    "cholesky_legacy": lambda L, a, b: L.cholesky(_gram(L, a)),
    "cholesky_solve": lambda L, a, b: L.cholesky_solve(b, L.linalg.cholesky(_gram(L, a))),
    "cholesky_inverse": lambda L, a, b: L.cholesky_inverse(L.linalg.cholesky(_gram(L, a))),
    "eigh": lambda L, a, b: L.linalg.eigh(a + a.mT),
    "svd": lambda L, a, b: L.linalg.svd(a, full_matrices=False),
    "pinv": lambda L, a, b: L.linalg.pinv(a),
    "solve_triangular": lambda L, a, b: L.linalg.solve_triangular(a + 8 * L.eye(8), b,
                                                                  upper=True),
    "lstsq_gelsd": lambda L, a, b: L.linalg.lstsq(a, b, driver="gelsd").solution,
    "solve": lambda L, a, b: L.linalg.solve(a, b),
    "solve_vector": lambda L, a, b: L.linalg.solve(a, b[..., 0]),
    "solve_right": lambda L, a, b: L.linalg.solve(a, b.mT, left=False),
    "inv": lambda L, a, b: L.linalg.inv(a),
    "det": lambda L, a, b: L.linalg.det(a),
    "det_transposed": lambda L, a, b: L.linalg.det(a.mT),
    "slogdet": lambda L, a, b: L.linalg.slogdet(a).logabsdet,
    "logdet": lambda L, a, b: L.logdet(a @ a.mT),
    "qr": lambda L, a, b: L.linalg.qr(a),
    "qr_R_only": lambda L, a, b: L.linalg.qr(a).R,
    "qr_tall": lambda L, a, b: L.linalg.qr(L.cat([a, b.mT], -2)),
    "qr_wide": lambda L, a, b: L.linalg.qr(L.cat([a, b], -1)),
    "lu_factor": lambda L, a, b: L.linalg.lu_factor(a).LU,
    "lu": lambda L, a, b: L.linalg.lu(a),
    "lu_tall": lambda L, a, b: L.linalg.lu(L.cat([a, b.mT], -2)),
    "lu_wide_U_only": lambda L, a, b: L.linalg.lu(L.cat([a, b], -1)).U,
    "lu_solve": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b),
    "lu_solve_adjoint": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b,
                                                          adjoint=True),
    "lu_solve_right": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b.mT,
                                                        left=False),
    "lu_solve_right_adjoint": lambda L, a, b: L.linalg.lu_solve(
        *L.linalg.lu_factor(a), b.mT, left=False, adjoint=True),
    "householder_product": lambda L, a, b: L.linalg.householder_product(a, 0.3 * b[..., 0]),
    "ormqr": lambda L, a, b: L.ormqr(a, 0.3 * b[..., 0], b),
    "ormqr_transposed": lambda L, a, b: L.ormqr(a, 0.3 * b[..., 0], b, transpose=True),
    "ormqr_right": lambda L, a, b: L.ormqr(a, 0.3 * b[..., 0], b.mT, left=False),
    "ormqr_right_transposed": lambda L, a, b: L.ormqr(a, 0.3 * b[..., 0], b.mT, left=False,
                                                      transpose=True),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients(name, dtype, threads):
    rng = np.random.default_rng(9)
    for batch in [(), (2,)]:
        a, b = _data(rng, batch + (8, 8), dtype), _data(rng, batch + (8, 3), dtype)
        assert _same(GRADIENTS[name], a, b, dtype=dtype, grad=True), batch


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hermitian", [False, True], ids=["symmetric", "hermitian"])
def test_ldl(hermitian, dtype, threads):
    def fn(L, a, b):
        LD, pivots, info = L.linalg.ldl_factor_ex(a, hermitian=hermitian)
        return LD, pivots, info, L.linalg.ldl_solve(LD, pivots, b, hermitian=hermitian)

    rng = np.random.default_rng(10)
    for shape in SQUARE:
        a, b = _data(rng, shape, dtype), _data(rng, shape[:-1] + (3,), dtype)
        assert _same(fn, a, b, dtype=dtype), shape


def test_empty_eig_vectors_are_complex_and_cholesky_checks_squareness():
    for shape in [(0, 0), (2, 0, 0)]:
        assert _same(lambda L, a: L.linalg.eig(a), np.zeros(shape), dtype="float32")
    for fn in (lambda L: L.cholesky_inverse(L.zeros(3, 2)),
               lambda L: L.cholesky_solve(L.zeros(3, 2), L.zeros(3, 2))):
        msgs = []
        for L in (ember, torch):
            with pytest.raises(RuntimeError) as info:
                fn(L)
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1]
