"""The exact float kernels against NumPy's own on 10^6 elements; prints time ratios.

    python bench/kernels.py [--repeat N]

ratio = ember time / NumPy time (best of N rounds) for the same op on the same float32
array, contiguous (1000, 1000) unless the row says otherwise. Ember's kernels add, multiply
and round in torch's order; NumPy's are its own (pairwise sums, SIMD loops). Target: each
ratio at most 3.
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
    ]


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=10)
    args = p.parse_args(argv)
    print(f"{'op (10^6 float32)':28s} {'ember ms':>9s} {'numpy ms':>9s} {'ratio':>6s}")
    for name, fe, fn in cases():
        te, tn = best(fe, args.repeat), best(fn, args.repeat)
        flag = "" if te <= 3 * tn else "  OVER"
        print(f"{name:28s} {te * 1e3:9.3f} {tn * 1e3:9.3f} {te / tn:6.2f}{flag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
