"""Regression tests for what the eighth batch of real programs found, each against torch 2.13:
``affine_grid`` makes the grids of 3-D affine maps (5-D sizes, ``(N, 3, 4)`` thetas) with their
gradient, and its messages print ``size`` as given (a ``torch.Size`` stays one)."""

from __future__ import annotations

import pytest

from .helpers import arr, check, errors_alike


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(2, 1, 3, 4, 5), (1, 2, 1, 2, 3), (2, 3, 4, 1, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_affine_grid_of_3d_affine_maps(size, align_corners, dtype):
    check(lambda lib, th: lib.nn.functional.affine_grid(th, size, align_corners=align_corners),
          arr((size[0], 3, 4), dtype))
    check(lambda lib, th: lib.affine_grid_generator(th, list(size), align_corners),
          arr((size[0], 3, 4), dtype))


@pytest.mark.parametrize("theta, size", [
    ((2, 1, 3), "shape"),           # a torch.Size prints as one
    ((2, 2, 3), (2, 1, 3, 4, 4)),
    ((2, 3, 4), [2, 1, 4, 4]),
    ((2, 3, 3), (2, 1, 4, 4, 4)),
    ((2, 3, 4), (2, 1, 4)),
    ((2, 3, 4), (2, 1, 0, 4, 4)),
])
def test_affine_grid_messages_print_the_size_as_given(theta, size):
    def f(lib):
        s = lib.Size([2, 1, 6, 6]) if size == "shape" else size
        return lib.nn.functional.affine_grid(lib.zeros(theta), s, align_corners=False)
    errors_alike(f)


@pytest.mark.parametrize("size", [(2, 1, 4), (2, 1, 4, 4, 4), (2, 1, 4, 4)])
def test_affine_grid_generator_checks(size):
    theta = (3, len(size) - 2, len(size) - 1) if len(size) > 3 else (2, 2, 3)
    errors_alike(lambda lib: lib.affine_grid_generator(lib.zeros(theta), size, False))
