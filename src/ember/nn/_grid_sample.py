"""``affine_grid`` and ``grid_sample`` (2-D, bilinear/nearest, zeros/border/reflection
padding), following ATen's CPU ``grid_sampler_2d`` and its backward formula for formula:
unnormalise, pad (with the coordinate's gradient factor), interpolate."""

from __future__ import annotations

import warnings

import numpy as np

from .._ops.registry import NONE, op
from .._tensor import Tensor

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def _linspace_from_neg_one(n: int, align_corners: bool, dtype) -> np.ndarray:
    if n <= 1:
        return np.zeros(1, dtype)
    r = np.linspace(-1, 1, n).astype(dtype)
    return r if align_corners else (r * (n - 1) / n).astype(dtype)


def _base_grid(n, h, w, align_corners, dtype) -> np.ndarray:
    base = np.ones((n, h, w, 3), dtype)
    base[..., 0] = _linspace_from_neg_one(w, align_corners, dtype)
    base[..., 1] = _linspace_from_neg_one(h, align_corners, dtype)[:, None]
    return base


@op("AffineGridGeneratorBackward0", name="_affine_grid_generator", method=False,
    function=False, promote=NONE,
    theta=lambda grad, theta, size, align_corners: _affine_grid_backward(grad, size,
                                                                        align_corners))
def _affine_grid_generator(theta, size, align_corners):
    n, _, h, w = size
    base = _base_grid(n, h, w, align_corners, theta.dtype).reshape(n, h * w, 3)
    return np.matmul(base, np.swapaxes(theta, 1, 2)).reshape(n, h, w, 2)


def _affine_grid_backward(grad, size, align_corners):
    n, _, h, w = size
    base = Tensor._wrap(_base_grid(n, h, w, align_corners, grad._data.dtype).reshape(n, h * w,
                                                                                     3))
    return grad.reshape(n, h * w, 2).transpose(1, 2).bmm(base)


def _default_align(align_corners):
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to "
                      "align_corners=False since 1.3.0. Please specify align_corners=True if "
                      "the old behavior is desired. See the documentation of grid_sample for "
                      "details.", stacklevel=3)
        return False
    return align_corners


def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The sampling grid ``(N, H, W, 2)`` of the 2-D affine maps ``theta`` ``(N, 2, 3)`` for
    an output of ``size`` ``(N, C, H, W)``."""
    align_corners = _default_align(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = tuple(size)
    if len(size) == 4:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (2, 3):
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        raise NotImplementedError("affine_grid for 3D affine transforms (5-D sizes) is not "
                                  "supported")
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if min(spatial) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return affine_grid_generator(theta, size, align_corners)


def affine_grid_generator(theta: Tensor, size, align_corners: bool) -> Tensor:
    """ATen's ``affine_grid_generator``: the grid of :func:`affine_grid`, unchecked but for
    the batch sizes (node ``AffineGridGeneratorBackward0``)."""
    size = tuple(int(s) for s in size)
    if len(size) != 4:
        raise NotImplementedError("affine_grid for 3D affine transforms (5-D sizes) is not "
                                  "supported")
    if theta.size(0) != size[0]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, 3] but got: [{theta.size(0)}, 3].")
    return _affine_grid_generator(theta, size, bool(align_corners))


# ----------------------------------------------------------------------------- grid_sample

def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2
    return ((coord + 1) * size - 1) / 2, size / 2


def _clip(x, size):
    g = ((x > 0) & (x < size - 1)).astype(x.dtype)
    return np.clip(x, 0, size - 1), g


def _reflect(x, twice_low, twice_high):
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    lo, span = twice_low / 2, (twice_high - twice_low) / 2
    x = x - lo
    mult = np.where(x < 0, -1.0, 1.0).astype(x.dtype)
    x = np.abs(x)
    extra = np.fmod(x, span)
    flips = np.floor(x / span)
    even = flips % 2 == 0
    return (np.where(even, extra + lo, span - extra + lo).astype(x.dtype),
            np.where(even, mult, -mult).astype(x.dtype))


def _source_index(coord, size, padding, align_corners):
    """ATen's ``grid_sampler_compute_source_index_set_grad``."""
    x, g = _unnormalize(coord, size, align_corners)
    g = np.full_like(coord, g)
    if padding == 1:
        x, gc = _clip(x, size)
        g = g * gc
    elif padding == 2:
        if align_corners:
            x, gr = _reflect(x, 0, 2 * (size - 1))
        else:
            x, gr = _reflect(x, -1, 2 * size - 1)
        x, gc = _clip(x, size)
        g = g * gr * gc
    return x, g


def _gather(inp, iy, ix):
    """``inp[n, :, iy, ix]`` as ``(N, C, Ho, Wo)``, 0 where out of bounds."""
    n, c, h, w = inp.shape
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    yc, xc = np.clip(iy, 0, h - 1), np.clip(ix, 0, w - 1)
    vals = inp[np.arange(n)[:, None, None], :, yc, xc]           # (N, Ho, Wo, C)
    return np.moveaxis(vals * ok[..., None], -1, 1), ok


def _scatter(grad_in, iy, ix, vals):
    n, c, h, w = grad_in.shape
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    nn_, yy, xx = np.nonzero(ok)
    np.add.at(grad_in, (nn_[:, None], np.arange(c)[None], iy[ok][:, None], ix[ok][:, None]),
              np.moveaxis(vals, 1, -1)[ok])


def _corners(inp, grid, padding, align_corners):
    h, w = inp.shape[2], inp.shape[3]
    ix, gx = _source_index(grid[..., 0], w, padding, align_corners)
    iy, gy = _source_index(grid[..., 1], h, padding, align_corners)
    return ix, iy, gx, gy


def _grid_sample_np(inp, grid, mode, padding, align_corners):
    ix, iy, _, _ = _corners(inp, grid, padding, align_corners)
    if mode == 1:
        return _gather(inp, np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64))[0]
    x0, y0 = np.floor(ix), np.floor(iy)
    x0i, y0i = x0.astype(np.int64), y0.astype(np.int64)
    out = 0
    for dy in (0, 1):
        for dx in (0, 1):
            wgt = (1 - np.abs(ix - (x0 + dx))) * (1 - np.abs(iy - (y0 + dy)))
            out = out + _gather(inp, y0i + dy, x0i + dx)[0] * wgt[:, None].astype(inp.dtype)
    return out.astype(inp.dtype)


def _grid_sample_backward_np(grad, inp, grid, mode, padding, align_corners):
    ix, iy, gx, gy = _corners(inp, grid, padding, align_corners)
    grad_in = np.zeros_like(inp)
    if mode == 1:
        _scatter(grad_in, np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64), grad)
        return grad_in, np.zeros_like(grid)
    x0, y0 = np.floor(ix), np.floor(iy)
    x0i, y0i = x0.astype(np.int64), y0.astype(np.int64)
    gix = np.zeros_like(ix)
    giy = np.zeros_like(iy)
    for dy in (0, 1):
        for dx in (0, 1):
            wx = 1 - np.abs(ix - (x0 + dx))
            wy = 1 - np.abs(iy - (y0 + dy))
            _scatter(grad_in, y0i + dy, x0i + dx, grad * (wx * wy)[:, None])
            v = (_gather(inp, y0i + dy, x0i + dx)[0] * grad).sum(1)
            gix += v * wy * (1 if dx else -1)
            giy += v * wx * (1 if dy else -1)
    grad_grid = np.stack([gix * gx, giy * gy], -1).astype(grid.dtype)
    return grad_in, grad_grid


@op("GridSampler2DBackward0", name="_grid_sampler_2d", method=False, function=False,
    promote=NONE,
    input=lambda grad, input, grid, mode, padding_mode, align_corners:
        _grid_sampler_2d_backward(grad, input, grid, mode, padding_mode, align_corners)[0],
    grid=lambda grad, input, grid, mode, padding_mode, align_corners:
        _grid_sampler_2d_backward(grad, input, grid, mode, padding_mode, align_corners)[1])
def _grid_sampler_2d(input, grid, mode, padding_mode, align_corners):
    return _grid_sample_np(input, grid, mode, padding_mode, align_corners)


@op("GridSampler2DBackwardBackward0", name="_grid_sampler_2d_backward", method=False,
    function=False, promote=NONE, outputs=2, tensors=("grad_output", "input", "grid"))
def _grid_sampler_2d_backward(grad_output, input, grid, mode, padding_mode, align_corners):
    return _grid_sample_backward_np(grad_output, input, grid, mode, padding_mode,
                                    align_corners)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` ``(N, C, H, W)`` at the normalised locations ``grid``
    ``(N, Ho, Wo, 2)`` (x then y, in [-1, 1]); bilinear or nearest, padded with zeros, the
    border or reflections."""
    if mode not in _MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDING:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _default_align(align_corners)
    return grid_sampler(input, grid, _MODES[mode], _PADDING[padding_mode], bool(align_corners))


def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    """ATen's ``grid_sampler``: :func:`grid_sample` with the modes as numbers
    (interpolation 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2
    reflection)."""
    if input.size(0) != grid.size(0):
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    if grid.size(-1) != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in "
                           f"last dimension, but got grid with sizes {list(grid.shape)}")
    if input.dim() != 4 or grid.dim() != 4:
        raise NotImplementedError("grid_sample supports 4-D input and grid (2-D sampling) only")
    return grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """ATen's ``grid_sampler_2d`` (node ``GridSampler2DBackward0``)."""
    if interpolation_mode == 2:
        raise NotImplementedError("grid_sample: mode='bicubic' is not supported")
    for i in (2, 3):
        if input.size(i) <= 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {i} being empty")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{grid.dtype.scalar_name}")
    return _grid_sampler_2d(input, grid, int(interpolation_mode), int(padding_mode),
                            bool(align_corners))
