"""torch.cross / torch.linalg.cross / Tensor.cross against torch: values, broadcasting, dims,
gradients (and double backward), grad_fn names, errors and the default-dim deprecation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import NC, arr, caught_warnings, check, ember, errors_alike, torch


@pytest.mark.parametrize("shapes,dim", [
    (((3,), (3,)), -1), (((4, 3), (4, 3)), -1), (((3, 5), (3, 5)), 0), (((2, 3, 4), (1, 3, 4)), 1),
    (((5, 1, 3), (1, 4, 3)), 2), (((2, 3), (2, 3)), -1), (((0, 3), (0, 3)), 1),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linalg_cross(shapes, dim, dtype):
    a, b = (arr(s, dtype, seed=k) for k, s in enumerate(shapes))
    check(lambda L, x, y: L.linalg.cross(x, y, dim=dim), a, b)
    check(lambda L, x, y: L.cross(x, y, dim=dim), a, b)
    check(lambda L, x, y: x.cross(y, dim), a, b)


@pytest.mark.filterwarnings("ignore:Using torch.cross without specifying the dim")
def test_default_dim_is_first_of_size_three():
    a, b = arr((3, 3, 2), seed=1), arr((3, 3, 2), seed=2)
    check(lambda L, x, y: L.cross(x, y), a, b)
    check(lambda L, x, y: L.cross(x, y), arr((2, 3), seed=3), arr((1, 3), seed=4))
    check(lambda L, x, y: L.linalg.cross(x, y), NC(arr((3, 4))), NC(arr((3, 4), seed=5)))


def test_default_dim_warns_once():
    import sys
    sys.modules["ember._ops.cross"]._warned = False
    first = caught_warnings(lambda L: L.cross(L.ones(3), L.ones(3)), ember)
    again = caught_warnings(lambda L: L.cross(L.ones(3), L.ones(3)), ember)
    assert first[0][0] == "UserWarning" and first[0][1].startswith(
        "Using torch.cross without specifying the dim arg is deprecated.\n")
    assert again == []
    assert caught_warnings(lambda L: L.cross(L.ones(3), L.ones(3), dim=0), ember) == []
    # torch's text (it warns once per process, so it is read from a fresh torch process)
    import subprocess
    out = subprocess.run([sys.executable, "-W", "always", "-c",
                          "import torch, warnings\n"
                          "with warnings.catch_warnings(record=True) as w:\n"
                          "    warnings.simplefilter('always')\n"
                          "    torch.cross(torch.ones(3), torch.ones(3))\n"
                          "print(str(w[0].message).split(' (Triggered')[0])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == first[0][1]


def test_integers_and_double_backward():
    check(lambda L, x, y: L.linalg.cross(x, y), np.array([1, 2, 3]), np.array([4, 5, 6]))
    for L in (torch, ember):
        x = L.tensor([[1., 2., 3.], [0., -1., 2.]], dtype=L.float64, requires_grad=True)
        y = L.tensor([[0.5, 1., -1.], [2., 2., 1.]], dtype=L.float64, requires_grad=True)
        assert L.autograd.gradcheck(L.linalg.cross, (x, y))
        assert L.autograd.gradgradcheck(L.linalg.cross, (x, y))


@pytest.mark.parametrize("make", [
    lambda L: L.linalg.cross(L.ones(2, 4), L.ones(2, 4)),
    lambda L: L.cross(L.ones(2, 4), L.ones(2, 4)),
    lambda L: L.cross(L.ones(2, 3), L.ones(3, 3)),
    lambda L: L.cross(L.ones(3, 2), L.ones(3, 2), dim=1),
    lambda L: L.linalg.cross(L.ones(3, 2), L.ones(3, 2), dim=5),
    lambda L: L.linalg.cross(L.ones(3), L.ones(2, 3)),
    lambda L: L.cross(L.ones(3), L.ones(3, dtype=L.float64)),
    lambda L: L.linalg.cross(L.ones(3, requires_grad=True), L.ones(3), out=L.empty(3)),
])
def test_errors(make):
    errors_alike(make)


def test_out():
    for L in (torch, ember):
        o = L.empty(2, 3)
        r = L.linalg.cross(L.tensor([[1., 0, 0], [0, 1, 0]]), L.tensor([[0., 1, 0], [0, 0, 1]]),
                           out=o)
        assert r is o and o.tolist() == [[0., 0., 1.], [1., 0., 0.]]
