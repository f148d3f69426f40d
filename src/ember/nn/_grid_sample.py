"""``affine_grid`` and ``grid_sample`` (2-D, bilinear/nearest/bicubic, zeros/border/reflection
padding), following ATen's CPU ``grid_sampler_2d`` and its backward formula for formula:
unnormalise, pad (with the coordinate's gradient factor), interpolate. Bicubic pads each of
the 4x4 neighbours' coordinates instead of the sampled point's (``get_value_bounded``)."""

from __future__ import annotations

import warnings

import numpy as np

from .._dtype import from_numpy_dtype
from .._factories import linspace
from .._ops import _exact, _gemm
from .._ops.registry import NONE, joint, op
from .._tensor import Tensor

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def _linspace_from_neg_one(n: int, align_corners: bool, dtype) -> np.ndarray:
    if n <= 1:
        return np.zeros(1, dtype)
    r = linspace(-1, 1, n, dtype=from_numpy_dtype(dtype))._data       # torch's own values
    return r if align_corners else r * (n - 1) / n


def _base_grid(n, spatial, align_corners, dtype) -> np.ndarray:
    """ATen's base grid ``(N, *spatial, k + 1)``: the normalised coordinates of the ``k``
    spatial sizes ``(D,) H, W``, x (along W) first, then a column of ones."""
    k = len(spatial)
    base = np.ones((n, *spatial, k + 1), dtype)
    for i, m in enumerate(reversed(spatial)):               # x along W, y along H, z along D
        axis = k - 1 - i
        base[..., i] = _linspace_from_neg_one(m, align_corners, dtype).reshape(
            (m,) + (1,) * (k - 1 - axis))
    return base


@op("AffineGridGeneratorBackward0", name="_affine_grid_generator", method=False,
    function=False, promote=NONE,
    theta=lambda grad, size, align_corners: _affine_grid_backward(grad, size, align_corners))
def _affine_grid_generator(theta, size, align_corners):
    n, spatial = size[0], size[2:]
    k = len(spatial)
    points = int(np.prod(spatial))
    base = _base_grid(n, spatial, align_corners, theta.dtype).reshape(n, points, k + 1)
    # torch's bmm of the base grid by theta's transpose (MKL's, where installed)
    out = _gemm.baddbmm(None, base, theta.transpose(0, 2, 1))
    if out is None:
        out = np.stack([sum(base[..., j] * theta[:, r, j:j + 1] for j in range(k + 1))
                        for r in range(k)], -1)
    return out.reshape(n, *spatial, k)


def _affine_grid_backward(grad, size, align_corners):
    n, spatial = size[0], size[2:]
    k = len(spatial)
    points = int(np.prod(spatial))
    base = Tensor._wrap(_base_grid(n, spatial, align_corners,
                                   grad._data.dtype).reshape(n, points, k + 1))
    return grad.reshape(n, points, k).transpose(1, 2).bmm(base)


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
    an output of ``size`` ``(N, C, H, W)``, or ``(N, D, H, W, 3)`` of the 3-D maps
    ``(N, 3, 4)`` for ``(N, C, D, H, W)``."""
    align_corners = _default_align(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    # the messages print ``size`` as given (a torch.Size, a list, a tuple)
    if len(size) in (4, 5):
        k = len(size) - 2
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (k, k + 1):
            raise ValueError(f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} "
                             f"for size {size}. Got {theta.shape}.")
        spatial = tuple(size)[-k:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return affine_grid_generator(theta, size, align_corners)


def affine_grid_generator(theta: Tensor, size, align_corners: bool) -> Tensor:
    """ATen's ``affine_grid_generator``: the grid of :func:`affine_grid`, unchecked but for
    the batch sizes (node ``AffineGridGeneratorBackward0``)."""
    shape = tuple(int(s) for s in size)
    if len(shape) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    if theta.size(0) != shape[0]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{shape[0]}, {len(shape) - 1}] but got: [{theta.size(0)}, "
                           f"{len(shape) - 1}].")
    return _affine_grid_generator(theta, shape, bool(align_corners))


# ----------------------------------------------------------------------------- grid_sample

def _unnormalize(coord, size, align_corners):
    """The vectorised kernel's ``unnormalize`` (``ComputeLocationBase``): ``(x + 1) * s`` with
    ``s = (size - 1) / 2``, or ``(x + 1) * (size / 2) - 0.5`` as one fused multiply-add (as
    the compiler contracts it); and ``s``, the factor of the coordinate's gradient."""
    t = coord.dtype.type
    if align_corners:
        s = t(size - 1) / t(2)
        return (coord + t(1)) * s, s
    s = t(size) / t(2)
    a = coord + t(1)
    return _exact.fma(a, np.full_like(a, s), np.full_like(a, t(-0.5))), s


def _clip(x, size):
    """``clip_coordinates_get_grad``: ``x`` within [0, size - 1], and where it was inside."""
    top = x.dtype.type(size - 1)
    return np.minimum(top, np.maximum(x, 0)), (x > 0) & (x < top)


def _reflect(x, size, align_corners):
    """``reflect_coordinates_get_grad``: ``x`` folded into the span it is reflected in
    ([0, size - 1], or [-0.5, size - 0.5] without ``align_corners``), and the sign of its
    gradient."""
    t = x.dtype.type
    twice = t(2 * (size - 1) if align_corners else 2 * size)
    if twice <= 0:
        return np.zeros_like(x), np.zeros_like(x)
    low = t(0 if align_corners else -0.5)
    x = x - low
    a = np.abs(x)
    extra = a - np.trunc(a / twice) * twice
    flipped = twice - extra
    more = extra > flipped
    return np.where(more, flipped, extra) + low, np.where(more ^ (x < 0), t(-1), t(1))


def _source_index(coord, size, padding, align_corners):
    """``ComputeLocation::apply_get_grad``: the coordinate in pixels, padded, and the factor
    of its gradient."""
    x, s = _unnormalize(coord, size, align_corners)
    g = np.full_like(x, s)
    if padding == 2:
        x, sign = _reflect(x, size, align_corners)
        g = g * sign
    if padding:
        x, inside = _clip(x, size)
        g = np.where(inside, g, x.dtype.type(0))
    return x, g


def _gather(inp, iy, ix):
    """``inp[n, :, iy, ix]`` as ``(N, C, Ho, Wo)``, 0 where out of bounds."""
    n, c, h, w = inp.shape
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    yc, xc = np.clip(iy, 0, h - 1), np.clip(ix, 0, w - 1)
    vals = inp[np.arange(n)[:, None, None], :, yc, xc]           # (N, Ho, Wo, C)
    return np.moveaxis(np.where(ok[..., None], vals, vals.dtype.type(0)), -1, 1), ok


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


_A = -0.75         # the cubic convolution's parameter (as in bicubic upsampling)


def _cubic_coefficients(t):
    """The vectorised kernel's ``get_cubic_coefficients``: the weights of the neighbours at
    offsets -1, 0, 1, 2 of a point ``t`` past the first; the inner two by fused
    multiply-adds (``(a + 2) * x - (a + 3)``, then ``(u * x) * x + 1``), as the compiled
    kernel computes them."""
    a = t.dtype.type(_A)
    one, two = t.dtype.type(1), t.dtype.type(2)

    def inner(x):
        u = _exact.fma(np.full_like(x, a + 2), x, np.full_like(x, -(a + 3))) * x
        return _exact.fma(u, x, np.full_like(x, one))

    x = t + one
    c0 = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    x = two - t
    c3 = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return c0, inner(t), inner(one - t), c3


def _cubic_combine(c, v, along_x: bool):
    """``c0 v0 + c1 v1 + c2 v2 + c3 v3`` as the kernel compiles it: along x the first product
    fused onto the second and the other two added; along y the first product, then each next
    fused in."""
    w = [np.broadcast_to(ci, vi.shape) for ci, vi in zip(c, v)]
    if along_x:
        return _exact.fma(w[0], v[0], w[1] * v[1]) + w[2] * v[2] + w[3] * v[3]
    out = w[0] * v[0]
    for wi, vi in zip(w[1:], v[1:]):
        out = _exact.fma(wi, vi, out)
    return out


def _cubic_coefficients_grad(t):
    """ATen's ``get_cubic_coefficients_grad``: the weights' derivatives in ``t``."""
    a = t.dtype.type(_A)
    x = -1 - t
    c0 = (-3 * a * x - 10 * a) * x - 8 * a
    x = -t
    c1 = (-3 * (a + 2) * x - 2 * (a + 3)) * x
    x = 1 - t
    c2 = (3 * (a + 2) * x - 2 * (a + 3)) * x
    x = 2 - t
    c3 = (3 * a * x - 10 * a) * x + 8 * a
    return c0, c1, c2, c3


def _bounded(coord, size, padding, align_corners):
    """ATen's ``compute_coordinates`` then the integer index ``get_value_bounded`` reads."""
    if padding == 2:
        coord = _reflect(coord, size, align_corners)[0]
    if padding:
        coord = _clip(coord, size)[0]
    return coord.astype(np.int64)       # truncation, as C's cast


def _bicubic_taps(inp, grid, padding, align_corners):
    """The unnormalised point, its 4x4 neighbours' indices (after padding) and weights."""
    h, w = inp.shape[2], inp.shape[3]
    x, sx = _unnormalize(grid[..., 0], w, align_corners)
    y, sy = _unnormalize(grid[..., 1], h, align_corners)
    x0, y0 = np.floor(x), np.floor(y)
    cols = [_bounded(x0 + (k - 1), w, padding, align_corners) for k in range(4)]
    rows = [_bounded(y0 + (k - 1), h, padding, align_corners) for k in range(4)]
    return x - x0, y - y0, cols, rows, sx, sy


def _bicubic(inp, grid, padding, align_corners):
    tx, ty, cols, rows, _, _ = _bicubic_taps(inp, grid, padding, align_corners)
    cx = [c[:, None] for c in _cubic_coefficients(tx)]
    cy = [c[:, None] for c in _cubic_coefficients(ty)]
    rows_x = [_cubic_combine(cx, [_gather(inp, r, c)[0] for c in cols], True) for r in rows]
    return _cubic_combine(cy, rows_x, False).astype(inp.dtype)


def _bicubic_backward(grad, inp, grid, padding, align_corners, output_mask):
    tx, ty, cols, rows, sx, sy = _bicubic_taps(inp, grid, padding, align_corners)
    cx, cy = _cubic_coefficients(tx), _cubic_coefficients(ty)
    dx, dy = _cubic_coefficients_grad(tx), _cubic_coefficients_grad(ty)
    grad_in = np.zeros_like(inp)
    gix = np.zeros_like(tx)
    giy = np.zeros_like(ty)
    for i in range(4):
        for j in range(4):
            if output_mask[0]:
                _scatter(grad_in, rows[j], cols[i], grad * (cx[i] * cy[j])[:, None])
            if output_mask[1]:
                v = (_gather(inp, rows[j], cols[i])[0] * grad).sum(1)
                gix -= v * dx[i] * cy[j]
                giy -= v * dy[j] * cx[i]
    return grad_in, np.stack([gix * sx, giy * sy], -1).astype(grid.dtype)


def _grid_sample_np(inp, grid, mode, padding, align_corners):
    if mode == 2:
        return _bicubic(inp, grid, padding, align_corners)
    ix, iy, _, _ = _corners(inp, grid, padding, align_corners)
    if mode == 1:
        return _gather(inp, np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64))[0]
    x0, y0 = np.floor(ix), np.floor(iy)
    x0i, y0i = x0.astype(np.int64), y0.astype(np.int64)
    one = ix.dtype.type(1)
    w, n = ix - x0, iy - y0
    e, s = one - w, one - n
    out = None          # nw * v_nw, then each next corner fused in: as the kernel compiles
    for wgt, dy, dx in ((s * e, 0, 0), (s * w, 0, 1), (n * e, 1, 0), (n * w, 1, 1)):
        v = _gather(inp, y0i + dy, x0i + dx)[0]
        wgt = np.broadcast_to(wgt[:, None], v.shape)
        out = v * wgt if out is None else _exact.fma(v, wgt, out)
    return out.astype(inp.dtype)


def _grid_sample_backward_np(grad, inp, grid, mode, padding, align_corners, output_mask):
    """The gradients of the input and the grid (those ``output_mask`` asks for; zeros for
    the other), as ``grid_sampler_2d_backward_cpu_kernel`` computes them."""
    if mode == 2:
        return _bicubic_backward(grad, inp, grid, padding, align_corners, output_mask)
    ix, iy, gx, gy = _corners(inp, grid, padding, align_corners)
    grad_in = np.zeros_like(inp)
    if mode == 1:
        if output_mask[0]:
            _scatter(grad_in, np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64), grad)
        return grad_in, np.zeros_like(grid)
    x0, y0 = np.floor(ix), np.floor(iy)
    x0i, y0i = x0.astype(np.int64), y0.astype(np.int64)
    one = ix.dtype.type(1)
    w, n = ix - x0, iy - y0
    e, s = one - w, one - n
    corners = [(y0i + dy, x0i + dx, wgt) for wgt, dy, dx in
               ((s * e, 0, 0), (s * w, 0, 1), (n * e, 1, 0), (n * w, 1, 1))]
    if output_mask[0]:
        _scatter_in_order(grad_in, grad, corners, _chunks(grid))
    if not output_mask[1]:
        return grad_in, np.zeros_like(grid)
    vnw, vne, vsw, vse = (_gather(inp, yy, xx)[0] for yy, xx, _ in corners)
    s, n, e, w = (v[:, None] for v in (s, n, e, w))
    tx = _exact.fma(vse - vsw, np.broadcast_to(n, vse.shape), (vne - vnw) * s)
    ty = _exact.fma(vse - vne, np.broadcast_to(w, vse.shape), (vsw - vnw) * e)
    gix = np.zeros_like(ix)
    giy = np.zeros_like(iy)
    for c in range(inp.shape[1]):                   # the kernel's loop over channels
        gix = _exact.fma(tx[:, c], grad[:, c], gix)
        giy = _exact.fma(ty[:, c], grad[:, c], giy)
    return grad_in, np.stack([gix * gx, giy * gy], -1).astype(grid.dtype)


def _contiguous(sizes, strides) -> bool:
    """``at::geometry_is_contiguous``."""
    expected = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def _chunks(grid):
    """Each output point's vector in the kernel's walk over a batch's grid (32-byte vectors):
    runs of the flattened (Ho, Wo) when that is contiguous, else of each row."""
    _, ho, wo, _ = grid.shape
    sh, sw, sc = (st // grid.itemsize for st in grid.strides[1:])
    lanes = 32 // grid.itemsize
    p = np.arange(ho * wo)
    if _contiguous((ho, wo, 2), (sh, sw, sc)) or (
            (sw == 1 or wo == 1) and _contiguous((ho, wo), (sh, sw))):
        return p // lanes
    return p // wo * -(-wo // lanes) + p % wo // lanes


def _scatter_in_order(grad_in, grad, corners, chunks):
    """The input's gradient, ``grad * weight`` added at each corner as the kernel adds them
    (``safe_add_2d``): vector by vector of output points, corner by corner, lane by lane."""
    nb, nc, h, w = grad_in.shape
    npts = chunks.size
    corner = np.repeat(np.arange(4), npts)
    point = np.tile(np.arange(npts), 4)
    order = np.lexsort((point, corner, np.tile(chunks, 4)))
    corner, point = corner[order], point[order]
    iy = np.stack([c[0].reshape(nb, -1) for c in corners], 1).reshape(nb, -1)[:, order]
    ix = np.stack([c[1].reshape(nb, -1) for c in corners], 1).reshape(nb, -1)[:, order]
    wt = np.stack([c[2].reshape(nb, -1) for c in corners], 1).reshape(nb, -1)[:, order]
    vals = wt[:, None] * grad.reshape(nb, nc, -1)[:, :, point]        # (N, C, 4P)
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    bi, k = np.nonzero(ok)
    np.add.at(grad_in, (bi[:, None], np.arange(nc)[None], iy[bi, k][:, None],
                        ix[bi, k][:, None]), np.moveaxis(vals, 1, -1)[bi, k])


@op("GridSampler2DBackward0", name="_grid_sampler_2d", method=False, function=False,
    promote=NONE, **joint(
        lambda grad, input, grid, mode, padding_mode, align_corners, output_mask:
        _grid_sampler_2d_backward(grad, input, grid, mode, padding_mode, align_corners,
                                  output_mask), "input", "grid"))
def _grid_sampler_2d(input, grid, mode, padding_mode, align_corners):
    # (torch allocates the output contiguous; the gathers here leave channels last)
    return np.ascontiguousarray(_grid_sample_np(input, grid, mode, padding_mode, align_corners))


@op("GridSampler2DBackwardBackward0", name="_grid_sampler_2d_backward", method=False,
    function=False, promote=NONE, outputs=2, tensors=("grad_output", "input", "grid"))
def _grid_sampler_2d_backward(grad_output, input, grid, mode, padding_mode, align_corners,
                              output_mask):
    return _grid_sample_backward_np(grad_output, input, grid, mode, padding_mode,
                                    align_corners, output_mask)


# ----------------------------------------------------------------------- 3-D grid_sample
# ATen's scalar CPU kernel (``grid_sampler_3d_cpu_impl``): no fused multiply-adds, the
# corners' contributions summed in the order tnw, tne, tsw, tse, bnw, bne, bsw, bse.

def _source_index_3d(coord, size, padding, align_corners):
    """``grid_sampler_compute_source_index_set_grad`` (the scalar one): the coordinate in
    voxels, padded, and the factor of its gradient."""
    t = coord.dtype.type
    if align_corners:
        x, g = (coord + t(1)) / t(2) * t(size - 1), t(size - 1) / t(2)
    else:
        x, g = ((coord + t(1)) * t(size) - t(1)) / t(2), t(size) / t(2)
    g = np.full_like(x, g)
    if padding == 2:                    # reflect_coordinates_set_grad, then clip
        low, span = (t(0), t(size - 1)) if align_corners else (t(-0.5), t(size))
        if span == 0:
            x, g = np.zeros_like(x), np.zeros_like(x)
        else:
            x = x - low
            sign = np.where(x < 0, t(-1), t(1))
            x = np.abs(x)
            extra = np.fmod(x, span)
            even = np.floor(x / span) % 2 == 0
            x = np.where(even, extra + low, span - extra + low)
            g = g * np.where(even, sign, -sign)
    if padding:
        x, inside = _clip(x, size)
        g = np.where(inside, g, t(0))
    return x, g


def _corners_3d(inp, grid, padding, align_corners):
    """The source coordinates (x, y, z), their gradient factors, and the eight corners as
    ``(z, y, x, weight, sign of d/dx, d/dy, d/dz, (the other two factors of each))``."""
    d, h, w = inp.shape[2:]
    ix, gx = _source_index_3d(grid[..., 0], w, padding, align_corners)
    iy, gy = _source_index_3d(grid[..., 1], h, padding, align_corners)
    iz, gz = _source_index_3d(grid[..., 2], d, padding, align_corners)
    x0, y0, z0 = np.floor(ix), np.floor(iy), np.floor(iz)
    dx = (x0 + 1 - ix, ix - x0)         # distances to the far and near faces, per side
    dy = (y0 + 1 - iy, iy - y0)
    dz = (z0 + 1 - iz, iz - z0)
    corners = []
    for cz in (0, 1):
        for cy in (0, 1):
            for cx in (0, 1):
                corners.append((z0.astype(np.int64) + cz, y0.astype(np.int64) + cy,
                                x0.astype(np.int64) + cx, dx[cx], dy[cy], dz[cz],
                                cx * 2 - 1, cy * 2 - 1, cz * 2 - 1))
    return (ix, iy, iz), (gx, gy, gz), corners


def _in_bounds_3d(shape, z, y, x):
    d, h, w = shape[2:]
    return (x >= 0) & (x < w) & (y >= 0) & (y < h) & (z >= 0) & (z < d)


def _gather_3d(inp, z, y, x):
    """``inp[n, :, z, y, x]`` as ``(N, C, Do, Ho, Wo)``, 0 where out of bounds."""
    n, _, d, h, w = inp.shape
    ok = _in_bounds_3d(inp.shape, z, y, x)
    vals = inp[np.arange(n)[:, None, None, None], :, np.clip(z, 0, d - 1),
               np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
    return np.moveaxis(np.where(ok[..., None], vals, vals.dtype.type(0)), -1, 1), ok


def _grid_sample_3d_np(inp, grid, mode, padding, align_corners):
    if mode == 1:
        (ix, iy, iz), _, _ = _corners_3d(inp, grid, padding, align_corners)
        r = [np.rint(v).astype(np.int64) for v in (iz, iy, ix)]
        return _gather_3d(inp, *r)[0]
    _, _, corners = _corners_3d(inp, grid, padding, align_corners)
    out = np.zeros(inp.shape[:2] + grid.shape[1:4], inp.dtype)
    for z, y, x, wx, wy, wz, *_ in corners:
        out = out + _gather_3d(inp, z, y, x)[0] * (wx * wy * wz)[:, None]
    return out


def _grid_sample_3d_backward_np(grad, inp, grid, mode, padding, align_corners, output_mask):
    """The gradients of the input and the grid (those ``output_mask`` asks for; zeros for
    the other), as ``grid_sampler_3d_backward_cpu_impl`` computes them."""
    n, c = inp.shape[:2]
    grad_in = np.zeros_like(inp)
    (ix, iy, iz), (gx, gy, gz), corners = _corners_3d(inp, grid, padding, align_corners)
    batch = np.broadcast_to(np.arange(n)[:, None, None, None], ix.shape)
    if mode == 1:
        corners = [(np.rint(iz).astype(np.int64), np.rint(iy).astype(np.int64),
                    np.rint(ix).astype(np.int64), 1, 1, 1)]
    # each output point's corners in turn, in the kernel's order (a voxel's sum is ordered)
    zs, ys, xs = (np.stack([k[i] for k in corners], -1) for i in range(3))
    wts = np.stack([np.broadcast_to(np.asarray(k[3] * k[4] * k[5], inp.dtype), ix.shape)
                    for k in corners], -1)
    ok = _in_bounds_3d(inp.shape, zs, ys, xs)
    if output_mask[0]:
        nb = np.broadcast_to(batch[..., None], ok.shape)[ok]
        g = np.moveaxis(grad, 1, -1)[..., None, :]                   # (N, Do, Ho, Wo, 1, C)
        vals = (wts[..., None] * g)[ok]
        np.add.at(grad_in, (nb[:, None], np.arange(c)[None], zs[ok][:, None],
                            ys[ok][:, None], xs[ok][:, None]), vals)
    if mode == 1 or not output_mask[1]:
        return grad_in, np.zeros_like(grid)
    gix, giy, giz = (np.zeros_like(ix) for _ in range(3))
    gathered = [_gather_3d(inp, z, y, x)[0] for z, y, x, *_ in corners]
    for ch in range(c):                                  # the kernel's loop over channels
        go = grad[:, ch]
        for v, (_, _, _, wx, wy, wz, sx, sy, sz) in zip(gathered, corners):
            val = v[:, ch]
            gix = gix + sx * (val * wy * wz * go)
            giy = giy + sy * (val * wx * wz * go)
            giz = giz + sz * (val * wx * wy * go)
    return grad_in, np.stack([gx * gix, gy * giy, gz * giz], -1).astype(grid.dtype)


@op("GridSampler3DBackward0", name="_grid_sampler_3d", method=False, function=False,
    promote=NONE, **joint(
        lambda grad, input, grid, mode, padding_mode, align_corners, output_mask:
        _grid_sampler_3d_backward(grad, input, grid, mode, padding_mode, align_corners,
                                  output_mask), "input", "grid"))
def _grid_sampler_3d(input, grid, mode, padding_mode, align_corners):
    return np.ascontiguousarray(_grid_sample_3d_np(input, grid, mode, padding_mode,
                                                   align_corners))


@op("GridSampler3DBackwardBackward0", name="_grid_sampler_3d_backward", method=False,
    function=False, promote=NONE, outputs=2, tensors=("grad_output", "input", "grid"))
def _grid_sampler_3d_backward(grad_output, input, grid, mode, padding_mode, align_corners,
                              output_mask):
    return _grid_sample_3d_backward_np(grad_output, input, grid, mode, padding_mode,
                                       align_corners, output_mask)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` ``(N, C, H, W)`` at the normalised locations ``grid``
    ``(N, Ho, Wo, 2)`` (x then y, in [-1, 1]); bilinear, nearest or bicubic, padded with
    zeros, the border or reflections."""
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
    k = 4 if input.dim() == 4 else 5          # ATen: grid_sampler_2d for 4-D inputs, else 3d
    if input.dim() != k or grid.dim() != k:
        raise RuntimeError(f"grid_sampler(): expected {k}D input and grid with same number of "
                           f"dimensions, but got input with sizes {list(input.shape)} and grid "
                           f"with sizes {list(grid.shape)}")
    if k == 5:
        if interpolation_mode == 2:
            raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
        return grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)
    return grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)


def _check_sampler_inputs(input: Tensor, grid: Tensor) -> None:
    """The checks ``grid_sampler_2d``/``_3d`` make first: non-empty spatial dims, one dtype."""
    for i in range(2, input.ndim):
        if input.size(i) <= 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {i} being empty")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{grid.dtype.scalar_name}")


def grid_sampler_3d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """ATen's ``grid_sampler_3d`` (node ``GridSampler3DBackward0``): trilinear or nearest."""
    _check_sampler_inputs(input, grid)
    return _grid_sampler_3d(input, grid, int(interpolation_mode), int(padding_mode),
                            bool(align_corners))


def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """ATen's ``grid_sampler_2d`` (node ``GridSampler2DBackward0``)."""
    _check_sampler_inputs(input, grid)
    return _grid_sampler_2d(input, grid, int(interpolation_mode), int(padding_mode),
                            bool(align_corners))
