"""F.affine_grid and F.grid_sample against torch 2.13: every mode (bilinear, nearest, bicubic)
× padding × align_corners (values, input and grid gradients, grad_fn names), in float64 and
float32, the default align_corners warning, and torch's errors."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn.functional as tF  # noqa: E402

import ember  # noqa: E402
import ember.nn.functional as eF  # noqa: E402

from ._parity import close  # noqa: E402

CASES = list(itertools.product(["bilinear", "nearest", "bicubic"],
                               ["zeros", "border", "reflection"], [True, False],
                               ["float64", "float32"]))


@pytest.mark.parametrize("mode,pad,ac,dt", CASES)
def test_grid_sample(mode, pad, ac, dt):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 5)).astype(dt)
    g = rng.uniform(-1.4, 1.4, (2, 3, 6, 2)).astype(dt)
    g[0, 0, 0] = [1.0, -1.0]                 # exactly on the border
    tx, tg = torch.tensor(x, requires_grad=True), torch.tensor(g, requires_grad=True)
    ex, eg = ember.tensor(x, requires_grad=True), ember.tensor(g, requires_grad=True)
    ty, ey = tF.grid_sample(tx, tg, mode, pad, ac), eF.grid_sample(ex, eg, mode, pad, ac)
    # bilinear and nearest follow torch's vectorised kernel bit for bit; bicubic's weights
    # and sums round differently (the compiler's fused multiply-adds are not reproduced)
    tol = (0, 0) if mode != "bicubic" else (1e-12, 1e-12) if dt == "float64" else (1e-5, 1e-5)
    close(ey, ty, "output", *tol)
    assert ey.grad_fn.name() == ty.grad_fn.name()
    up = rng.standard_normal(ty.shape).astype(dt)
    (ty * torch.tensor(up)).sum().backward()
    (ey * ember.tensor(up)).sum().backward()
    close(ex.grad, tx.grad, "input grad", *tol)
    close(eg.grad, tg.grad, "grid grad", *tol)


@pytest.mark.parametrize("layout", ["nchw", "rows"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_strided_grids_bit_for_bit(layout, dt):
    """A grid permuted from a conv's (N, 2, H, W) output, or a view of every other column:
    the kernel walks those grids row by row, which orders the input gradient's sums."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 6)).astype(dt)
    shape = (2, 2, 9, 13) if layout == "nchw" else (2, 9, 26, 2)
    base = rng.uniform(-1.3, 1.3, shape).astype(dt)
    up = None
    got = []
    for lib in (torch, ember):
        xi, gi = lib.tensor(x, requires_grad=True), lib.tensor(base, requires_grad=True)
        grid = gi.permute(0, 2, 3, 1) if layout == "nchw" else gi[:, :, ::2]
        y = lib.nn.functional.grid_sample(xi, grid, "bilinear", "zeros", False)
        if up is None:
            up = rng.standard_normal(tuple(y.shape)).astype(dt)
        (y * lib.tensor(up)).sum().backward()
        got.append((y, xi.grad, gi.grad))
    for e, t, what in zip(got[1], got[0], ("output", "input grad", "grid grad")):
        close(e, t, what, 0, 0)


@pytest.mark.parametrize("ac", [True, False])
@pytest.mark.parametrize("dt", [torch.float64, torch.float32])
def test_affine_grid_then_sample(ac, dt):
    th = torch.randn(2, 2, 3, dtype=dt, requires_grad=True)
    eth = ember.tensor(th.detach().numpy(), requires_grad=True)
    tgrid, egrid = tF.affine_grid(th, (2, 3, 7, 16), ac), eF.affine_grid(eth, (2, 3, 7, 16), ac)
    close(egrid, tgrid, "grid", 0, 0)        # torch's linspace and its 3-term sums, exactly
    assert egrid.grad_fn.name() == tgrid.grad_fn.name()
    x = torch.randn(2, 3, 5, 6, dtype=dt)
    ty = tF.grid_sample(x, tgrid, align_corners=ac)
    ey = eF.grid_sample(ember.tensor(x.numpy()), egrid, align_corners=ac)
    ty.pow(2).sum().backward()
    ey.pow(2).sum().backward()
    tol = (1e-10, 1e-12) if dt == torch.float64 else (1e-5, 1e-6)
    close(ey, ty, "sampled", 0, 0)
    close(eth.grad, th.grad, "theta grad", *tol)     # a bmm over the grid: BLAS's sums


def _outcome(fn, lib):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            fn(lib)
            res = "ok"
        except Exception as e:  # noqa: BLE001  (comparing torch's and ember's errors)
            res = (type(e).__name__, str(e))
    return res, [(x.category.__name__, str(x.message)) for x in w]


@pytest.mark.parametrize("fn", [
    lambda L: L.nn.functional.affine_grid(L.zeros(2, 2, 3), (2, 1, 3, 4)),
    lambda L: L.nn.functional.affine_grid(L.zeros(2, 2, 3), (2, 1, 1, 4), align_corners=True),
    lambda L: L.nn.functional.affine_grid(L.zeros(0, 2, 3), (0, 1, 3, 4), align_corners=True),
    lambda L: L.nn.functional.grid_sample(L.zeros(2, 1, 3, 4), L.zeros(2, 2, 2, 2)),
    lambda L: L.nn.functional.grid_sample(L.zeros(2, 1, 3, 4), L.zeros(2, 2, 2, 2), "foo"),
    lambda L: L.nn.functional.grid_sample(L.zeros(2, 1, 3, 4), L.zeros(2, 2, 2, 2),
                                          padding_mode="foo"),
    lambda L: L.nn.functional.grid_sample(L.zeros(2, 1, 3, 4), L.zeros(2, 2, 2, 1),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.zeros(2, 1, 3, 4), L.zeros(3, 2, 2, 2),
                                          align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.zeros(2, 2, 3), (2, 1, 3), align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.zeros(2, 3, 3), (2, 1, 3, 4), align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.zeros(2, 2, 3), (2, 1, 0, 4), align_corners=False),
])
def test_errors_and_warnings(fn):
    assert _outcome(fn, ember) == _outcome(fn, torch)
