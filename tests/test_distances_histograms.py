"""dist, cdist, histc and histogram against torch: values, gradients, grad_fn names, errors."""

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

rng = np.random.default_rng(1)


def R(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def _run(lib, fn, arrs):
    ins = [lib.from_numpy(a.copy()).requires_grad_() for a in arrs]
    out = fn(lib, *ins)
    out.sum().backward()
    return type(out.grad_fn).__name__, [out.detach().numpy()] + [i.grad.numpy() for i in ins]


CASES = {}
for _p in (2, 1, float("inf"), 3, 0.5, 1.5):
    CASES[f"dist_p{_p}"] = (lambda lib, a, b, p=_p: lib.dist(a, b, p), [R(3, 4), R(4)])
    CASES[f"cdist_p{_p}"] = (lambda lib, a, b, p=_p: lib.cdist(a, b, p),
                             [R(2, 3, 4, dtype=np.float64), R(5, 4, dtype=np.float64)])
CASES["cdist_mm_rows"] = (lambda lib, a, b: lib.cdist(a, b), [R(30, 4), R(27, 4)])
CASES["cdist_mm_batch"] = (lambda lib, a, b: lib.cdist(a, b), [R(2, 30, 4), R(27, 4)])
CASES["cdist_mm_forced"] = (
    lambda lib, a, b: lib.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), [R(3, 4), R(2, 4)])
CASES["dist_method"] = (lambda lib, a, b: a.dist(b), [R(3, 4), R(3, 4)])


@pytest.mark.parametrize("case", CASES)
def test_distances_as_torchs(case):
    fn, arrs = CASES[case]
    (nt, t), (ne, e) = _run(torch, fn, arrs), _run(ember, fn, arrs)
    assert ne == nt
    for a, b in zip(t, e):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)


def _outcome(fn):
    out = []
    for lib in (torch, ember):
        try:
            r = fn(lib)
            out.append([(str(t.dtype), t.numpy()) for t in (r if isinstance(r, tuple) else (r,))])
        except (RuntimeError, NotImplementedError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    return out


ERRORS = [
    lambda L: L.dist(L.tensor([1, 2]), L.tensor([1, 3])),
    lambda L: L.cdist(L.ones(3), L.ones(2, 3)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(2, 4)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(2, 3), p=-1),
    lambda L: L.cdist(L.ones(2, 3, dtype=L.long), L.ones(2, 3, dtype=L.long)),
    lambda L: L.cdist(L.ones(2, 3), L.ones(2, 3), compute_mode="fast"),
    lambda L: L.histc(L.tensor([1, 2]), bins=3),
    lambda L: L.histc(L.tensor([1., 2]), bins=0),
    lambda L: L.histc(L.tensor([1., 2]), bins=3, min=2, max=1),
    lambda L: L.histogram(L.tensor([1, 2]), bins=3),
    lambda L: L.histogram(L.tensor([0., float("nan")]), bins=3),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors_as_torchs(k):
    t, e = _outcome(ERRORS[k])
    assert isinstance(t, tuple) and e == t


def _hist_cases():
    out = []
    for dt in (np.float32, np.float64):
        a = R(1000, dtype=dt) * 3
        ed = np.sort(R(7, dtype=dt))
        out += [lambda L, a=a: L.histc(L.from_numpy(a), bins=37),
                lambda L, a=a: L.histc(L.from_numpy(a), bins=10, min=-1, max=2.5),
                lambda L, a=a: L.histogram(L.from_numpy(a), bins=37),
                lambda L, a=a: L.histogram(L.from_numpy(a), bins=13, range=(-2., 1.7)),
                lambda L, a=a, ed=ed: L.histogram(L.from_numpy(a), L.from_numpy(ed)),
                lambda L, a=a: L.from_numpy(a).histc(5)]
    return out + [
        lambda L: L.histc(L.tensor([1., 1.]), bins=4),
        lambda L: L.histogram(L.tensor([1., 1.]), bins=4),
        lambda L: L.histc(L.tensor([]), bins=3),
        lambda L: L.histogram(L.tensor([]), bins=3),
        lambda L: L.histc(L.tensor([1., 2., 3.]), bins=2, min=0, max=0),
        lambda L: L.histc(L.tensor([0., 1.]), bins=2, min=1, max=1),
        lambda L: L.histogram(L.tensor([1., 2., 3.]), bins=2, range=(0., 0.)),
        lambda L: L.histogram(L.tensor([0., .1, .2, .3, .7, 1., float("nan")]), bins=10),
        lambda L: L.histc(L.linspace(0, 1, 1001), bins=10),
        lambda L: L.histogram(L.linspace(0, 1, 1001), bins=10),
    ]


HIST = _hist_cases()


@pytest.mark.parametrize("k", range(len(HIST)))
def test_histogram_counts_and_edges_are_torchs_bits(k):
    t, e = _outcome(HIST[k])
    if isinstance(t, tuple):          # both raise
        assert e == t
        return
    assert [d for d, _ in e] == [d for d, _ in t]
    for (_, a), (_, b) in zip(t, e):
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("density", [False, True])
def test_weighted_histogram_within_an_ulp(density):
    a, w = R(2, 500) * 3, np.abs(R(2, 500))
    t, e = _outcome(lambda L: L.histogram(L.from_numpy(a), bins=13, weight=L.from_numpy(w),
                                          density=density))
    np.testing.assert_allclose(e[0][1], t[0][1], rtol=1e-6)
    assert np.array_equal(e[1][1], t[1][1])
    assert repr(ember.histogram(ember.tensor([1., 2., 1.]), bins=2)) == \
        repr(torch.histogram(torch.tensor([1., 2., 1.]), bins=2))
