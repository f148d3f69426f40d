"""The exact float kernels against NumPy's own on 10^6 elements; prints time ratios.

    python bench/kernels.py [--repeat N]

ratio = ember time / NumPy time (best of N rounds) for the same op on the same float32
array (float64 where the row says so), contiguous (1000, 1000) unless the row says
otherwise. Ember's kernels add, multiply and round in torch's order; NumPy's are its own
(pairwise sums, SIMD loops). Target: each ratio at most 3.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "src"))

import ember  # noqa: E402


def best(fn, repeat):
    fn()
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def cases():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1000, 1000)).astype(np.float32)
    u = (1 + rng.standard_normal((1000, 1000)) * 1e-3).astype(np.float32)
    e, eu = ember.tensor(a), ember.tensor(u)
    et = e.t()
    return [
        ("sum (all)", lambda: e.sum(), lambda: a.sum()),
        ("sum dim 1", lambda: e.sum(1), lambda: a.sum(1)),
        ("sum dim 0", lambda: e.sum(0), lambda: a.sum(0)),
        ("sum dim 0, transposed", lambda: et.sum(0), lambda: a.T.sum(0)),
        ("mean (all)", lambda: e.mean(), lambda: a.mean()),
        ("mean dim 1", lambda: e.mean(1), lambda: a.mean(1)),
        ("nansum (all)", lambda: e.nansum(), lambda: np.nansum(a)),
        ("prod dim 1", lambda: eu.prod(1), lambda: u.prod(1)),
        ("prod (all)", lambda: eu.prod(), lambda: u.prod()),
        ("cumsum dim 1", lambda: e.cumsum(1), lambda: a.cumsum(1)),
        ("cumprod dim 1", lambda: eu.cumprod(1), lambda: u.cumprod(1)),
        ("softmax dim 1", lambda: e.softmax(1),
         lambda: np.exp(a - a.max(1, keepdims=True)) / np.exp(
             a - a.max(1, keepdims=True)).sum(1, keepdims=True)),
        ("var dim 1", lambda: e.var(1), lambda: a.var(1, ddof=1)),
        ("log_softmax dim 0", lambda: e.log_softmax(0), lambda: _np_log_softmax(a, 0)),
    ] + _softmax_family(rng.standard_normal((1000, 1000))) + sleef_cases(a)


def _np_softmax(a, d):
    x = np.exp(a - a.max(d, keepdims=True))
    return x / x.sum(d, keepdims=True)


def _np_log_softmax(a, d):
    x = a - a.max(d, keepdims=True)
    return x - np.log(np.exp(x).sum(d, keepdims=True))


def _np_grad(a, g):
    y = _np_softmax(a, 1)
    return y * (g - (g * y).sum(1, keepdims=True))


def _softmax_family(a):
    """The float64 softmax family (Sleef's double vectors) against NumPy's formulas."""
    e, g = ember.tensor(a), ember.tensor(a[::-1].copy())
    F = ember.nn.functional
    x = e.detach().requires_grad_(True)
    y = F.softmax(x, 1)
    t = ember.tensor(np.random.default_rng(1).integers(0, 1000, 1000))
    return [
        ("softmax dim 1, f64", lambda: e.softmax(1), lambda: _np_softmax(a, 1)),
        ("softmax dim 0, f64", lambda: e.softmax(0), lambda: _np_softmax(a, 0)),
        ("log_softmax dim 1, f64", lambda: e.log_softmax(1), lambda: _np_log_softmax(a, 1)),
        ("log_softmax dim 0, f64", lambda: e.log_softmax(0), lambda: _np_log_softmax(a, 0)),
        ("logsumexp dim 1, f64", lambda: e.logsumexp(1),
         lambda: np.log(np.exp(a - a.max(1, keepdims=True)).sum(1)) + a.max(1)),
        ("sigmoid, f64", lambda: e.sigmoid(), lambda: 1 / (1 + np.exp(-a))),
        ("silu, f64", lambda: F.silu(e), lambda: a / (1 + np.exp(-a))),
        ("sigmoid strided, f64", lambda: e[:, ::2].sigmoid(),
         lambda: 1 / (1 + np.exp(-a[:, ::2]))),
        ("softmax backward, f64", lambda: ember.autograd.grad(y, x, g, retain_graph=True),
         lambda: _np_grad(a, a[::-1])),
        ("cross_entropy, f64", lambda: F.cross_entropy(e, t),
         lambda: -_np_log_softmax(a, 1)[np.arange(1000), t.numpy()].mean()),
    ]


def _gelu_tanh_np(x):
    k = x.dtype.type
    return k(0.5) * x * (k(1) + np.tanh(k(0.7978845608) * (x + k(0.044715) * x * x * x)))


def sleef_cases(a):
    """torch's Sleef kernels (and the float32 MKL ops computed in double) against NumPy's
    loops for the same function, float32 and float64."""
    out = []
    gelu = ember.nn.functional.gelu
    for dt in (np.float32, np.float64):
        x = a.astype(dt)
        ax, y = np.abs(x), x[::-1].copy()
        e, eax, ey = ember.tensor(x), ember.tensor(ax), ember.tensor(y)
        tag = "" if dt == np.float32 else " (f64)"
        k15 = dt(1.5)
        out += [
            ("expm1" + tag, lambda e=e: e.expm1(), lambda x=x: np.expm1(x)),
            ("log1p" + tag, lambda e=eax: e.log1p(), lambda x=ax: np.log1p(x)),
            ("sinh" + tag, lambda e=e: e.sinh(), lambda x=x: np.sinh(x)),
            ("cosh" + tag, lambda e=e: e.cosh(), lambda x=x: np.cosh(x)),
            ("pow 1.5" + tag, lambda e=eax: e ** 1.5, lambda x=ax, k=k15: x ** k),
            ("pow tensor" + tag, lambda e=eax, f=ey: e ** f, lambda x=ax, z=y: x ** z),
            ("gelu tanh" + tag, lambda e=e: gelu(e, approximate="tanh"),
             lambda x=x: _gelu_tanh_np(x)),
        ]
    e = ember.tensor(a)
    out += [(f"{n} (MKL op, in double)", lambda n=n: getattr(e, n)(),
             lambda f=f: f(a)) for n, f in (("log2", np.log2), ("log10", np.log10),
                                             ("tan", np.tan), ("asin", np.arcsin))]
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=10)
    args = p.parse_args(argv)
    print(f"{'op (10^6 elements)':28s} {'ember ms':>9s} {'numpy ms':>9s} {'ratio':>6s}")
    for name, fe, fn in cases():
        te, tn = best(fe, args.repeat), best(fn, args.repeat)
        flag = "" if te <= 3 * tn else "  OVER"
        print(f"{name:28s} {te * 1e3:9.3f} {tn * 1e3:9.3f} {te / tn:6.2f}{flag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
