"""``ember.quasirandom``: Sobol low-discrepancy sequences (``torch.quasirandom``).

The direction numbers are Joe and Kuo's (``new-joe-kuo-6.21201``, search criterion D(6), up to
dimension 21201), the table torch compiles in (``SobolEngineOpsUtils.h``); ``_sobol_directions
.npz`` stores each dimension's primitive polynomial and its initial direction numbers. The
state, the Gray-code draws and Owen's scrambling follow ATen's ``SobolEngineOps.cpp``, and the
scrambling draws its random bits with ``randint`` from the same generator torch uses, so a
seeded engine gives torch's points bit for bit.
"""

from __future__ import annotations

import os as _os

import numpy as _np

from . import _dtype as _D
from . import _factories as _F
from ._ops.shape import cat as _cat
from ._tensor import Tensor as _Tensor
from .random import Generator as _Generator

__all__ = ["SobolEngine"]

_MAXBIT = 30
_TABLE = _os.path.join(_os.path.dirname(__file__), "_sobol_directions.npz")


def _directions(dimension: int) -> _np.ndarray:
    """ATen's ``_sobol_engine_initialize_state_``: the ``(dimension, MAXBIT)`` direction
    numbers, each scaled to ``MAXBIT`` bits."""
    with _np.load(_TABLE) as table:
        poly = table["poly"][:dimension].astype(_np.int64)
        planes = table["vinit"].astype(_np.int64)
    init = planes[0] | planes[1] << 8 | planes[2] << 16       # the first m of each row
    degree = _np.array([int(p).bit_length() - 1 for p in poly], dtype=_np.int64)
    v = _np.zeros((dimension, _MAXBIT), _np.int64)
    starts = _np.concatenate(([0], _np.cumsum(degree)))
    for i in range(int(degree.max(initial=0))):
        rows = _np.nonzero(degree > i)[0]
        v[rows, i] = init[starts[rows] + i]
    for j in range(1, _MAXBIT):
        # Bratley and Fox's recurrence (Algorithm 659), for the rows whose degree is <= j
        rows = _np.nonzero((degree <= j) & (degree > 0))[0]
        m, p = degree[rows], poly[rows]
        newv = v[rows, j - m]
        for k in range(int(m.max(initial=0))):
            use = (k < m) & ((p >> _np.maximum(m - 1 - k, 0)) & 1).astype(bool)
            newv = _np.where(use, newv ^ (v[rows, _np.maximum(j - k - 1, 0)] << (k + 1)), newv)
        v[rows, j] = newv
    v[0] = 1
    return v << _np.arange(_MAXBIT - 1, -1, -1)


def _scramble(state: _np.ndarray, ltm: _np.ndarray) -> _np.ndarray:
    """ATen's ``_sobol_engine_scramble_``: each direction number multiplied (over GF(2)) by
    the lower-triangular matrix of its dimension, whose diagonal is made 1."""
    ltm = ltm.copy()
    idx = _np.arange(_MAXBIT)
    ltm[:, idx, idx] = 1
    rows = (ltm << _np.arange(_MAXBIT - 1, -1, -1)).sum(-1)          # (dim, p)
    weight = _np.int64(1) << _np.arange(_MAXBIT - 1, -1, -1)          # bit p lands at 29 - p
    out = _np.empty_like(state)
    for lo in range(0, state.shape[0], 512):
        parity = _np.bitwise_count(rows[lo:lo + 512, None, :] & state[lo:lo + 512, :, None]) & 1
        out[lo:lo + 512] = (parity.astype(_np.int64) * weight).sum(-1)
    return out


def _draw(quasi: _np.ndarray, n: int, state: _np.ndarray, num_generated: int):
    """The next ``n`` Gray-code points after ``quasi`` (``_sobol_engine_draw`` and ``_ff_``):
    each flips the direction number at the lowest zero bit of its index."""
    k = _np.arange(num_generated, num_generated + n, dtype=_np.int64)
    low = _np.log2((k + 1) & ~k).astype(_np.int64)
    steps = state[:, low].T.copy()
    if n:
        steps[0] ^= quasi
    points = _np.bitwise_xor.accumulate(steps, axis=0)
    return points, (points[-1].copy() if n else quasi.copy())


class SobolEngine:
    r"""An engine for (scrambled) Sobol sequences, low-discrepancy quasi-random points in
    the unit cube of up to 21201 dimensions.

    Args:
        dimension (int): the dimensionality of the points.
        scramble (bool): scramble the sequence (Owen's linear scrambling and a random
            digital shift). Default: ``False``.
        seed (int, optional): the seed of the scrambling's generator; without it, the
            global generator draws the scrambling.

    >>> ember.quasirandom.SobolEngine(dimension=3).draw(3)
    tensor([[0.0000, 0.0000, 0.0000],
            [0.5000, 0.5000, 0.5000],
            [0.7500, 0.2500, 0.2500]])
    """

    MAXBIT = _MAXBIT
    MAXDIM = 21201

    def __init__(self, dimension: int, scramble: bool = False, seed: int | None = None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality "
                             f"for SobolEngine is [1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.sobolstate = _Tensor._wrap(_directions(dimension))
        if not self.scramble:
            self.shift = _F.zeros(self.dimension, dtype=_D.int64)
        else:
            self._scramble()
        self.quasi = self.shift.clone()
        self._first_point = (self.quasi / 2 ** self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _advance(self, n: int, offset: int):
        points, quasi = _draw(self.quasi._data, n, self.sobolstate._data, offset)
        self.quasi = _Tensor._wrap(quasi)
        return points

    def _points(self, n: int, offset: int, dtype) -> _Tensor:
        if dtype not in (_D.float32, _D.float64):
            raise NotImplementedError(f'"_sobol_engine_draw" not implemented for '
                                      f"'{dtype.scalar_name}'")
        points = self._advance(n, offset).astype(dtype.np)
        return _Tensor._wrap(points * dtype.np.type(1.0 / (1 << self.MAXBIT)))

    def draw(self, n: int = 1, out: _Tensor | None = None, dtype=None) -> _Tensor:
        """The next ``n`` points, an ``(n, dimension)`` tensor (each draw continues the
        sequence)."""
        if dtype is None:
            dtype = _D.get_default_dtype()
        if self.num_generated == 0:
            if n == 1:
                result = self._first_point.to(dtype)
            else:
                result = self._points(n - 1, self.num_generated, dtype)
                result = _cat((self._first_point.to(dtype), result), -2)
        else:
            result = self._points(n, self.num_generated - 1, dtype)
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m: int, out: _Tensor | None = None, dtype=None) -> _Tensor:
        """The next ``2 ** m`` points (the total drawn must stay a power of 2, which keeps the
        sequence's balance)."""
        n = 2 ** m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError("The balance properties of Sobol' points require "
                             f"n to be a power of 2. {self.num_generated} points have been "
                             f"previously generated, then: n={self.num_generated}+2**{m}="
                             f"{total_n}. If you still want to do this, please use "
                             "'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self) -> SobolEngine:
        """Back to the first point."""
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n: int) -> SobolEngine:
        """Skip ``n`` points, as drawing them would."""
        if self.num_generated == 0:
            self._advance(n - 1, self.num_generated)
        else:
            self._advance(n, self.num_generated - 1)
        self.num_generated += n
        return self

    def _scramble(self) -> None:
        g = None
        if self.seed is not None:
            g = _Generator()
            g.manual_seed(self.seed)
        shift_ints = _F.randint(2, (self.dimension, self.MAXBIT), generator=g)
        self.shift = _Tensor._wrap((shift_ints._data << _np.arange(self.MAXBIT)).sum(-1))
        ltm = _F.randint(2, (self.dimension, self.MAXBIT, self.MAXBIT), generator=g).tril()
        self.sobolstate = _Tensor._wrap(_scramble(self.sobolstate._data, ltm._data))

    def __repr__(self) -> str:
        fmt_string = [f"dimension={self.dimension}"]
        if self.scramble:
            fmt_string += ["scramble=True"]
        if self.seed is not None:
            fmt_string += [f"seed={self.seed}"]
        return self.__class__.__name__ + "(" + ", ".join(fmt_string) + ")"


del annotations
