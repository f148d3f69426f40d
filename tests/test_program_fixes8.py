"""Fixes found by the eighth batch of real-style programs (``tests/programs``), each checked
against torch: scatter_reduce takes "max" and "min" as amax and amin in its forward, and its
backward refuses them with torch's message; scatter with a reduce other than add/multiply
raises torch's message; det is the product of the diagonal of the LU of ``Aᵀ`` and slogdet
the sum of its logs (torch's; NumPy's det went through ``exp(logabsdet)``), with MKL's 2x2
LU dividing by the pivot; logdet of a complex matrix is complex; complex add/sub form
``alpha·other`` as a complex product (an infinite part makes the other part nan); xlogy's
and xlog1py's gradient for ``self`` is derivatives.yaml's masked ``xlogy(grad, other)`` (it was
0 wherever ``self`` was 0: Beta/Dirichlet ``log_prob`` at concentration 1 lost its
``log(value)`` term); xlog1py calls the C library's ``log1p``; complex inputs to ordering,
extremum, rounding and modulo ops raise torch's errors (gt/lt/ge/le, argmax/argmin, max/min
over a dim, maximum/minimum/fmax/fmin, topk, amax/amin, kthvalue/median/mode,
cummax/cummin, clamp_min/max, sign/signbit, floor/ceil/trunc/round/frac, remainder/fmod/floor
division); pow's exponent gradient tests a complex exponent torch's way, and pow's gradients
are 0, not nan, where torch masks them (base 0 with exponent >= 0; exponent 0);
``torch.remainder`` of two numbers raises torch's TypeError; erf/erfc/erfinv/lgamma/digamma/
logit/deg2rad/rad2deg/isposinf/isneginf/ndtr/entr/xlogy/nansum/nanmean/hypot, aminmax/histc,
searchsorted/bucketize, unique(_consecutive), isin and hardtanh/relu6 refuse complex
inputs as torch does (Ember computed them, some on the real part alone); nan_to_num of a
complex tensor replaces in each part (NumPy refused), and refuses to record a graph."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember._ops import _vml

from .helpers import errors_alike, torch


@pytest.mark.parametrize("reduce", ["max", "min"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_max_min_aliases(reduce, include_self):
    base = np.array([10.0, 2.0, 30.0, 40.0], np.float32)
    src = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], np.float32)
    outs = []
    for L in (torch, ember):
        idx = L.tensor([0, 1, 0, 1, 2, 1])
        outs.append(L.tensor(base).scatter_reduce(0, idx, L.tensor(src), reduce=reduce,
                                                  include_self=include_self).tolist())
    assert outs[0] == outs[1]


def test_scatter_reduce_max_integer_inplace():
    outs = []
    for L in (torch, ember):
        t = L.tensor([1, 5, 3])
        t.scatter_reduce_(0, L.tensor([0, 0, 1]), L.tensor([4, 2, 9]), "min", include_self=False)
        outs.append(t.tolist())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_scatter_reduce_max_min_backward_refuses(reduce):
    def fn(L):
        x = L.tensor([1.0, 5.0, 3.0], requires_grad=True)
        y = x.scatter_reduce(0, L.tensor([0, 0, 1]), L.tensor([4.0, 2.0, 9.0]), reduce)
        assert type(y.grad_fn).__name__ == "ScatterReduceBackward0"
        y.sum().backward()

    errors_alike(fn)


@pytest.mark.parametrize("reduce", ["sum", "mean", "foo", "amax"])
@pytest.mark.parametrize("value", [True, False])
def test_scatter_bad_reduce_message(reduce, value):
    errors_alike(lambda L: L.zeros(3).scatter(0, L.tensor([0]), 2.0 if value else L.ones(1),
                                              reduce=reduce))


def test_scatter_reduce_unknown_mode_message():
    errors_alike(lambda L: L.zeros(3).scatter_reduce(0, L.tensor([0]), L.ones(1), "foo"))


DET_MATRICES = {
    "integral_3x3": [[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]],
    "swap_2x2": [[0.0, 1.0], [3.0, 4.0]],
    "singular": [[1.0, 2.0], [2.0, 4.0]],
}


@pytest.mark.parametrize("case", sorted(DET_MATRICES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_det_is_the_lu_diagonal_product(case, dtype):
    """torch's det multiplies LU's diagonal: an integral matrix's det is exact (NumPy's
    ``exp(logabsdet)`` gave ``-16.000000000000004``)."""
    outs = [L.linalg.det(L.tensor(DET_MATRICES[case], dtype=getattr(L, dtype))).item()
            for L in (torch, ember)]
    assert outs[0] == outs[1]


@pytest.mark.skipif(_vml.library() is None,
                    reason="torch's log and LU are MKL's (VML, getrf): bits need MKL's runtime")
@pytest.mark.parametrize("n", [2, 5, 8])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_det_and_slogdet_bits_match_torch(n, dtype):
    """For 2x2 and for 5x5 and larger torch's (MKL's) LU of ``Aᵀ`` is reproduced exactly."""
    a = np.random.default_rng(n).standard_normal((6, n, n)).astype(dtype)
    t_det, e_det = torch.linalg.det(torch.from_numpy(a)), ember.linalg.det(ember.from_numpy(a))
    np.testing.assert_array_equal(e_det.numpy(), t_det.numpy())
    t_sl, e_sl = torch.linalg.slogdet(torch.from_numpy(a)), ember.linalg.slogdet(
        ember.from_numpy(a))
    np.testing.assert_array_equal(e_sl.sign.numpy(), t_sl.sign.numpy())
    np.testing.assert_array_equal(e_sl.logabsdet.numpy(), t_sl.logabsdet.numpy())


def test_slogdet_of_singular_matrix():
    for L in (torch, ember):
        s = L.linalg.slogdet(L.tensor([[1.0, 2.0], [2.0, 4.0]]))
        assert (s.sign.item(), s.logabsdet.item()) == (0.0, float("-inf"))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_logdet_of_complex_matrix_is_complex(dtype):
    """torch: ``log(sign) + logabsdet`` (ember returned the real logabsdet)."""
    a = np.array([[1 + 2j, 0.5], [-1j, 2 - 1j]])
    t = torch.logdet(torch.tensor(a, dtype=getattr(torch, dtype)))
    e = ember.logdet(ember.tensor(a, dtype=getattr(ember, dtype)))
    assert str(e.dtype) == str(t.dtype)
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-6)


INF = float("inf")
COMPLEX_ADDS = {
    "add": lambda L: L.tensor(1 + 2j) + L.tensor(complex(-INF, 0)),
    "add_reversed": lambda L: L.tensor(complex(-INF, 0)) + L.tensor(1 + 2j),
    "add_real_inf": lambda L: L.tensor(1 + 2j) + L.tensor(-INF),
    "add_scalar_inf": lambda L: L.tensor([1 + 2j]) + (-INF),
    "radd_scalar_inf": lambda L: (-INF) + L.tensor([1 + 2j]),
    "sub": lambda L: L.tensor(1 + 2j) - L.tensor(complex(-INF, 0)),
    "rsub_scalar": lambda L: 1 - L.tensor(complex(-INF, 0)),
    "rsub_tensor": lambda L: L.rsub(L.tensor(1 + 2j), L.tensor(complex(-INF, 0))),
    "imag_inf": lambda L: L.tensor([1j]) + L.tensor([complex(1, INF)]),
    "both_inf": lambda L: L.tensor([1j]) + L.tensor([complex(INF, INF)]),
    "alpha": lambda L: L.add(L.tensor(1 + 2j), L.tensor(complex(-INF, 0)), alpha=2),
    "inplace": lambda L: L.tensor([1 + 2j]).add_(L.tensor([complex(-INF, 0)])),
    "finite_mixed": lambda L: L.tensor([1 + 2j, 3 - 1j]) + L.tensor([0.5, -2.0]).double(),
}


@pytest.mark.parametrize("case", sorted(COMPLEX_ADDS))
def test_complex_add_forms_alpha_times_other(case):
    """torch's complex add/sub compute ``self ± alpha·other`` with a complex product even for
    alpha 1, so an infinite part of ``other`` turns its other part nan."""
    t, e = COMPLEX_ADDS[case](torch), COMPLEX_ADDS[case](ember)
    assert str(e.dtype) == str(t.dtype)
    np.testing.assert_array_equal(e.numpy(), t.numpy())


NAN = float("nan")
XLOG_OTHERS = [0.0, 0.5, NAN, -1.0, -2.0, INF]


@pytest.mark.parametrize("fn", ["xlogy", "special.xlog1py", "special.xlogy"])
@pytest.mark.parametrize("x", [0.0, 1.0, NAN])
def test_xlogy_self_gradient_at_zero(fn, x):
    """derivatives.yaml: ``xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0)`` (and
    ``other <= -1`` for xlog1py): at ``self = 0`` the gradient is ``log(other)``, not 0, which
    is what Dirichlet/Beta ``log_prob``'s gradient at concentration 1 needs."""
    grads = []
    for L in (torch, ember):
        f = L
        for part in fn.split("."):
            f = getattr(f, part)
        t = L.full((len(XLOG_OTHERS),), x, requires_grad=True)
        f(t, L.tensor(XLOG_OTHERS)).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


@pytest.mark.parametrize("other", [0.5, 0.0, -1.0])
def test_xlogy_scalar_other_gradient(other):
    grads = []
    for L in (torch, ember):
        t = L.tensor([0.0, 1.0], requires_grad=True)
        (L.xlogy(t, other) + L.special.xlog1py(t, other)).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


def test_xlogy_zero_upstream_gradient_is_zero():
    grads = []
    for L in (torch, ember):
        t = L.tensor([1.0, 0.0, 1.0], requires_grad=True)
        L.xlogy(t, L.tensor([0.0, 0.0, 2.0])).backward(L.tensor([0.0, 0.0, 3.0]))
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


def test_dirichlet_and_beta_log_prob_gradient_at_concentration_one():
    grads = []
    for L in (torch, ember):
        a, b = L.tensor(1.0, requires_grad=True), L.tensor(1.0, requires_grad=True)
        L.distributions.Beta(a, b).log_prob(L.tensor([0.1, 0.3, 0.6])).sum().backward()
        grads.append([a.grad.item(), b.grad.item()])
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)


def test_xlog1py_calls_libm_log1p():
    x = np.linspace(-0.99, 50, 20001).astype(np.float32)
    s = np.random.default_rng(0).standard_normal(x.shape).astype(np.float32)
    t = torch.special.xlog1py(torch.from_numpy(s), torch.from_numpy(x)).numpy()
    e = ember.special.xlog1py(ember.from_numpy(s), ember.from_numpy(x)).numpy()
    np.testing.assert_array_equal(e, t)


Z = [[1 + 1j, 2 - 1j], [0.5j, 3 + 0j]]
COMPLEX_REFUSALS = {
    "gt": lambda L, z: z > 0,
    "gt_inplace": lambda L, z: z.clone().gt_(0),
    "real_gt_complex_scalar": lambda L, z: L.tensor([1.0]) > 1j,
    "lt": lambda L, z: L.lt(z, z),
    "ge": lambda L, z: z >= 1,
    "le": lambda L, z: L.le(z, 1),
    "argmax": lambda L, z: z.argmax(),
    "argmax_dim": lambda L, z: z.argmax(1),
    "argmin": lambda L, z: L.argmin(z),
    "maximum": lambda L, z: L.maximum(z, z),
    "minimum": lambda L, z: L.minimum(z, z),
    "fmax": lambda L, z: L.fmax(z, z),
    "fmin": lambda L, z: L.fmin(z, z),
    "topk": lambda L, z: z.topk(1),
    "min_dim": lambda L, z: L.min(z, 0),
    "max_dim": lambda L, z: z.max(1),
    "amax": lambda L, z: z.amax(),
    "amin": lambda L, z: z.amin(0),
    "kthvalue": lambda L, z: z.flatten().kthvalue(1),
    "median": lambda L, z: z.median(),
    "median_dim": lambda L, z: z.median(0),
    "nanmedian": lambda L, z: z.nanmedian(),
    "mode": lambda L, z: z.mode(),
    "cummax": lambda L, z: z.cummax(0),
    "cummin": lambda L, z: z.cummin(0),
    "clamp_min": lambda L, z: z.clamp_min(0),
    "clamp_max_tensor": lambda L, z: L.clamp_max(z, z),
    "clamp_min_tensor": lambda L, z: z.clamp_min(z),
    "sign": lambda L, z: z.sign(),
    "signbit": lambda L, z: L.signbit(z),
    "floor": lambda L, z: z.floor(),
    "ceil": lambda L, z: z.ceil(),
    "trunc": lambda L, z: z.trunc(),
    "round": lambda L, z: z.round(),
    "round_decimals": lambda L, z: z.round(decimals=1),
    "frac": lambda L, z: z.frac(),
    "remainder": lambda L, z: z % 2,
    "fmod": lambda L, z: L.fmod(z, 2),
    "floor_divide": lambda L, z: z // 2,
    "div_trunc": lambda L, z: L.div(z, 2, rounding_mode="trunc"),
}


@pytest.mark.parametrize("case", sorted(COMPLEX_REFUSALS))
def test_complex_inputs_refused_as_torch_refuses_them(case):
    """Ordering ops (and the rounding/modulo family) have no complex kernels in torch: its
    error class and message, where Ember compared or rounded the complex numbers."""
    errors_alike(lambda L: COMPLEX_REFUSALS[case](L, L.tensor(Z)))


def test_complex_pow_exponent_gradient():
    """pow's exponent gradient tests a complex exponent as ``imag == 0 & real >= 0``."""
    grads = []
    for L in (torch, ember):
        b = L.tensor([0j, 1 + 1j], requires_grad=True)
        e = L.tensor([2 + 0j, 0.5 - 1j], requires_grad=True)
        L.pow(b, e).abs().sum().backward()
        grads.append((e.grad.numpy(), b.grad.numpy()))
    np.testing.assert_allclose(grads[1][0], grads[0][0], rtol=1e-5)
    np.testing.assert_allclose(grads[1][1], grads[0][1], rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_gradients_masked_to_zero_not_nan(dtype):
    grads = []
    for L in (torch, ember):
        b = L.tensor([0.0, 1.5, 0.0], dtype=getattr(L, dtype), requires_grad=True)
        e = L.tensor([2.0, 0.5, 0.0], dtype=getattr(L, dtype), requires_grad=True)
        L.pow(b, e).sum().backward()
        grads.append((e.grad.numpy(), b.grad.numpy()))
    np.testing.assert_array_equal(grads[1][0], grads[0][0])
    np.testing.assert_array_equal(grads[1][1], grads[0][1])


@pytest.mark.parametrize("args", [(1, 2), (-7.5, 2.0), (True, 2.0)])
def test_remainder_of_two_numbers_is_a_type_error(args):
    errors_alike(lambda L: L.remainder(*args))


COMPLEX_UNARY_REFUSALS = {
    "erf": lambda L, z: L.erf(z),
    "erfc": lambda L, z: L.erfc(z),
    "erfinv": lambda L, z: L.erfinv(z),
    "lgamma": lambda L, z: L.lgamma(z),
    "digamma": lambda L, z: L.digamma(z),
    "logit": lambda L, z: L.logit(z),
    "deg2rad": lambda L, z: L.deg2rad(z),
    "rad2deg": lambda L, z: L.rad2deg(z),
    "isposinf": lambda L, z: L.isposinf(z),
    "isneginf": lambda L, z: L.isneginf(z),
    "ndtr": lambda L, z: L.special.ndtr(z),
    "entr": lambda L, z: L.special.entr(z),
    "xlogy": lambda L, z: L.special.xlogy(z, z),
    "nansum": lambda L, z: L.nansum(z),
    "nanmean": lambda L, z: L.nanmean(z),
    "hypot": lambda L, z: L.hypot(z, z),
    "aminmax": lambda L, z: L.aminmax(z),
    "histc_default_range": lambda L, z: L.histc(z),
    "histc_range": lambda L, z: L.histc(z, bins=4, min=0, max=1),
    "searchsorted_values": lambda L, z: L.searchsorted(L.tensor([1.0]), z),
    "searchsorted_sequence": lambda L, z: L.searchsorted(z, L.tensor([1.0])),
    "bucketize": lambda L, z: L.bucketize(z, L.tensor([1.0])),
    "unique": lambda L, z: L.unique(z),
    "unique_dim": lambda L, z: L.unique(z, dim=0),
    "unique_consecutive": lambda L, z: L.unique_consecutive(z),
    "isin": lambda L, z: L.isin(z, L.tensor([1.0])),
    "isin_test_elements": lambda L, z: L.isin(L.tensor([1.0]), z),
    "hardtanh": lambda L, z: L.nn.functional.hardtanh(z),
    "relu6": lambda L, z: L.nn.functional.relu6(z),
}


@pytest.mark.parametrize("case", sorted(COMPLEX_UNARY_REFUSALS))
def test_complex_special_functions_refused(case):
    """These have no complex kernels in torch; Ember computed them on the real part (with a
    ComplexWarning) or on NumPy's complex formulas."""
    errors_alike(lambda L: COMPLEX_UNARY_REFUSALS[case](L, L.tensor([0.3 + 0.4j, -1.2 + 0.5j])))


def test_nan_to_num_of_complex_treats_each_part():
    inf, nan = float("inf"), float("nan")
    vals = [complex(nan, inf), complex(-inf, 2), complex(1, nan), 3 + 4j]
    for dtype in ("complex64", "complex128"):
        outs = [L.nan_to_num(L.tensor(vals, dtype=getattr(L, dtype)), nan=1.5).numpy()
                for L in (torch, ember)]
        np.testing.assert_array_equal(outs[1], outs[0])
    errors_alike(lambda L: L.nan_to_num(L.tensor([complex(nan, 1)], requires_grad=True)))
