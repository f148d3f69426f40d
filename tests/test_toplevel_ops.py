"""torch's smaller top-level functions against torch 2.13: statistics (``cov``, ``corrcoef``,
``quantile``, ``aminmax``), index grids and constructions (``broadcast_shapes``,
``tril_indices``, ``cartesian_prod``, ``combinations``, ``block_diag``, ``vander``), finite
differences and integrals, matrix functions (``matrix_power``, ``matrix_exp`` with its
gradient), element-wise extras (``logaddexp``, ``sinc``, ``frexp``, ``ldexp``, ``gcd`` …),
``real``/``imag``, and the top-level in-place functions (``torch.sin_``)."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import arr, check, errors_alike, torch

X = arr((3, 5), "float64")
V = arr((5,), "float64", seed=1)
SQ = arr((3, 3), "float64", seed=2) * 0.7
W = arr((5,), "float64", positive=True)
NAN = X.copy()
NAN[0, 1] = np.nan
NAN[2, :] = np.nan
Q = [0.1, 0.5, 0.9]

CASES = [
    (lambda L, a: L.cov(a), X),
    (lambda L, a: L.cov(a, correction=0), X),
    (lambda L, a: L.cov(a[0]), X),
    (lambda L, a, w: L.cov(a, fweights=L.tensor([1, 2, 1, 3, 1]), aweights=w), X, W),
    (lambda L, a, w: L.cov(a, aweights=w), X, W),
    (lambda L, a: L.cov(a, fweights=L.tensor([1, 2, 1, 3, 1])), X),
    (lambda L: L.cov(L.tensor([[1, 2, 3], [2, 0, 5]]))),
    (lambda L, a: L.corrcoef(a), X),
    (lambda L, a: L.corrcoef(a[0]), X),
    (lambda L, a: L.quantile(a, 0.3), X),
    (lambda L, a: L.quantile(a, 0.3, dim=1), X),
    (lambda L, a: L.quantile(a, 0.3, dim=0, keepdim=True), X),
    (lambda L, a: L.quantile(a, L.tensor(Q, dtype=L.float64), dim=1, keepdim=True), X),
    *[(lambda L, a, m=m: L.quantile(a, L.tensor(Q, dtype=L.float64), dim=0,
                                    interpolation=m), X)
      for m in ("lower", "higher", "nearest", "midpoint")],
    (lambda L, a: L.quantile(a, 0.4, dim=1), NAN),
    (lambda L, a: L.nanquantile(a, 0.4, dim=1), NAN),
    (lambda L, a: L.nanquantile(a, L.tensor([0.2, 0.7], dtype=L.float64)), NAN),
    (lambda L, a: a.quantile(0.2), X),
    (lambda L, a: L.aminmax(a), X),
    (lambda L, a: L.aminmax(a, dim=1), X),
    (lambda L, a: L.aminmax(a, dim=0, keepdim=True), X),
    (lambda L, a: L.aminmax(a.round()), X),
    (lambda L: L.aminmax(L.tensor([1, 5, 5, 0]))),
    (lambda L: L.broadcast_shapes((2, 1), (3, 1, 4))),
    (lambda L: L.broadcast_shapes(2, (3, 1))),
    (lambda L: L.broadcast_shapes([2, 3], L.Size([4, 1, 1]))),
    (lambda L: L.tril_indices(3, 4)),
    (lambda L: L.triu_indices(3, 4, 1)),
    (lambda L: L.tril_indices(4, 3, -1)),
    (lambda L, a: L.cartesian_prod(a, a[:2]), V),
    (lambda L, a: L.combinations(a), V),
    (lambda L, a: L.combinations(a, 3, with_replacement=True), V),
    (lambda L, a, b: L.block_diag(a, b[None], b[0]), X, V),
    (lambda L: L.vander(L.tensor([1, 2, 3]))),
    (lambda L, a: L.diagflat(a), V),
    (lambda L, a: L.diagflat(a, 1), X),
    (lambda L, a: L.diff(a), X),
    (lambda L, a: L.diff(a, n=2, dim=0), X),
    (lambda L, a: L.diff(a, prepend=L.zeros(2, dtype=L.float64), append=a[:1]), V),
    (lambda L: L.diff(L.tensor([True, False, False]))),
    (lambda L, a: L.trapezoid(a), V),
    (lambda L, a: L.trapezoid(a, dx=0.5), X),
    (lambda L, a: L.trapezoid(a, L.arange(5., dtype=L.float64) ** 2), X),
    (lambda L, a: L.trapz(a, dim=0), X),
    (lambda L, a: L.cumulative_trapezoid(a), X),
    (lambda L, a: L.cumulative_trapezoid(a, dx=2.0, dim=0), X),
    (lambda L, a: L.cumulative_trapezoid(a, L.arange(5., dtype=L.float64) ** 2), X),
    (lambda L, a: L.inner(a, a), X),
    (lambda L, a: L.inner(a, a[0]), X),
    *[(lambda L, a, n=n: L.matrix_power(a, n), SQ) for n in (0, 1, 2, 3, 5, -2)],
    (lambda L, a: L.matrix_exp(a), SQ),
    (lambda L, a: L.linalg.matrix_exp(a * 5), SQ),
    (lambda L, a: L.matrix_exp(a), SQ.astype(np.float32)),
    (lambda L, a: L.spmm(a, a.T), X),
    (lambda L, a, b: L.cholesky_solve(b, L.linalg.cholesky(a @ a.mT + L.eye(3))), SQ, X[:, :3]),
    (lambda L, a, b: L.cholesky_solve(b, L.linalg.cholesky(a @ a.mT + L.eye(3)).mT, upper=True),
     SQ, X[:, :3].copy()),
    (lambda L, a: L.cholesky_inverse(L.linalg.cholesky(a @ a.mT + L.eye(3))), SQ),
    (lambda L, a: L.cholesky_inverse(L.linalg.cholesky(a @ a.mT + L.eye(3)).mT, True), SQ),
    (lambda L, a: L.real(a), X),
    (lambda L, a: L.positive(a), X),
    (lambda L, a: L.isreal(a), X),
    (lambda L: L.isin(L.tensor([1, 2, 3]), L.tensor([2, 5]))),
    (lambda L: L.isin(L.tensor([1, 2, 3]), 2, invert=True)),
    (lambda L, a, b: L.logaddexp(a, b), X, X[::-1].copy()),
    (lambda L, a, b: L.logaddexp2(a, b), X, X[::-1].copy()),
    (lambda L, a: L.sinc(a), X),
    (lambda L: L.sinc(L.tensor([0., 1.], requires_grad=True))),
    (lambda L, a: L.frexp(a), X),
    (lambda L, a: L.ldexp(a, L.tensor([2, -1, 0, 3, 1])), X),
    (lambda L: L.gcd(L.tensor([4, 6, -8]), L.tensor([6, 9, 12]))),
    (lambda L: L.lcm(L.tensor([4, 6, -8]), L.tensor([6, 9, 12]))),
    (lambda L, a: L.logcumsumexp(a, 1), X),
    (lambda L, a: L.logcumsumexp(a * 50, 0), X),
    (lambda L, a: a.logcumsumexp(0), X),
]


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_against_torch(case):
    fn, *inputs = case if isinstance(case, tuple) else (case,)
    check(fn, *inputs, rtol=1e-9 if "matrix_exp" in fn.__code__.co_names else None)


@pytest.mark.parametrize("fn", [
    lambda L, a: L.vander(a),
    lambda L, a: L.vander(a, N=3, increasing=True),
    lambda L, a: L.nextafter(a, L.zeros(1, dtype=L.float64)),
    lambda L, a: L.heaviside(a.round(), L.tensor([0.5], dtype=L.float64))])
def test_values(fn):
    check(fn, V, grad=False)     # (torch's vander cannot backward; heaviside has no gradient)


@pytest.mark.parametrize("bad", [
    lambda L: L.cov(L.ones(2, 2, 2)),
    lambda L: L.cov(L.ones(2, 2), fweights=L.ones(2)),
    lambda L: L.cov(L.ones(2, 2), fweights=L.tensor([1, -1])),
    lambda L: L.quantile(L.ones(3), 1.5),
    lambda L: L.quantile(L.ones(3, dtype=L.float64), L.tensor(0.5)),
    lambda L: L.quantile(L.ones(3), 0.5, interpolation="x"),
    lambda L: L.quantile(L.ones(3), [0.1, 0.4]),
    lambda L: L.nanquantile(L.ones(3), 1.5),
    lambda L: L.quantile(L.ones(3), 0.5, dim=2),
    lambda L: L.quantile(L.tensor([]), 0.5),
    lambda L: L.aminmax(L.ones(0, 3), dim=0),
    lambda L: L.aminmax(L.ones(0, 3)),
    lambda L: L.broadcast_shapes((2,), (3,)),
    lambda L: L.broadcast_shapes((2, 1), (4, 3, 5)),
    lambda L: L.broadcast_shapes((1, -1)),
    lambda L: L.imag(L.ones(2)),
    lambda L: L.positive(L.tensor([True])),
    lambda L: L.matrix_exp(L.ones(2, 3)),
])
def test_errors(bad):
    errors_alike(bad)


def test_complex_parts():
    for lib in (torch, ember):
        z = lib.tensor([1 + 2j, 3j])
        assert z.real.tolist() == [1.0, 0.0] and lib.imag(z).tolist() == [2.0, 3.0]
        z.imag = lib.tensor([5.0, 6.0])       # a view: writes go to z
        assert z.tolist() == [1 + 5j, 6j]


def test_in_place_functions():
    names = [n for n in dir(torch) if n.endswith("_") and not n.startswith("_")
             and hasattr(ember.Tensor, n)]
    assert {"sin_", "exp_", "zero_", "fill_", "clamp_", "sinc_", "gcd_"} <= set(names)
    missing = [n for n in names if not hasattr(ember, n)]
    assert missing in ([], ["resize_as_"]), missing
    for lib in (torch, ember):
        x = lib.tensor([0.5, 1.0])
        assert lib.sin_(x) is x and lib.fill_(x, 2.0) is x and x.tolist() == [2.0, 2.0]


def test_matrix_exp_double_backward():
    a = torch.from_numpy(SQ.copy()).requires_grad_()
    b = ember.from_numpy(SQ.copy()).requires_grad_()
    outs = []
    for lib, t in ((torch, a), (ember, b)):
        g, = lib.autograd.grad(lib.matrix_exp(t).sin().sum(), t, create_graph=True)
        outs.append(lib.autograd.grad(g.pow(2).sum(), t)[0].numpy())
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-8)


P = arr((6,), "float64", positive=True, high=0.95)
R = arr((6,), "float64", low=-6, high=3)
UNIT = ("logit", "erfinv", "ndtri", "entr", "gammaln", "digamma", "psi", "log1p")


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("name", ["expit", "logit", "erf", "erfc", "erfinv", "gammaln", "digamma",
                                  "psi", "entr", "ndtr", "ndtri", "log_ndtr", "sinc", "round",
                                  "log1p", "expm1", "exp2"])
def test_special(name, dt):
    check(lambda L, a: getattr(L.special, name)(a), (P if name in UNIT else R).astype(dt))


@pytest.mark.parametrize("case", [
    (lambda L, a, b: L.special.xlog1py(a, b), R, P),
    (lambda L, a: L.special.xlogy(a, a), P),
    (lambda L, a: L.special.logsumexp(a, 0), R),
    (lambda L, a: L.special.softmax(a, 0), R),
    (lambda L: L.special.entr(L.tensor([0.0, -1.0, 2.0])),),
    (lambda L: L.special.round(L.tensor([0.5, 1.5, 2.46]), decimals=1),)])
def test_special_more(case):
    check(*case)


@pytest.mark.parametrize("bad", [
    lambda L: L.cholesky_solve(L.ones(2), L.eye(2)),
    lambda L: L.cholesky_solve(L.ones(2, 2), L.ones(2)),
    lambda L: L.cholesky_solve(L.ones(2, 2), L.eye(2, dtype=L.float64))])
def test_cholesky_solve_errors(bad):
    errors_alike(bad)
