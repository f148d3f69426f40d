"""Kernels bit for bit against torch 2.13 CPU: group norm on channels-last inputs (torch's
channels-last kernel, both of its reduction schemes, and its channels-last output)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tests.helpers import ember  # noqa: E402
from tests.test_exact_kernels import bits_equal  # noqa: E402

pytestmark = pytest.mark.usefixtures("same_threads")

DTYPES = (np.float32, np.float64)


def data(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 3 + 1).astype(dt)


# spatial sizes below 1024 (per-group vector sums) and from 1024 on (per-thread rows)
GN_CL_CASES = [
    ((4, 12, 5, 7), 3),
    ((3, 10, 9, 9), 5),
    ((5, 9, 31, 33), 3),
    ((2, 32, 40, 40), 8),
    ((2, 6, 33, 34), 2),
    ((1, 64, 64, 64), 32),
    ((1, 3, 1, 1500), 1),
    ((3, 7, 32, 32), 7),
    ((2, 12, 4, 5, 6), 4),
    ((2, 6, 11, 10, 12), 3),
]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,groups", GN_CL_CASES)
def test_group_norm_channels_last(dt, shape, groups):
    a = data(shape, dt)
    c = shape[1]
    rng = np.random.default_rng(1)
    w, b = rng.standard_normal(c).astype(dt), rng.standard_normal(c).astype(dt)
    outs = []
    for lib in (torch, ember):
        fmt = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        x = lib.tensor(a).contiguous(memory_format=fmt)
        f = lib.nn.functional.group_norm
        wt, bt = lib.tensor(w), lib.tensor(b)
        outs.append(
            (
                f(x, groups, wt, bt),
                f(x, groups),
                f(x, groups, wt),
                f(x, groups, None, bt),
                f(x, groups, eps=0.5),
            )
        )
    for t, e in zip(*outs):
        bits_equal(t, e)
        assert t.stride() == e.stride()


def test_group_norm_module_channels_last():
    a = data((2, 8, 6, 6), np.float32, 3)
    res = []
    for lib in (torch, ember):
        m = lib.nn.GroupNorm(4, 8)
        with lib.no_grad():
            m.weight.copy_(lib.arange(8.0) / 3 - 1)
            m.bias.copy_(lib.arange(8.0) / 5)
        res.append(m(lib.tensor(a).contiguous(memory_format=lib.channels_last)))
    bits_equal(*res)
    assert res[0].stride() == res[1].stride()


# ----------------------------------------------------------------------------- atanh


def _specials(dt):
    return np.array(
        [
            0,
            -0.0,
            1,
            -1,
            1.5,
            -2,
            np.inf,
            -np.inf,
            np.nan,
            1e-40,
            -1e-310,
            0.5,
            np.nextafter(1, 0),
            -np.nextafter(1, 0),
        ],
        dt,
    )


def _atanh_data(n, dt, seed=0):
    rng = np.random.default_rng(seed)
    parts = [
        rng.uniform(-1, 1, n),
        rng.uniform(-1e-3, 1e-3, n // 10),
        1 - rng.uniform(0, 1e-6, n // 10) * rng.choice([1, -1], n // 10),
        rng.uniform(-3, 3, n // 20),
        _specials(dt),
    ]
    return rng.permutation(np.concatenate(parts)).astype(dt)


def _same(t, e):
    t, e = np.ascontiguousarray(t), np.ascontiguousarray(e)
    assert t.shape == e.shape and t.dtype == e.dtype
    u = np.uint32 if t.dtype == np.float32 else np.uint64
    ok = (t.view(u) == e.view(u)) | (np.isnan(t) & np.isnan(e))
    assert ok.all(), (np.flatnonzero(~ok)[:5], t[~ok][:5], e[~ok][:5])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize(
    "n,layout", [(60000, "flat"), (37, "flat"), (40000, "t"), (40000, "strided")]
)
def test_atanh(dt, n, layout):
    x = _atanh_data(n, dt)
    if layout != "flat":
        x = x[: x.size // 200 * 200].reshape(200, -1)
    res = []
    for lib in (torch, ember):
        t = lib.tensor(x)
        if layout == "t":
            t = t.t()
        elif layout == "strided":
            t = t[:, ::3]
        res.append(lib.atanh(t).numpy())
        t2 = lib.tensor(x)
        t2.atanh_()
        res.append(t2.numpy())
    _same(res[0], res[2])
    _same(res[1], res[3])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["atanh", "sinh", "cosh", "log1p", "expm1", "asinh", "acosh"])
@pytest.mark.parametrize("n", [5, 16, 40, 77])
def test_nan_bits(dt, name, n):
    """A NaN's own bits: Sleef's vectors OR an all-ones mask into theirs (atanh outside
    [-1, 1], sinh/cosh of NaN, float log1p below -1), glibc's tail returns its default NaN."""
    vals = [-2.25, 2.5, -1.5, 1.5, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.0, 100.0, 1e30]
    x = np.resize(np.array(vals, dt), n)
    u = np.uint32 if dt == np.float32 else np.uint64
    want = getattr(torch, name)(torch.tensor(x)).numpy().view(u)
    got = getattr(ember, name)(ember.tensor(x)).numpy().view(u)
    assert (want == got).all(), [(x[i], hex(want[i]), hex(got[i]))
                                 for i in np.flatnonzero(want != got)[:4]]


# ----------------------------------------------------------------------------- polygamma


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [2, 3, 4, 6, 11])
def test_polygamma(dt, n):
    rng = np.random.default_rng(n)
    x = np.concatenate(
        [
            rng.uniform(-10, 10, 4000),
            rng.uniform(0, 3, 2000),
            rng.exponential(50, 1000),
            -np.arange(5.0),
            _specials(np.float64),
            np.array([1e-30, 1e30, -2.5, 0.25]),
        ]
    ).astype(dt)
    res = []
    for lib in (torch, ember):
        t = lib.tensor(x)
        res.append(lib.polygamma(n, t).numpy())
        res.append(lib.special.polygamma(n, t.reshape(-1, 1)[::2]).numpy())
        res.append(t.clone().polygamma_(n).numpy())
    for a, b in zip(res[:3], res[3:]):
        _same(a, b)


# ----------------------------------------------------------------------------- complex angle


def _complex_data(n, cdt, seed=0):
    rng = np.random.default_rng(seed)
    re = rng.standard_normal(n) * np.exp(rng.uniform(-5, 5, n))
    im = rng.standard_normal(n) * np.exp(rng.uniform(-5, 5, n))
    sp = np.array([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 1e-40, -1e-45, 3e38])
    a, b = np.meshgrid(sp, sp)
    re = np.concatenate([re, a.ravel()])
    im = np.concatenate([im, b.ravel()])
    return (re + 1j * im).astype(cdt)


@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
@pytest.mark.parametrize(
    "n,how",
    [(50000, "flat"), (7, "flat"), (19, "flat"), (3000, "t"), (3000, "strided"), (3000, "rows")],
)
def test_complex_angle(cdt, n, how):
    z = _complex_data(n, cdt)
    res = []
    for lib in (torch, ember):
        t = lib.tensor(z)
        if how == "t":
            t = t[: t.numel() // 10 * 10].reshape(10, -1).t()
        elif how == "strided":
            t = t[::3]
        elif how == "rows":
            t = t[: t.numel() // 20 * 20].reshape(20, -1)[:, 1:]
        res.append(lib.angle(t).numpy())
    _same(*res)


# ----------------------------------------------------------------------------- var / std

VAR_CASES = [
    ((3, 10000), 1, "c"),
    ((10000, 3), 0, "c"),
    ((2, 9000, 2), 1, "c"),
    ((4, 12000), 1, "t"),
    ((2, 40000), 1, "c"),
    ((1, 40000), 1, "c"),
    ((3, 5000, 3), (0, 1), "c"),
    ((70001,), 0, "c"),
    ((100003,), None, "c"),
]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,dim,how", VAR_CASES)
def test_var_std_long_rows(dt, shape, dim, how):
    rng = np.random.default_rng(len(shape) + shape[0])
    x = (rng.standard_normal(shape) * rng.uniform(1e-3, 10) + rng.uniform(-1e3, 1e3)).astype(dt)
    res = []
    for lib in (torch, ember):
        t = lib.tensor(x) if how == "c" else lib.tensor(np.ascontiguousarray(x.T)).t()
        if dim is None:
            res.append((*lib.var_mean(t), *lib.std_mean(t, correction=0)))
        else:
            res.append(
                (
                    lib.var(t, dim),
                    lib.std(t, dim, correction=0),
                    *lib.var_mean(t, dim),
                    *lib.std_mean(t, dim, keepdim=True),
                )
            )
    for a, b in zip(*res):
        _same(a.numpy(), b.numpy())


# ----------------------------------------------------------------------------- vector_norm


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("p", [0.5, 1.5, 3, 3.7, -1, -2.5])
def test_vector_norm_other_p(dt, p):
    rng = np.random.default_rng(7)
    cases = [
        ((1000, 37), 1, "c"),
        ((37, 1000), 0, "c"),
        ((1000, 37), 1, "t"),
        ((50000,), None, "c"),
        ((100, 7, 9), (1, 2), "c"),
        ((5, 40000), 1, "c"),
    ]
    for shape, dim, how in cases:
        x = (rng.standard_normal(shape) * 2).astype(dt)
        x.reshape(-1)[:5] = 0
        res = []
        for lib in (torch, ember):
            t = lib.tensor(x) if how == "c" else lib.tensor(np.ascontiguousarray(x.T)).t()
            res.append((lib.linalg.vector_norm(t, p, dim), lib.norm(t, p, dim)))
        for a, b in zip(*res):
            _same(a.numpy(), b.numpy())


# ----------------------------------------------------------------------------- cdist

CDIST_SHAPES = [
    ((20, 37), (15, 37)),
    ((3, 10, 100), (3, 12, 100)),
    ((7, 5), (9, 5)),
    ((30, 64), (40, 64)),
    ((50, 3), (40, 3)),
    ((2, 1, 9, 7), (3, 11, 7)),
    ((26, 6), (4, 6)),
    ((12, 203), (11, 203)),
    ((5, 1), (6, 1)),
]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("p", [0, 1, 2, 3, 0.5, 1.7, float("inf")])
def test_cdist_direct(dt, p):
    rng = np.random.default_rng(11)
    for s1, s2 in CDIST_SHAPES:
        a = (rng.standard_normal(s1) * 3).astype(dt)
        b = (rng.standard_normal(s2) * 3).astype(dt)
        a.reshape(-1)[:3] = b.reshape(-1)[:3]
        a.reshape(-1)[-1] = np.nan
        res = []
        for lib in (torch, ember):
            x1, x2 = lib.tensor(a), lib.tensor(b)
            out = [lib.cdist(x1, x2, p, compute_mode="donot_use_mm_for_euclid_dist")]
            if p != 2 or max(s1[-2], s2[-2]) <= 25:  # else the matrix-product route
                out.append(lib.cdist(x1.mT.contiguous().mT, x2, p))
            res.append(out)
        for t, e in zip(*res):
            _same(t.numpy(), e.numpy())


# ----------------------------------------------------------------------------- group norm backward

GN_CL_BACK = [
    ((4, 12, 5, 7), 3),
    ((3, 10, 9, 9), 5),
    ((2, 32, 8, 8), 8),
    ((2, 36, 6, 6), 3),
    ((2, 6, 11, 10, 3), 3),
    ((2, 16, 20, 30), 4),
    ((2, 8, 50, 50), 4),
    ((1, 12, 64, 33), 3),
    ((2, 6, 8, 16, 20), 2),
]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape,groups", GN_CL_BACK)
@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_channels_last_backward(dt, shape, groups, affine):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(shape) * 2 + 0.5).astype(dt)
    gy = rng.standard_normal(shape).astype(dt)
    c = shape[1]
    w, b = rng.standard_normal(c).astype(dt), rng.standard_normal(c).astype(dt)
    res = []
    for lib in (torch, ember):
        fmt = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        x = lib.tensor(a).contiguous(memory_format=fmt).requires_grad_(True)
        params = [lib.tensor(w).requires_grad_(True), lib.tensor(b).requires_grad_(True)]
        y = lib.nn.functional.group_norm(x, groups, *(params if affine else [None, None]))
        y.backward(lib.tensor(gy).contiguous(memory_format=fmt))
        res.append([x.grad] + ([p.grad for p in params] if affine else []))
    for t, e in zip(*res):
        _same(t.numpy(), e.numpy())
    assert res[0][0].stride() == res[1][0].stride()
