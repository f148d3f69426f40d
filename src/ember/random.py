"""PyTorch's CPU random number generator, reproduced bit for bit on NumPy.

This module owns every random draw in ember. A :class:`Generator` is torch's ``mt19937``
CPU generator: the same 32-bit Mersenne Twister stream, the same 64-bit seeds (only the low
32 bits reach the engine), the same 5056-byte state layout for ``get_state``/``set_state``
and the same per-generator cache of the second Box-Muller value. The fill kernels
(``Generator._uniform_``, ``_normal_``, ``_random_`` ...) work in place on NumPy arrays and
reproduce torch 2.13's CPU kernels exactly (the AVX2 builds that torch runs on x86-64):
same number of draws, same element order, same floating-point operations. The tensor layer
wraps them; nothing here imports torch.

Invariants kept by every kernel:

* **Draw order.** Serial kernels fill elements in *memory order* (dimensions sorted by
  stride, largest outermost), each element taking its draws in turn; the vector kernels of
  ``normal_`` (float32/float64, at least 16 elements, contiguous) draw all uniforms first.
  Ember's fast paths (these vector kernels, float32 ``uniform_``) draw and transform chunk
  by chunk instead, which consumes the same stream in the same order, and write straight
  into the tensor; the reference formulations stay here and the tests hold the two equal.
* **Engine.** The 624 state words live in a ``numpy.random.MT19937`` bit generator, whose
  ``random_raw`` yields exactly the tempered 32-bit outputs of ``std::mt19937``; its ``pos``
  follows the same convention (624 = twist before the next draw). A 64-bit draw is two
  32-bit draws, the first being the high word.
* **Rounding.** Fused multiply-adds of torch's kernels are emulated with a single rounding
  (float32: exact float64 product and sum with a midpoint fix-up; float64: exact product by
  Veltkamp splitting and a round-to-odd sum). Double-precision ``log``/``log1p``/``exp``/
  ``tan``/``sin``/``cos`` are the C library's (through :mod:`math` whenever NumPy's own SIMD
  versions would differ), and float32 ``log``/``sincos`` are torch's AVX2 polynomials.
* **Caches.** ``manual_seed``, a new generator and ``set_state`` (from its flag) reset the
  double normal cache; the float cache is never filled by a CPU kernel and only travels with
  the state bytes.

Specification: ``shared/spec/rng.md`` (torch 2.13, CPU).
"""

from __future__ import annotations

import contextlib as _contextlib
import math as _math
import os as _os
import struct as _struct
import warnings

import numpy as _np

from . import _dtype as _D
from . import _stl

__all__ = [
    "Generator", "default_generator", "manual_seed", "seed", "initial_seed",
    "get_rng_state", "set_rng_state", "fork_rng",
]

_f16, _f32, _f64 = _np.dtype(_np.float16), _np.dtype(_np.float32), _np.dtype(_np.float64)
_FLOATS = (_f16, _f32, _f64)
_U64 = _np.uint64

_DEFAULT_SEED = 67280421310721
_UNSET = object()
_STATE_SIZE = 5056
_N = 624
_TWO_PI = 6.283185307179586
_TWO_M53 = 2.0 ** -53
_MASK53 = _U64((1 << 53) - 1)
_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1

def _sname(dt: _np.dtype) -> str:
    """torch's ScalarType name of a NumPy dtype, for messages ("Float")."""
    return _D.from_numpy_dtype(dt).scalar_name


def _cpp_name(dt: _np.dtype) -> str:
    """The C++ type torch's messages name for a NumPy dtype ("float")."""
    return _D.from_numpy_dtype(dt).cpp_name


def _fmt(x) -> str:
    """A number as C++ ``ostream <<`` prints it (6 significant digits for doubles)."""
    if isinstance(x, (int, _np.integer)) and not isinstance(x, bool):
        return str(int(x))
    return f"{float(x):g}"


def _as_real(arr: _np.ndarray) -> _np.ndarray:
    """A complex array's ``view_as_real``: its real and imaginary parts as a trailing
    dimension of 2, writable, sharing memory."""
    part = arr.real
    return _np.lib.stride_tricks.as_strided(part, arr.shape + (2,),
                                            arr.strides + (part.itemsize,), writeable=True)


def _not_implemented(kernel: str, dt: _np.dtype) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{_sname(dt)}\'')


# ---------------------------------------------------------------------------------------
# Double-precision libm: NumPy's float64 ufuncs where they equal the C library, else math.
# ---------------------------------------------------------------------------------------

def _safe(fn):
    def f(v):
        try:
            return fn(v)
        except OverflowError:
            return _math.inf
        except ValueError:
            if fn is _math.log or fn is _math.log1p:
                if v == 0 or (fn is _math.log1p and v == -1):
                    return -_math.inf
            return _math.nan
    return f


def _mapped(fn):
    safe = _safe(fn)

    def f(x: _np.ndarray) -> _np.ndarray:
        flat = x.ravel().tolist()
        try:
            out = _np.fromiter(map(fn, flat), _np.float64, count=len(flat))
        except (ValueError, OverflowError):
            out = _np.fromiter(map(safe, flat), _np.float64, count=len(flat))
        return out.reshape(x.shape)
    return f


def _select_libm(name: str):
    """NumPy's ``name`` ufunc where it agrees with the C library's on a probe of 4096
    arguments, else the C library's function mapped over the elements."""
    probe = _np.random.default_rng(20240229)
    u = probe.random(4096)
    x = {
        "log": u + 2.0 ** -53, "log1p": -u, "sin": u * _TWO_PI, "cos": u * _TWO_PI,
        "tan": _math.pi * (u - 0.5), "exp": (u - 0.5) * 40.0,
    }[name]
    ufunc, fn = getattr(_np, name), getattr(_math, name)
    with _np.errstate(all="ignore"):
        same = _np.array_equal(ufunc(x), _np.array([fn(v) for v in x.tolist()]))
    return ufunc if same else _mapped(fn)


class _Libm:
    """A double-precision libm function, chosen by :func:`_select_libm` on its first call
    (the probe costs an import-time delay otherwise)."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str) -> None:
        self.name = name
        self.fn = None

    def __call__(self, x):
        fn = self.fn
        if fn is None:
            fn = self.fn = _select_libm(self.name)
        return fn(x)


_log, _log1p = _Libm("log"), _Libm("log1p")
_sin, _cos, _tan, _exp = _Libm("sin"), _Libm("cos"), _Libm("tan"), _Libm("exp")


# ---------------------------------------------------------------------------------------
# Single-rounding fused multiply-add emulation.
# ---------------------------------------------------------------------------------------

def _round_to_odd_add(x: _np.ndarray, y: _np.ndarray) -> _np.ndarray:
    """``x + y`` rounded to odd (truncate, then force the last bit to 1 when inexact)."""
    s = x + y
    if _np.ndim(s) == 0:
        s = _np.array(s, dtype=_np.float64)
    bb = s - x
    e = (x - (s - bb)) + (y - bb)
    bits = s.view(_np.int64)
    fix = (e != 0) & ((bits & 1) == 0)
    if fix.any():
        up = (e > 0) == (s > 0)
        bits[fix] += _np.where(up[fix], 1, -1)
    return s


def _fma64(a, b, c) -> _np.ndarray:
    """float64 ``fma(a, b, c)`` element-wise with a single rounding (arrays or scalars)."""
    from ._ops import _exact
    return _exact.fma(*(_np.asarray(v, _np.float64) for v in (a, b, c)))


_M29 = _U64(0x1FFFFFFF)
_MID29 = _U64(0x10000000)
_M24 = _U64(0xFFFFFF)


def _fma32(a, b, c, check_subnormal: bool = False) -> _np.ndarray:
    """float32 ``fma(a, b, c)``: exact float64 product and sum, then one fix-up pass for the
    few sums that landed on a float32 rounding midpoint (or in the subnormal range)."""
    s = _np.multiply(a, b, dtype=_np.float64)
    s += c
    r = s.astype(_np.float32)
    hit = (s.view(_np.uint64) & _M29) == _MID29
    if check_subnormal:
        hit |= _np.abs(s) < 2.0 ** -126
    if hit.any():
        idx = _np.flatnonzero(hit)
        aa = _np.broadcast_to(_np.asarray(a, _np.float64), s.shape).ravel()[idx]
        bv = _np.broadcast_to(_np.asarray(b, _np.float64), s.shape).ravel()[idx]
        cv = _np.broadcast_to(_np.asarray(c, _np.float64), s.shape).ravel()[idx]
        r.ravel()[idx] = _round_to_odd_add(aa * bv, cv).astype(_np.float32)
    return r


# ---------------------------------------------------------------------------------------
# Element order and dtype conversion.
# ---------------------------------------------------------------------------------------

def _empty_like(arr: _np.ndarray) -> _np.ndarray:
    """torch's ``empty_like``: the layout of a dense (possibly permuted) array, row-major for
    any other (an expanded one), so that a fill in memory order draws as torch's does."""
    dims = sorted((i for i in range(arr.ndim) if arr.shape[i] != 1),
                  key=lambda i: -arr.strides[i])
    step = arr.itemsize
    for i in reversed(dims):
        if arr.strides[i] != step:
            return _np.empty(arr.shape, arr.dtype)
        step *= arr.shape[i]
    return _np.empty_like(arr)


def _memory_order(arr: _np.ndarray) -> _np.ndarray:
    """A view of ``arr`` whose row-major order is the order of its elements in memory."""
    if arr.flags.c_contiguous:
        return arr
    view = arr
    strides = view.strides
    if any(s < 0 for s in strides):
        view = view[tuple(slice(None, None, -1) if s < 0 else slice(None) for s in strides)]
        strides = view.strides
    order = sorted(range(view.ndim), key=lambda i: -strides[i])
    return view.transpose(order)


def _cast(vals: _np.ndarray, dt: _np.dtype) -> _np.ndarray:
    """Round double (or float) results to ``dt`` as C++ ``static_cast`` does (half via float)."""
    if dt == _f16 and vals.dtype == _f64:
        return vals.astype(_np.float32).astype(_np.float16)
    return vals.astype(dt, copy=False)


def _store(arr: _np.ndarray, vals: _np.ndarray) -> None:
    """Write the flat ``vals`` into ``arr`` in memory order."""
    view = _memory_order(arr)
    view[...] = _cast(vals, arr.dtype).reshape(view.shape)


def _check_seed_range(seed: int) -> int:
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return seed & _MASK64


def _as_int64(v) -> int:
    v = int(v)
    if not -(1 << 63) <= v < (1 << 63):
        raise ValueError("Overflow when unpacking long long")
    return v


def _cpu_device(device):
    try:
        from ._device import check
    except ImportError:  # pragma: no cover - the device module is part of the package
        if str(device) != "cpu":
            raise RuntimeError(f"Device type {device} is not supported") from None
        return "cpu"
    return check(device)


# ---------------------------------------------------------------------------------------
# The generator.
# ---------------------------------------------------------------------------------------

class Generator:
    """torch's CPU generator (``mt19937``): ``Generator(device='cpu')``.

    A new generator is seeded with 67280421310721. It owns its engine and its own cache of
    the second Box-Muller value, so drawing from it never touches ``default_generator``.
    """

    def __init__(self, device="cpu") -> None:
        self.device = _cpu_device(device)
        self._seed = 0
        self._normal: float | None = None        # cached double normal (path A)
        self._float_normal: float | None = None  # float cache; only carried by the state
        self._fresh_next: int | None = 0          # `next` to report while untouched at pos 624
        self.manual_seed(_DEFAULT_SEED)

    def __getattr__(self, name: str):
        # the engine is made on its first use, seeded as the generator is: numpy.random
        # would otherwise be a large share of `import ember`
        if name in ("_bg", "_raw", "_ints"):
            bg = _np.random.MT19937(0)
            bg._legacy_seeding(self._seed & _MASK32)
            # integers(0, 2**32, dtype=uint32) returns the raw 32-bit draws, as random_raw
            # does, without widening them to uint64
            self._bg, self._raw = bg, bg.random_raw
            self._ints = _np.random.Generator(bg).integers
            return getattr(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    # -- seeding ------------------------------------------------------------------------
    def manual_seed(self, seed: int) -> Generator:
        """Seed the engine with ``seed`` (an int; negative values wrap mod 2**64)."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            if isinstance(seed, _np.integer):
                raise TypeError("an integer is required")
            raise RuntimeError(
                f"manual_seed expected a long, but got {type(seed).__name__}")
        self._set_seed(_check_seed_range(seed))
        return self

    def _set_seed(self, s: int) -> None:
        self._seed = s
        if "_bg" in self.__dict__:       # else the engine is seeded from _seed when made
            self._bg._legacy_seeding(s & _MASK32)
        self._normal = None
        self._float_normal = None
        self._fresh_next = 0

    def seed(self) -> int:
        """Seed with a non-deterministic 64-bit value and return it."""
        s = int.from_bytes(_os.urandom(8), "little")
        self._set_seed(s)
        return s

    def initial_seed(self) -> int:
        """The 64-bit seed last given to this generator."""
        return self._seed

    # -- state --------------------------------------------------------------------------
    def _get_state_bytes(self) -> _np.ndarray:
        """The 5056-byte state (torch's ``CPUGeneratorImplState`` layout) as uint8."""
        st = self._bg.state["state"]
        pos = int(st["pos"])
        if pos == _N and self._fresh_next is not None:
            left, nxt = 1, self._fresh_next
        else:
            left, nxt = _N + 1 - pos, pos
        head = _struct.pack("<QiiQ", self._seed, left, 1, nxt)
        words = _np.asarray(st["key"], dtype="<u8").tobytes()
        dvalid = self._normal is not None
        fvalid = self._float_normal is not None
        tail = _struct.pack("<dddi4xfB3x", 0.0, self._normal if dvalid else 0.0, 0.0,
                           int(dvalid), self._float_normal if fvalid else 0.0, int(fvalid))
        return _np.frombuffer(head + words + tail, dtype=_np.uint8).copy()

    def _set_state_bytes(self, arr: _np.ndarray) -> None:
        """Restore a state produced by :meth:`_get_state_bytes` (or by torch)."""
        arr = _np.asarray(arr)
        if arr.dtype != _np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if arr.size != _STATE_SIZE:
            raise RuntimeError(
                "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state "
                f"size to be {arr.size}")
        buf = _np.ascontiguousarray(arr).reshape(-1).tobytes()
        seed, left, seeded, nxt = _struct.unpack_from("<QiiQ", buf, 0)
        if seeded == 0 or left < 1 or left > _N or nxt > _N:
            raise RuntimeError("Invalid mt19937 state")
        key = (_np.frombuffer(buf, dtype="<u8", count=_N, offset=24) & _MASK32).astype(_np.uint32)
        _, normal_y, _, dvalid, fnormal, fvalid = _struct.unpack_from("<dddi4xfB3x", buf, 5016)
        pos = _N if left == 1 else nxt
        self._bg.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._seed = seed
        self._fresh_next = nxt if left == 1 else None
        self._normal = normal_y if dvalid else None
        self._float_normal = fnormal if fvalid else None

    def get_state(self):
        """The generator state as a uint8 tensor of 5056 bytes."""
        from ._tensor import Tensor
        return Tensor._wrap(self._get_state_bytes())

    def set_state(self, new_state) -> Generator:
        """Restore a state from :meth:`get_state` (a uint8 tensor or NumPy array)."""
        data = getattr(new_state, "_data", None)
        if data is None:
            if not isinstance(new_state, _np.ndarray):
                raise TypeError(
                    f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
            data = new_state
        self._set_state_bytes(data)
        return self

    def clone_state(self) -> Generator:
        """A new generator holding a copy of this one's state (seed, engine and cached
        normal), drawing the same numbers from here on without sharing the engine."""
        g = Generator(self.device)
        g._set_state_bytes(self._get_state_bytes())
        return g

    def get_offset(self) -> int:
        """Philox generators' offset: the CPU generator (mt19937) has none, as in torch."""
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset: int) -> Generator:
        """Philox generators' offset: the CPU generator (mt19937) has none, as in torch."""
        raise RuntimeError("CPU Generator does not use offset")

    def graphsafe_get_state(self) -> Generator:
        """CUDA-graph state capture, which the CPU generator does not support."""
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state) -> Generator:
        """CUDA-graph state capture, which the CPU generator does not support."""
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    # -- raw draws ----------------------------------------------------------------------
    def _u32(self, n: int) -> _np.ndarray:
        """``n`` 32-bit draws (as uint64 values below 2**32)."""
        if n:
            self._fresh_next = None
        return self._raw(n)

    def _u32_pairs(self, n: int) -> _np.ndarray:
        """``2 * n`` 32-bit draws as ``n`` uint64 words, two draws to a word (which half holds
        the first one: :func:`_pairs_high_first`); NumPy makes them quicker this way."""
        if n:
            self._fresh_next = None
        return self._ints(0, 1 << 64, n, dtype=_np.uint64)

    def _u64(self, n: int) -> _np.ndarray:
        """``n`` 64-bit draws: two 32-bit draws each, the first one high."""
        r = self._u32(2 * n)
        return (r[0::2] << _U64(32)) | r[1::2]

    def _u53(self, n: int) -> _np.ndarray:
        """``n`` doubles uniform in [0, 1): the low 53 bits of a 64-bit draw times 2**-53."""
        r = self._u32(2 * n)
        hi = (r[0::2] & _U64(0x1FFFFF)).astype(_np.float64)
        hi *= 2.0 ** -21
        lo = r[1::2].astype(_np.float64)
        lo *= _TWO_M53
        hi += lo
        return hi

    def _u24(self, n: int) -> _np.ndarray:
        """``n`` float32 uniforms in [0, 1): the low 24 bits of a 32-bit draw times 2**-24."""
        r = self._u32(n).astype(_np.int32)      # the low 32 bits (a quicker float conversion)
        r &= 0xFFFFFF
        u = r.astype(_np.float32)
        u *= _np.float32(2.0 ** -24)
        return u

    def _standard_normals(self, n: int) -> _np.ndarray:
        """``n`` standard normals of the serial Box-Muller kernel (uses/fills the cache)."""
        out = _np.empty(n)
        i = 0
        if n and self._normal is not None:
            out[0] = self._normal
            self._normal = None
            i = 1
        m = n - i
        if m > 0:
            pairs = (m + 1) >> 1
            u = self._u53(2 * pairs)
            u1, u2 = u[0::2], u[1::2]
            r = _log1p(-u2)
            r *= -2.0
            _np.sqrt(r, out=r)
            theta = u1 * _TWO_PI
            z = _np.empty(2 * pairs)
            z[0::2] = r * _cos(theta)
            z[1::2] = r * _sin(theta)
            out[i:] = z[:m]
            if m & 1:
                self._normal = float(z[-1])
        return out

    # -- continuous distributions -------------------------------------------------------
    def _uniform_(self, arr: _np.ndarray, low: float = 0.0, high: float = 1.0) -> _np.ndarray:
        """``arr.uniform_(low, high)`` in place: ``fma(u, high - low, low)`` per element."""
        dt = arr.dtype
        if dt.kind == "c":              # torch draws the real and imaginary parts in turn
            self._uniform_(_as_real(arr), low, high)
            return arr
        if dt in _D.REDUCED:
            return self._reduced(arr, self._uniform_, "check_uniform_bounds", low, high,
                                 high=high, low=low)
        if dt not in _FLOATS:
            raise _not_implemented("check_uniform_bounds", dt)
        low, high = float(low), float(high)
        fi = _np.finfo(dt)
        lo_lim, hi_lim = float(fi.min), float(fi.max)
        if not lo_lim <= low <= hi_lim:
            raise RuntimeError(f"from is out of bounds for {_cpp_name(dt)}")
        if not lo_lim <= high <= hi_lim:
            raise RuntimeError(f"to is out of bounds for {_cpp_name(dt)}")
        if low > high:
            raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                               f"from={_fmt(low)} > to={_fmt(high)}")
        if high - low > hi_lim:
            raise RuntimeError(
                f"uniform_ expects to-from <= std::numeric_limits<{_sname(dt)}>::max(), but "
                f"found to={_fmt(high)} and from={_fmt(low)} which result in to-from to "
                "exceed the limit")
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            if dt == _f64:
                w = high - low
                if w == 1.0 and low == 0.0 and arr.flags.c_contiguous:
                    flat = arr.reshape(-1)
                    for start in range(0, n, _UCHUNK):   # rand: the uniforms themselves
                        flat[start:start + _UCHUNK] = self._u53(min(_UCHUNK, n - start))
                    return arr
                u = self._u53(n)
                vals = u if (w == 1.0 and low == 0.0) else _fma64(u, w, low)
                top, bottom = high, low
            else:
                # float32, and float16 through float32 arithmetic on float32 bounds
                a, b = _np.float32(low), _np.float32(high)
                w = b - a
                if dt == _f32 and arr.flags.c_contiguous and _uniform_exact_in_f64(a, w):
                    _uniform_fast_f32(self, arr.reshape(-1), a, w, b)
                    return arr
                u = self._u24(n)
                vals = u if (w == 1 and a == 0) else _fma32(u, w, a, check_subnormal=True)
                if dt == _f16:
                    vals = vals.astype(_np.float16)
                top, bottom = dt.type(high), dt.type(low)
            # a value rounded up to `to` is replaced by `from` (the range is [from, to));
            # plain draws in [0, 1) never reach 1
            if vals is not u:
                vals[vals == top] = bottom
            _store(arr, vals)
        return arr

    def _normal_(self, arr: _np.ndarray, mean: float = 0.0, std: float = 1.0) -> _np.ndarray:
        """``arr.normal_(mean, std)`` in place (serial path A, or vector paths B/C)."""
        mean, std = float(mean), float(std)
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")
        dt = arr.dtype
        if dt.kind == "c":
            # the real and imaginary parts in turn, each with half the variance
            self._normal_(_as_real(arr), mean, std / _math.sqrt(2))
            return arr
        if dt in _D.REDUCED:
            return self._reduced(arr, self._normal_, "normal_kernel_cpu", mean, std)
        if dt not in _FLOATS:
            raise _not_implemented("normal_kernel_cpu", dt)
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            if n >= 16 and arr.flags.c_contiguous:
                flat = arr.reshape(-1)
                if dt == _f32:
                    _normal_fast_f32(self, n, _np.float32(mean), _np.float32(std), flat)
                    return arr
                if dt == _f64:
                    _normal_fast_f64(self, n, mean, std, flat)
                    return arr
                flat[...] = _normal_fill_f16(self, n, mean, std)
                return arr
            z = self._standard_normals(n)
            vals = (z + mean) if std == 1.0 else _fma64(z, std, mean)
            _store(arr, vals)
        return arr

    def _reduced(self, arr, fill, kernel, *args, high=None, low=None):
        """A fill of a bfloat16 array: torch's float16 algorithm (float32 arithmetic on the
        same draws), rounded to bfloat16; float8 has no random kernels."""
        if arr.dtype != _D.bfloat16.np:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{_D.REDUCED[arr.dtype].scalar_name}'")
        if fill == self._normal_ and arr.size >= 16 and arr.flags.c_contiguous:
            vals = _normal_fill_f16(self, arr.size, *args, out_dtype=_np.float32)
        else:
            vals = _np.empty(arr.size, _np.float32)
            fill(vals, *args)
        vals = _D.cast(vals.reshape(arr.shape), _D.bfloat16)
        if high is not None:        # [from, to): a value rounded up to `to` becomes `from`
            vals[vals == _D.cast(_np.array(high, _np.float32), _D.bfloat16)] = \
                _D.cast(_np.array(low, _np.float32), _D.bfloat16)
        arr[...] = vals
        return arr

    def _normal_tensors(self, mean_arr: _np.ndarray, std_arr: _np.ndarray) -> _np.ndarray:
        """``torch.normal(mean_t, std_t)``: standard normals (shape of the broadcast, dtype of
        ``mean_t``) times ``std`` then plus ``mean``, each rounded to that dtype."""
        mean_arr, std_arr = _np.asarray(mean_arr), _np.asarray(std_arr)
        if std_arr.size and not std_arr.min() >= 0:
            raise RuntimeError("normal expects all elements of std >= 0.0")
        shape = _np.broadcast_shapes(mean_arr.shape, std_arr.shape)
        out = _np.empty(shape, dtype=mean_arr.dtype)
        self._normal_(out, 0.0, 1.0)
        with _np.errstate(all="ignore"):
            _np.multiply(out, std_arr, out=out, casting="unsafe")
            _np.add(out, mean_arr, out=out, casting="unsafe")
        return out

    def _exponential_(self, arr: _np.ndarray, lambd: float = 1.0) -> _np.ndarray:
        """``arr.exponential_(lambd)``: ``(-1/lambd) * log1p(-u53)`` per element."""
        lambd = float(lambd)
        if not lambd > 0.0:
            raise RuntimeError(
                f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
        dt = arr.dtype
        if dt not in _FLOATS:
            raise RuntimeError("Exponential distribution is a continuous probability "
                               f"distribution. dtype must be a floating point but you "
                               f"specified {_sname(dt)}")
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            vals = _log1p(-self._u53(n))
            vals *= -1.0 / lambd
            _store(arr, vals)
        return arr

    def _log_normal_(self, arr: _np.ndarray, mean: float = 1.0, std: float = 2.0) -> _np.ndarray:
        """``arr.log_normal_(mean, std)``: ``exp(fma(z, std, mean))`` with serial normals."""
        mean, std = float(mean), float(std)
        if not std > 0.0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
        dt = arr.dtype
        if dt not in _FLOATS:
            raise _not_implemented("log_normal_cpu", dt)
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            z = self._standard_normals(n)
            vals = (z + mean) if std == 1.0 else _fma64(z, std, mean)
            _store(arr, _exp(vals))
        return arr

    def _cauchy_(self, arr: _np.ndarray, median: float = 0.0, sigma: float = 1.0) -> _np.ndarray:
        """``arr.cauchy_(median, sigma)``: ``fma(sigma, tan(pi * (u53 - 0.5)), median)``."""
        median, sigma = float(median), float(sigma)
        if not sigma > 0.0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt(sigma)}")
        dt = arr.dtype
        if dt not in _FLOATS:
            raise RuntimeError("Cauchy distribution is a continuous probability distribution."
                               " dtype must be a floating point but you specified "
                               f"{_cpp_name(dt)}")
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            u = self._u53(n)
            u -= 0.5
            u *= _math.pi
            t = _tan(u)
            vals = (t + median) if sigma == 1.0 else _fma64(sigma, t, median)
            _store(arr, vals)
        return arr

    def _geometric_(self, arr: _np.ndarray, p: float) -> _np.ndarray:
        """``arr.geometric_(p)``: ``ceil(log(u53) / log1p(-p))`` per element."""
        p = float(p)
        if not 0.0 < p < 1.0:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
        n = arr.size
        if n == 0:
            return arr
        with _np.errstate(all="ignore"):
            vals = _np.ceil(_log(self._u53(n)) / _math.log1p(-p))
            _store(arr, vals)
        return arr

    # -- discrete distributions ---------------------------------------------------------
    def _bernoulli_scalar_(self, arr: _np.ndarray, p: float = 0.5) -> _np.ndarray:
        """``arr.bernoulli_(p)``: 1 where ``u53 < p`` (double comparison), else 0."""
        p = float(p)
        if not 0.0 <= p <= 1.0:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
        n = arr.size
        if n == 0:
            return arr
        view = _memory_order(arr)
        view[...] = (self._u53(n) < p).reshape(view.shape)
        return arr

    def _bernoulli_tensor(self, p_arr: _np.ndarray) -> _np.ndarray:
        """``torch.bernoulli(p)``: a new contiguous array like ``p`` (same dtype); float64
        ``p`` compares ``u53 < p``, other float dtypes ``u24 < p`` in float32."""
        p_arr = _np.asarray(p_arr)
        dt = p_arr.dtype
        if dt not in _FLOATS:
            raise _not_implemented("bernoulli_tensor_cpu_p_", dt)
        if p_arr.size and not ((p_arr >= 0) & (p_arr <= 1)).all():
            from . import _errors
            raise RuntimeError(_errors.check_failed("p_in >= 0 && p_in <= 1"))
        n = p_arr.size
        p = _np.ascontiguousarray(p_arr).reshape(-1)
        if dt == _f64:
            hit = self._u53(n) < p
        else:
            hit = self._u24(n) < p.astype(_np.float32)
        return hit.astype(dt).reshape(p_arr.shape)

    def _random_(self, arr: _np.ndarray, low: int | None = None, high=_UNSET,
                 **bounds) -> _np.ndarray:
        """``random_`` in place, with torch's overloads:

        * ``_random_(arr)``: ``random_()``, the dtype's own range;
        * ``_random_(arr, to)`` (or ``to=``, or ``low=None, high=to``): [0, to);
        * ``_random_(arr, low, high)`` (or ``from=``, ``to=``; also ``randint``): [low, high);
        * ``_random_(arr, low, None)`` (an explicit None): [low, max of the dtype]; from
          -2**63 it is the full 64-bit range.
        """
        if bounds:
            unknown = set(bounds) - {"from", "to"}
            if unknown:
                raise TypeError(f"random_() got an unexpected keyword argument "
                                f"'{unknown.pop()}'")
            if "from" in bounds:
                low = bounds["from"]
                high = bounds.get("to", _UNSET)
                if high is _UNSET:
                    raise TypeError("random_() missing required argument 'to'")
            elif "to" in bounds:
                low, high = (None, bounds["to"]) if low is None else (low, bounds["to"])
        if high is _UNSET:
            low, high = (None, None) if low is None else (0, low)
        dt = arr.dtype
        if low is None and high is None:
            return self._random_unbounded(arr)
        frm = 0 if low is None else _as_int64(low)
        is_float = dt in _FLOATS
        if high is not None:
            to = _as_int64(high)
            if not frm < to:
                raise RuntimeError("random_ expects 'from' to be less than 'to', but got "
                                   f"from={frm} >= to={to}")
            if is_float:
                frm = _update_from(frm, dt)
                to = _update_to(to, dt)
                if not frm < to:
                    raise RuntimeError(
                        "random_ expects 'from' casted to dtype to be less than 'to' casted to "
                        f"dtype, but got from={frm} >= to={to}")
            _check_from_to_in_range(frm, to - 1, dt)
            rng = (to - frm) & _MASK64
        elif frm != -(1 << 63):
            if is_float:
                to_inc = min(1 << _np.finfo(dt).nmant + 1, (1 << 63) - 1)
                frm = _update_from(frm, dt)
                if not frm < to_inc:
                    raise RuntimeError(
                        "random_ expects 'from' casted to dtype to be less than or equal to "
                        f"'to_inc' casted to dtype, but got from={frm} > to_inc={to_inc}")
            elif dt == _np.bool_:
                to_inc = 1
            else:
                to_inc = int(_np.iinfo(dt).max)
            _check_from_to_in_range(frm, to_inc, dt)
            rng = (to_inc - frm + 1) & _MASK64
        else:
            if dt in (_f16, _np.dtype(_np.bool_)):
                raise _not_implemented("random_full_64_bits_range_kernel_cpu", dt)
            if dt not in (_f32, _f64, _np.dtype(_np.int64)):
                raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                                   "double, float and bfloat16")
            n = arr.size
            if n == 0:
                return arr
            _store_int(arr, self._u64(n).view(_np.int64))
            return arr
        n = arr.size
        if n == 0:
            return arr
        if rng >= 1 << 28:
            vals = _umod(self._u64(n), rng)
            vals += _U64(frm & _MASK64)
            vals = vals.view(_np.int64)
        else:
            r = self._u32(n).astype(_np.uint32)
            vals = _np.add(_umod(r, rng), _np.int64(frm), dtype=_np.int64)
        _store_int(arr, vals)
        return arr

    def _random_unbounded(self, arr: _np.ndarray) -> _np.ndarray:
        dt = arr.dtype
        n = arr.size
        if dt.kind not in "biuf":
            raise _not_implemented("random_kernel_cpu", dt)
        if n == 0:
            return arr
        if dt == _np.int64:
            vals = (self._u64(n) & _U64((1 << 63) - 1)).view(_np.int64)
        elif dt == _f64:
            vals = _umod(self._u64(n), (1 << 53) + 1).astype(_np.float64)
        elif dt == _np.bool_:
            vals = (self._u32(n) & _U64(1)).astype(_np.bool_)
        elif dt in (_f32, _f16):
            mod = (1 << (24 if dt == _f32 else 11)) + 1
            vals = _umod(self._u32(n).astype(_np.uint32), mod).astype(_np.float32)
        else:
            vals = self._u32(n) & _U64(int(_np.iinfo(dt).max))
        view = _memory_order(arr)
        view[...] = vals.astype(dt).reshape(view.shape)
        return arr

    def _randperm(self, n: int, np_dtype=_np.int64) -> _np.ndarray:
        """``torch.randperm(n)``: swap shuffle (n < 214748364) or inside-out shuffle."""
        dt = _np.dtype(np_dtype)
        n = _as_int64(n)
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
        if dt == _np.bool_ or dt.kind not in "iuf":
            raise _not_implemented("randperm", dt)
        if dt.kind in "iu":
            top = n - 1 if n > 0 else n
            if top > _np.iinfo(dt).max:
                raise RuntimeError(
                    f"value cannot be converted to type {dt.name}_t without overflow")
        else:
            digits = _np.finfo(dt).nmant + 1
            if n > (1 << digits) + 1:
                what = "2049" if dt == _f16 else f"2^{digits}+1"
                raise RuntimeError(f"n cannot be greater than {what} for {_sname(dt)} type.")
        if n < 214748364:
            if n > 1:
                js = (self._u32(n - 1) % _np.arange(n, 1, -1, dtype=_np.uint64)).view(_np.int64)
                js += _np.arange(n - 1)
                out = _swap_shuffle(js, n)
            else:
                out = _np.arange(n, dtype=_np.int64)
        else:
            out = _np.empty(n, dtype=_np.int64)
            chunk = 1 << 20
            for start in range(0, n, chunk):
                stop = min(n, start + chunk)
                zs = (self._u64(stop - start)
                      % _np.arange(start + 1, stop + 1, dtype=_np.uint64)).tolist()
                for i, z in zip(range(start, stop), zs):
                    out[i] = out[z]
                    out[z] = i
        return _cast(out, dt) if dt != _np.int64 else out

    def _multinomial(self, probs_arr: _np.ndarray, num_samples: int,
                     replacement: bool = False) -> _np.ndarray:
        """``torch.multinomial(probs, num_samples, replacement)`` as an int64 array."""
        probs = _np.asarray(probs_arr)
        num_samples = _as_int64(num_samples)
        if not 1 <= probs.ndim <= 2:
            raise RuntimeError("prob_dist must be 1 or 2 dim")
        dt = probs.dtype
        if dt not in _FLOATS:
            raise RuntimeError("multinomial only supports floating-point dtypes for input, "
                               f"got: {_sname(dt)}")
        if num_samples <= 0:
            raise RuntimeError("cannot sample n_sample <= 0 samples")
        n_cat = probs.shape[-1]
        if not replacement and num_samples > n_cat:
            raise RuntimeError(
                "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        if n_cat > 1 << 24:
            raise RuntimeError("number of categories cannot exceed 2^24")
        out_shape = (num_samples,) if probs.ndim == 1 else (probs.shape[0], num_samples)
        if probs.size == 0:
            return _np.empty(out_shape, dtype=_np.int64)
        rows = probs.reshape(-1, n_cat)
        if not replacement or num_samples == 1:
            with _np.errstate(all="ignore"):
                if not (probs.max() < _np.inf and probs.min() >= 0):
                    raise RuntimeError(
                        "probability tensor contains either `inf`, `nan` or element < 0")
                if (rows.sum(axis=1, dtype=dt) == 0).any():
                    raise RuntimeError(
                        "invalid multinomial distribution (sum of probabilities <= 0)")
                q = _empty_like(probs)
                self._exponential_(q, 1.0)
                k = (probs / q).reshape(-1, n_cat)
            if num_samples == 1:
                idx = _np.argmax(k, axis=1)[:, None]
            else:
                idx = _np.stack([_topk_largest(row, num_samples) for row in k])
            return idx.astype(_np.int64).reshape(out_shape)
        acc = _np.float32 if dt == _f16 else dt.type
        out = _np.empty((rows.shape[0], num_samples), dtype=_np.int64)
        for r, row in enumerate(rows):
            vals = row.astype(acc)
            with _np.errstate(invalid="ignore"):
                negative = ~(vals >= 0)
            bad = negative | ~_np.isfinite(vals)
            if bad.any():
                if negative[_np.argmax(bad)]:
                    raise RuntimeError(
                        "invalid multinomial distribution (encountering probability entry < 0)")
                raise RuntimeError("invalid multinomial distribution (encountering "
                                   "probability entry = infinity or NaN)")
            cum = _np.cumsum(vals, dtype=acc)
            total = cum[-1]
            if not total > 0:
                raise RuntimeError(
                    "invalid multinomial distribution (sum of probabilities <= 0)")
            cum = (cum / total).astype(acc)
            cum[-1] = 1
            u = self._u53(num_samples)
            out[r] = _np.searchsorted(cum.astype(_np.float64), u, side="left")
        return out.reshape(out_shape)


Generator.__module__ = "ember"
Generator.__qualname__ = "Generator"


def _uniform_exact_in_f64(a: _np.float32, w: _np.float32) -> bool:
    """Whether ``u * w + a`` is exact in float64 for every float32 uniform ``u = k * 2**-24``
    (so that rounding it to float32 is the single rounding of ``fma(u, w, a)``): the product
    has at most 48 significant bits and the sum spans at most 53."""
    a, w = float(a), float(w)
    if not (_math.isfinite(a) and _math.isfinite(w)):
        return False
    if w == 0:
        return True
    low = _math.frexp(w)[1] - 48                # the product's lowest bit: 2**-24 * ulp(w)
    if a != 0:
        low = min(low, _math.frexp(a)[1] - 24)
    high = _math.frexp(abs(a) + abs(w))[1] + 1  # |u * w + a| < 2**high
    return high - low <= 53


_UCHUNK = 1 << 16


def _uniform_fast_f32(gen: Generator, flat: _np.ndarray, a: _np.float32,
                      w: _np.float32, top: _np.float32) -> None:
    """``uniform_`` of a flat float32 array, chunk by chunk: ``rand`` (``a == 0, w == 1``)
    is ``k * 2**-24`` itself; otherwise ``fma(u, w, a)`` is the float32 rounding of the
    exact float64 ``k * (w * 2**-24) + a`` (see :func:`_uniform_exact_in_f64`)."""
    n = flat.size
    plain = w == 1 and a == 0
    scale = float(w) * 2.0 ** -24
    af = float(a)
    # the largest value, from the largest uniform (fma rounds monotonically): only if it
    # reaches `to` can any value need replacing by `from`
    may_hit = not plain and _np.float32((1 - 2.0 ** -24) * float(w) + af) == top
    k = _np.empty(min(n, _UCHUNK), _np.int32)
    sbuf = _np.empty(min(n, _UCHUNK)) if not plain else None
    for start in range(0, n, _UCHUNK):
        m = min(_UCHUNK, n - start)
        kk = k[:m]
        _np.bitwise_and(gen._u32(m), _M24, out=kk, casting="unsafe")
        dst = flat[start:start + m]
        if plain:
            _np.multiply(kk, _F(2.0 ** -24), out=dst, dtype=_np.float32, casting="unsafe")
            continue
        sb = sbuf[:m]
        _np.multiply(kk, scale, out=sb)
        _np.add(sb, af, out=dst, casting="same_kind")
        if may_hit:
            dst[dst == top] = a


def _umod(x: _np.ndarray, d: int) -> _np.ndarray:
    """``x % d`` in place for an unsigned array and a positive scalar ``d`` (NumPy divides
    by a scalar with a multiply-and-shift, many times quicker than its ``%``)."""
    d = x.dtype.type(d)
    q = x // d
    q *= d
    x -= q
    return x


def _swap_shuffle(js: _np.ndarray, n: int) -> _np.ndarray:
    """``0, 1, ..., n-1`` after the swaps ``(i, js[i])`` for i = 0 ... n-2 in order
    (``js[i] >= i``): torch's randperm loop, without the loop for larger ``n``.

    Position ``i`` is final after step ``i``, so the result is ``out[i]`` = the value at
    ``js[i]`` just before step ``i``: that of the latest earlier step with the same target
    (the value it moved there), else ``js[i]`` itself. The value a step ``k`` moves is the one
    at position ``k`` then: that of the latest earlier step targeting ``k``, and so on back
    to a position nothing wrote before (a root, whose value is itself), found by pointer
    jumping. The last element is the value at ``n - 1`` after all steps.
    """
    if n <= 256:
        perm = list(range(n))
        for i, j in enumerate(js.tolist()):
            perm[i], perm[j] = perm[j], perm[i]
        return _np.array(perm, dtype=_np.int64)
    m = n - 1
    order = _np.argsort(js * n + _np.arange(m))     # by target, then step (keys < n**2)
    t = js[order]
    dup = t[1:] == t[:-1]
    same_prev = _np.concatenate(([False], dup))     # the previous step has the same target
    last = _np.concatenate((~dup, [True]))          # the group's last (latest) step
    # par[p]: the latest step k < p with target p, else p itself
    par = _np.arange(n)
    sel = last & (order < t)
    par[t[sel]] = order[sel]
    idx = _np.flatnonzero(last & (order == t) & same_prev)
    par[t[idx]] = order[idx - 1]
    while True:
        nxt = par[par]
        if _np.array_equal(nxt, par):
            break
        par = nxt
    vals = t.copy()
    idx = _np.flatnonzero(same_prev)
    vals[idx] = par[order[idx - 1]]
    out = _np.empty(n, dtype=_np.int64)
    out[order] = vals
    out[m] = par[m]
    return out


def _store_int(arr: _np.ndarray, vals: _np.ndarray) -> None:
    """Store int64 values as ``static_cast<dtype>`` does (wrap for ints, half via float)."""
    dt = arr.dtype
    if dt == _f16:
        vals = vals.astype(_np.float32).astype(_np.float16)
    elif dt == _np.bool_:
        vals = vals != 0
    else:
        vals = vals.astype(dt, copy=False)
    view = _memory_order(arr)
    view[...] = vals.reshape(view.shape)


def _float_to_int64(v) -> int:
    """``static_cast<int64_t>`` of a float as x86-64 does it (out of range: INT64_MIN)."""
    v = float(v)
    if not -2.0 ** 63 <= v < 2.0 ** 63:
        return -(1 << 63)
    return int(v)


def _round_int(v: int, dt: _np.dtype):
    """``static_cast<scalar_t>(int64)`` (half through float)."""
    with _np.errstate(over="ignore"):
        f = _np.float32(v) if dt != _f64 else _np.float64(v)
        return f.astype(_np.float16) if dt == _f16 else f


def _update_from(frm: int, dt: _np.dtype) -> int:
    digits = _np.finfo(dt).nmant + 1
    plus1 = _float_to_int64(_round_int(frm + 1, dt))
    if plus1 < frm:
        f = abs(frm + 1)
        n = f.bit_length() - 1
        frm = plus1 + (1 << (n - digits + 1))
    return frm


def _update_to(to: int, dt: _np.dtype) -> int:
    digits = _np.finfo(dt).nmant + 1
    minus1 = _float_to_int64(_round_int(to - 1, dt))
    if minus1 >= to:
        t = abs(to - 1)
        n = t.bit_length() - 1
        to = minus1 - (1 << (n - digits + 1))
    return to


def _check_from_to_in_range(frm: int, to_inc: int, dt: _np.dtype) -> None:
    name = _cpp_name(dt)
    if dt in _FLOATS:
        fi = _np.finfo(dt)
        lo, hi = float(fi.min), float(fi.max)
        if not lo <= float(frm) <= hi:
            raise RuntimeError(f"from is out of bounds for {name}")
        if not lo <= float(to_inc) <= hi:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")
        digits = fi.nmant + 1
        for var, what in ((frm, "from"), (to_inc, "to - 1")):
            if var < -(1 << digits) or var > (1 << digits):
                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {name} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, "
                    "please fix the code in advance", UserWarning, stacklevel=4)
    elif dt == _np.bool_ or dt.kind in "iu":
        lo, hi = (0, 1) if dt == _np.bool_ else (int(_np.iinfo(dt).min), int(_np.iinfo(dt).max))
        if not lo <= frm <= hi:
            raise RuntimeError(f"from is out of bounds for {name}")
        if not lo <= to_inc <= hi:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")
    else:
        raise _not_implemented("random_from_to_kernel_cpu", dt)


# ---------------------------------------------------------------------------------------
# topk (multinomial without replacement): torch's CPU loop over libstdc++'s algorithms.
# ---------------------------------------------------------------------------------------

def _topk_largest(row: _np.ndarray, k: int) -> _np.ndarray:
    """Indices of the ``k`` largest values of ``row``, largest first, as torch's CPU topk.

    Without ties the answer is unique and a stable NumPy sort gives it. With ties (or NaN)
    the order torch returns is that of libstdc++'s ``nth_element``/``sort`` (or
    ``partial_sort`` when ``k * 64 <= n``) on (value, index) pairs compared by value only,
    NaN counting as the largest; those algorithms are replayed exactly.
    """
    n = row.size
    order = _np.argsort(-row, kind="stable")
    if not _np.isnan(row).any():
        top = row[order[: k + 1]]
        if not (top[1:] == top[:-1]).any():
            return order[:k]
    vals = row.astype(_np.float64) + 0.0          # -0.0 compares equal to 0.0
    bits = vals.view(_np.int64)
    keys = _np.where(bits < 0, bits ^ _np.int64(0x7FFFFFFFFFFFFFFF), bits)
    keys = _np.where(_np.isnan(vals), _np.iinfo(_np.int64).max, keys)
    if n and (vals == 0).any():
        keys = _np.where(vals == 0, 0, keys)
    q = list(zip(keys.tolist(), range(n)))
    if k * 64 <= n:
        _stl.partial_sort(q, 0, k, n, _lt)
    else:
        _stl.nth_element(q, k - 1, _lt)
        _stl.sort(q, 0, k - 1, _lt)
    return _np.array([i for _, i in q[:k]], dtype=_np.int64)


def _lt(x, y) -> bool:
    """The comparator of torch's topk: descending by key (libstdc++ replay in ``_stl``)."""
    return x[0] > y[0]


# ---------------------------------------------------------------------------------------
# normal_ vector paths.
# ---------------------------------------------------------------------------------------

def _blocks(u: _np.ndarray, gen: Generator, draw) -> tuple[_np.ndarray, int]:
    """The (k, 16) blocks transformed by the vector kernels: the complete blocks of ``u``
    then, when ``n % 16``, one block of 16 fresh uniforms for the last 16 positions."""
    n = u.size
    nb = n // 16
    if n % 16:
        blocks = _np.concatenate([u[: nb * 16], draw(16)]).reshape(nb + 1, 16)
    else:
        blocks = u.reshape(nb, 16)
    return blocks, nb


def _unblock(blocks: _np.ndarray, nb: int, n: int, dtype) -> _np.ndarray:
    out = _np.empty(n, dtype=dtype)
    out[: nb * 16] = blocks[:nb].reshape(-1)
    if n % 16:
        out[n - 16:] = blocks[nb]
    return out


def _normal_fill_f64(u: _np.ndarray, gen: Generator, mean: float, std: float) -> _np.ndarray:
    """Path B: float64, contiguous, n >= 16."""
    n = u.size
    blocks, nb = _blocks(u, gen, gen._u53)
    u1 = 1.0 - blocks[:, :8]
    rho = _log(u1)
    rho *= -2.0
    _np.sqrt(rho, out=rho)
    theta = blocks[:, 8:] * _TWO_PI
    c = rho * _cos(theta)
    s = rho * _sin(theta)
    if std == 1.0:
        c += mean
        s += mean
    else:
        c = _fma64(c, std, mean)
        s = _fma64(s, std, mean)
    blocks = _np.concatenate([c, s], axis=1)
    return _unblock(blocks, nb, n, _np.float64)


def _normal_fast_f64(gen: Generator, n: int, mean: float, std: float,
                     out: _np.ndarray) -> _np.ndarray:
    """Path B into the flat float64 ``out`` (n >= 16), drawing chunk by chunk as
    :func:`_normal_fast_f32` does (the same values as :func:`_normal_fill_f64`)."""
    nb = n // 16
    step = _CHUNK // 16

    def blocks(u: _np.ndarray, dst: _np.ndarray) -> None:
        kb = u.size // 16
        b = u.reshape(kb, 2, 8)
        rho = _np.subtract(1.0, b[:, 0])
        rho = _log(rho)
        rho *= -2.0
        _np.sqrt(rho, out=rho)
        theta = b[:, 1] * _TWO_PI
        c = _cos(theta)
        c *= rho
        sn = _sin(theta)
        sn *= rho
        d = dst.reshape(kb, 2, 8)
        if std == 1.0:
            _np.add(c, mean, out=d[:, 0])
            _np.add(sn, mean, out=d[:, 1])
        else:
            d[:, 0] = _fma64(c, std, mean)
            d[:, 1] = _fma64(sn, std, mean)

    for start in range(0, nb, step):
        kb = min(step, nb - start)
        blocks(gen._u53(16 * kb), out[start * 16:(start + kb) * 16])
    if n % 16:
        gen._u32(2 * (n % 16))
        tail = _np.empty(16)
        blocks(gen._u53(16), tail)
        out[n - 16:] = tail
    return out


# float32 constants of torch's AVX2 log and sincos (avx_mathfun).
_F = _np.float32
_LOG_P = [_F(v) for v in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                          -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                          2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_SQRTHF = _F(0.70710677)
_FOPI = _F(1.2732395)
_DP1, _DP2, _DP3 = _F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)
_COS_C = [_F(v) for v in (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]
_SIN_S = [_F(v) for v in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_TWO_PI_F = _F(6.2831855)
_HALF, _ONE, _TWO = _F(0.5), _F(1.0), _F(2.0)


class _Fma32:
    """float32 ``fma`` on float32 values held as float64 (arrays or scalars), into a float32
    ``out``: the product is exact in float64 and the sum rounds once there, then once more to
    float32. That second rounding errs only for a sum on a float32 rounding midpoint; with
    ``check`` those are found and redone with a round-to-odd sum (as :func:`_fma32`).

    The normal kernel's polynomials run unchecked: over every input they can get (2**24
    uniforms each) no such midpoint changes a result, which ``tests/test_random_vectors.py``
    verifies exhaustively by running them checked and unchecked."""

    def __init__(self, size: int, check: bool = False) -> None:
        self.s = _np.empty(size)
        self.check = check

    def __call__(self, a, b, c, out: _np.ndarray) -> _np.ndarray:
        s = self.s[: out.size]
        _np.multiply(a, b, out=s)
        _np.add(s, c, out=s)
        _np.copyto(out, s, casting="same_kind")
        if self.check:
            hit = (s.view(_np.uint64) & _M29) == _MID29
            if hit.any():
                idx = _np.flatnonzero(hit)
                av, bv, cv = (_np.broadcast_to(_np.asarray(v, _np.float64), s.shape)[idx]
                              for v in (a, b, c))
                out[idx] = _round_to_odd_add(av * bv, cv).astype(_np.float32)
        return out


def _wide(x: _np.ndarray) -> _np.ndarray:
    return x.astype(_np.float64)


_LOG_P64 = [float(p) for p in _LOG_P]
_COS_C64 = [float(v) for v in _COS_C]
_SIN_S64 = [float(v) for v in _SIN_S]


def _log_f32(x: _np.ndarray, fma: _Fma32) -> _np.ndarray:
    """torch's AVX2 ``log256_ps`` for float32 ``x`` in [2**-24, 1] (``x`` is overwritten;
    its clamp to the smallest normal never acts there)."""
    bits = x.view(_np.int32)
    e = ((bits >> 23) - 126).astype(_np.float32)
    bits &= _np.int32(-2139095041)
    bits |= _np.int32(0x3F000000)
    m = x                                   # the mantissa, in [0.5, 1)
    # where m < sqrt(1/2): x = (m - 1) + m and e - 1, in exact arithmetic rather than
    # np.where, whose branches mispredict on random masks
    small = (m < _SQRTHF).astype(_np.float32)
    x = m - _ONE
    x += m * small
    e -= small
    z = x * x
    x64, z64 = _wide(x), _wide(z)
    y = _np.empty_like(x)
    fma(_LOG_P64[0], x64, _LOG_P64[1], y)
    for p in _LOG_P64[2:]:
        fma(_wide(y), x64, p, y)
    y *= x
    fma(_wide(y), z64, _wide(e * _LOG_Q1), y)
    y -= z * _HALF
    x += y
    e *= _LOG_Q2
    x += e
    return x


def _sincos_f32(a: _np.ndarray, fma: _Fma32) -> tuple[_np.ndarray, _np.ndarray]:
    """torch's AVX2 ``sincos256_ps`` for non-negative float32 angles ``a``."""
    j = (a * _FOPI).astype(_np.int32)
    j += 1
    j &= ~1
    y = j.astype(_np.float32)
    pick = ((j & 2) >> 1) - 1               # all ones where sin takes the sine polynomial
    sin_sign = (j & 4) << 29                # bit 2 of j, moved to the sign bit
    j -= 2
    cos_sign = (~j & 4) << 29
    a = a + y * _DP1
    a += y * _DP2
    fma(_wide(y), float(_DP3), _wide(a), a)
    a64 = _wide(a)
    z = a * a
    z64 = _wide(z)
    c = _np.empty_like(a)
    fma(_COS_C64[0], z64, _COS_C64[1], c)
    fma(_wide(c), z64, _COS_C64[2], c)
    c *= z
    fma(_wide(c), z64, _wide(-(z * _HALF)), c)
    c += _ONE
    s = _np.empty_like(a)
    fma(_SIN_S64[0], z64, _SIN_S64[1], s)
    fma(_wide(s), z64, _SIN_S64[2], s)
    s *= z
    fma(_wide(s), a64, a64, s)
    sb, cb = s.view(_np.int32), c.view(_np.int32)
    diff = (sb ^ cb) & pick                 # a branch-free select of the two polynomials
    sin = (cb ^ diff) ^ sin_sign
    cos = (sb ^ diff) ^ cos_sign
    return sin.view(_np.float32), cos.view(_np.float32)


def _magic(e: int) -> float:
    """``1.5 * 2**(e + 29)``: for a float64 ``v`` with ``2**e <= |v| < 2**(e+1)``, the
    float64 sum ``v + magic`` rounds ``v`` to float32 precision, once and to nearest even
    (its last bit weighs 2**(e - 23), a float32 ulp of ``v``), and subtracting it is exact."""
    return 1.5 * 2.0 ** (e + 29)


# the float32 cos/sin polynomials' first two fused steps stay in one binade over
# z = a*a in [0, (pi/4)**2]: c1 in -[2**-10, 2**-9), c2 in [2**-5, 2**-4), s1 in
# [2**-7, 2**-6), s2 in -[2**-3, 2**-2) (the exhaustive test holds every input to it)
_KC1, _KS1 = _magic(-10), _magic(-7)
_LOG_OFF = 0x3F3504F3                   # the bits of _SQRTHF


def _c(v, dt) -> _np.ndarray:
    """A 0-d operand: a ufunc takes it about twice as fast as a Python or NumPy scalar."""
    return _np.array(v, dt)


# the fast kernel's operands, each of the dtype of the arrays it meets
_K_T24, _K_MANT, _K_23 = (_c(v, _np.int32) for v in (1 << 24, 0x7FFFFF, 23))
_K_LOG_OFF, _K_LOG_OFF24 = _c(_LOG_OFF, _np.int32), _c(_LOG_OFF + (24 << 23), _np.int32)
_K_LOG_P = [_c(p, _np.float64) for p in _LOG_P64]
_K_Q1, _K_Q2 = _c(_LOG_Q1, _F), _c(_LOG_Q2, _F)
_K_ONE, _K_HALF, _K_M2 = _c(1, _F), _c(0.5, _F), _c(-2, _F)
_K_ANGLE = _c(_TWO_PI_F * _F(2.0 ** -24), _F)
_K_DP = _c(float(_DP1) + float(_DP2) + float(_DP3), _np.float64)     # (exact)
_K_1, _K_4, _K_NOT1, _K_21 = (_c(v, _np.int32) for v in (1, 4, ~1, 21))
_K_29, _K_30, _K_31 = (_c(v, _np.int32) for v in (29, 30, 31))
_K_LOW24 = _c(0xFFFFFF, _np.int32)
_K_COS = [_c(v, _np.float64) for v in (_COS_C64[0], _COS_C64[1] + _KC1, _KC1, _COS_C64[2])]
_K_SIN = [_c(v, _np.float64) for v in (_SIN_S64[0], _SIN_S64[1] + _KS1, _KS1, _SIN_S64[2])]
_K_DHALF, _K_DONE = _c(0.5, _np.float64), _c(1, _np.float64)
_K_U32 = _c(32, _np.uint64)


class _Lanes:
    """Scratch arrays of the fast float32 normal kernel, for up to ``m`` lanes (pairs)."""

    def __init__(self, m: int) -> None:
        self.m = m
        self.raw = _np.empty(2 * m, _np.int32)      # the de-interleaved draws
        self.res = _np.empty(2 * m, _np.float32)    # cos then sin lanes of the result
        self.swap = _np.empty(m, _np.uint64)
        self.f = [_np.empty(m, _np.float32) for _ in range(5)]
        self.d = [_np.empty(m) for _ in range(3)]
        self.i = [_np.empty(m, _np.int32) for _ in range(4)]


# Conversions are written ``dst[...] = src`` (float32 <-> float64 round to nearest, int
# <-> float as C casts), the quickest NumPy call for them; every ufunc call passes its
# output positionally and its scalars as 0-d arrays of the arrays' dtype, so that no call
# runs in a wider type than the one it emulates.

def _rho_fast(k: _np.ndarray, w: _Lanes) -> _np.ndarray:
    """``sqrt(-2 * LOG(1 - u))`` for the radius lanes, from the low 24 bits ``k`` (int32)
    of their draws: :func:`_log_f32` on ``1 - u24`` in fewer passes."""
    m = k.size
    x, y, e, z, eq = (a[:m] for a in w.f[:5])
    x64, y64, z64 = (a[:m] for a in w.d)
    t = w.i[0][:m]
    mul, add, sub = _np.multiply, _np.add, _np.subtract
    sub(_K_T24, k, t)                           # 1 - u == t * 2**-24, t in [1, 2**24]
    x[...] = t                                  # exact; 2**-24 goes into the exponent
    # musl's logf reduction: t - bits(sqrt(1/2)) splits into the exponent e and a
    # mantissa m in [sqrt(1/2), sqrt(2)), so that x = m - 1 is LOG's (m - 1) + m or m - 1
    bits = x.view(_np.int32)
    sub(bits, _K_LOG_OFF24, t)
    _np.bitwise_and(t, _K_MANT, bits)
    add(bits, _K_LOG_OFF, bits)
    _np.right_shift(t, _K_23, t)
    e[...] = t
    sub(x, _K_ONE, x)
    mul(x, x, z)
    x64[...] = x
    # the fused Horner steps: exact float64 products, one float64 sum, then float32
    mul(x64, _K_LOG_P[0], y64)
    add(y64, _K_LOG_P[1], y64)
    for p in _K_LOG_P[2:]:
        y[...] = y64
        y64[...] = y
        mul(y64, x64, y64)
        add(y64, p, y64)
    y[...] = y64
    mul(y, x, y)
    # fma(y, z, e * Q1), e * Q1 rounded to float32 on its own
    y64[...] = y
    z64[...] = z
    mul(y64, z64, y64)
    mul(e, _K_Q1, eq)
    x64[...] = eq
    add(y64, x64, y64)
    y[...] = y64
    mul(z, _K_HALF, z)
    sub(y, z, y)
    add(x, y, x)
    mul(e, _K_Q2, e)
    add(x, e, x)
    mul(x, _K_M2, x)
    _np.sqrt(x, x)
    return x


def _sincos_fast(k: _np.ndarray, w: _Lanes) -> tuple[_np.ndarray, _np.ndarray]:
    """torch's ``sincos256_ps`` of ``2*pi*u24`` for the angle lanes, from the low 24 bits
    ``k`` (int32) of their draws: :func:`_sincos_f32` in fewer passes."""
    m = k.size
    a, z, c, s = (arr[:m] for arr in w.f[1:5])
    t64, a64, z64 = (arr[:m] for arr in w.d)
    j, mask, d = (arr[:m] for arr in w.i[1:])
    mul, add, sub = _np.multiply, _np.add, _np.subtract
    # 2*pi*u, u = k * 2**-24: one rounding of k * (2*pi * 2**-24), as of u * 2*pi
    a[...] = k
    mul(a, _K_ANGLE, a)
    # j = (int(a * 4/pi) + 1) & ~1, which is (k >> 21) rounded up to even for every k
    # (the exhaustive test)
    _np.right_shift(k, _K_21, j)
    add(j, _K_1, j)
    _np.bitwise_and(j, _K_NOT1, j)
    # a + y*DP1 + y*DP2 (two float32 sums, both exact for every k), then fma(y, DP3, a):
    # the one float64 sum a + y*DP, DP = DP1 + DP2 + DP3 exactly, and y*DP exact (y <= 8)
    t64[...] = j
    mul(t64, _K_DP, t64)
    a64[...] = a
    add(a64, t64, a64)
    a[...] = a64
    a64[...] = a
    mul(a, a, z)
    z64[...] = z
    # cos: the two single-binade fused steps, the first rounded by _magic, the second by
    # the conversion to float32 that follows (the same value), then c*z, fma(c, z, -z/2), + 1
    mul(z64, _K_COS[0], t64)
    add(t64, _K_COS[1], t64)
    sub(t64, _K_COS[2], t64)
    mul(t64, z64, t64)
    add(t64, _K_COS[3], t64)
    c[...] = t64
    mul(c, z, c)
    t64[...] = c
    # c*z - z/2 as (c - 1/2) * z: not always the exact float64 sum, but it rounds to
    # the same float32 for every input (as does (s + 1) * a below; the exhaustive test)
    sub(t64, _K_DHALF, t64)
    mul(t64, z64, t64)
    c[...] = t64
    add(c, _K_ONE, c)
    # sin: likewise, then s*z, fma(s, a, a)
    mul(z64, _K_SIN[0], t64)
    add(t64, _K_SIN[1], t64)
    sub(t64, _K_SIN[2], t64)
    mul(t64, z64, t64)
    add(t64, _K_SIN[3], t64)
    s[...] = t64
    mul(s, z, s)
    t64[...] = s
    add(t64, _K_DONE, t64)                      # s*a + a as (s + 1) * a
    mul(t64, a64, t64)
    s[...] = t64
    # j is 0, 2, 4, 6 or 8: sin and cos swap where bit 1 of j is set; sin is negated
    # where bit 2 of j is set, cos where bit 2 of j + 2 is (bit 2 of j xor bit 1 of j)
    _np.left_shift(j, _K_30, mask)              # the sign bit where bit 1 of j is set
    _np.bitwise_and(j, _K_4, j)
    _np.left_shift(j, _K_29, j)                 # the sign bit where bit 2 of j is set
    sb, cb = s.view(_np.int32), c.view(_np.int32)
    xor = _np.bitwise_xor
    xor(sb, cb, d)
    xor(cb, mask, cb)
    _np.right_shift(mask, _K_31, mask)          # all ones where bit 1 of j is set
    _np.bitwise_and(d, mask, d)
    xor(d, j, d)
    xor(sb, d, sb)
    xor(cb, d, cb)
    return s, c


def _normal_fast_f32(gen: Generator, n: int, mean: _np.float32, std: _np.float32,
                     out: _np.ndarray) -> _np.ndarray:
    """Path C into the flat float32 ``out`` (n >= 16), drawing chunk by chunk: the complete
    blocks, then the ``n % 16`` draws torch overwrites, then the tail block of 16.

    The draws come two to a 64-bit word (:meth:`Generator._u32_pairs`, quicker than one by
    one), so the lanes hold each pair of draws in the order of the word's halves and the
    results are put back in draw order by swapping the halves of each 64-bit pair."""
    nb = n // 16
    step = _CHUNK // 16
    w = _Lanes(min(nb, step) * 8 or 8)
    swapped = _pairs_high_first()
    plain = std == 1                            # fma(x, 1, mean) == x + mean
    mean0 = _c(mean, _F)

    def blocks(words: _np.ndarray, dst: _np.ndarray) -> None:
        kb = words.size // 8
        m = kb * 8
        # each block is 8 radius draws then 8 angle draws: gather the two kinds (as
        # 32-byte items, one pass), then keep the low 24 bits
        lanes = w.raw[:2 * m]
        _np.copyto(lanes.view("V32").reshape(2, kb), words.view("V32").reshape(kb, 2).T)
        _np.bitwise_and(lanes, _K_LOW24, lanes)
        rho = _rho_fast(lanes[:m], w)
        sin, cos = _sincos_fast(lanes[m:], w)
        res = w.res[:2 * m]
        _np.multiply(cos, rho, res[:m])
        _np.multiply(sin, rho, res[m:])
        if plain:
            _np.add(res, mean0, res)
        else:
            res[...] = _fma32(res, std, mean, check_subnormal=True)
        if swapped:
            r64, tmp = res.view(_np.uint64), w.swap[:m]
            _np.left_shift(r64, _K_U32, tmp)
            _np.right_shift(r64, _K_U32, r64)
            _np.bitwise_or(r64, tmp, r64)
        _np.copyto(dst.view("V32").reshape(kb, 2), res.view("V32").reshape(2, kb).T)

    for start in range(0, nb, step):
        kb = min(step, nb - start)
        blocks(gen._u32_pairs(8 * kb), out[start * 16:(start + kb) * 16])
    if n % 16:
        gen._u32(n % 16)
        tail = _np.empty(16, _np.float32)
        blocks(gen._u32_pairs(8), tail)
        out[n - 16:] = tail
    return out


_PAIRS_HIGH_FIRST: list[bool] = []


def _pairs_high_first() -> bool:
    """Whether NumPy's 64-bit ``MT19937`` output puts the first of its two 32-bit draws in
    the high half (C leaves the order of the two calls to the compiler: asked once)."""
    if not _PAIRS_HIGH_FIRST:
        word = int(_np.random.Generator(_np.random.MT19937(1)).integers(
            0, 1 << 64, 1, dtype=_np.uint64)[0])
        first = int(_np.random.MT19937(1).random_raw(2)[0])
        _PAIRS_HIGH_FIRST.append(word >> 32 == first)
    return _PAIRS_HIGH_FIRST[0]


_CHUNK = 1 << 16


def _normal_fill_f32(u: _np.ndarray, gen: Generator, mean: _np.float32, std: _np.float32,
                     out: _np.ndarray | None = None) -> _np.ndarray:
    """Path C: float32, contiguous, n >= 16 (torch's AVX2 ``normal_fill_16_AVX2``); into
    ``out`` (flat, float32) when given."""
    n = u.size
    blocks, nb = _blocks(u, gen, gen._u24)
    k = blocks.shape[0]
    direct = out is not None and n % 16 == 0
    res = out.reshape(k, 16) if direct else _np.empty_like(blocks)
    step = max(1, _CHUNK // 8)
    fma = _Fma32(min(k, step) * 8)
    for start in range(0, k, step):
        b = blocks[start:start + step]
        u1 = (_ONE - b[:, :8]).reshape(-1)
        rho = _log_f32(u1, fma)
        rho *= _F(-2.0)
        _np.sqrt(rho, out=rho)
        a = _np.multiply(b[:, 8:], _TWO_PI_F).reshape(-1)
        sin, cos = _sincos_f32(a, fma)
        cos *= rho
        sin *= rho
        if std == 1:
            cos += mean
            sin += mean
        else:
            cos = _fma32(cos, std, mean, check_subnormal=True)
            sin = _fma32(sin, std, mean, check_subnormal=True)
        r = res[start:start + step]
        r[:, :8] = cos.reshape(-1, 8)
        r[:, 8:] = sin.reshape(-1, 8)
    if direct:
        return out
    res = res.reshape(-1) if n % 16 == 0 else _unblock(res, nb, n, _np.float32)
    if out is not None:
        out[...] = res
    return res


def _normal_fill_f16(gen: Generator, n: int, mean: float, std: float,
                     out_dtype=_np.float16) -> _np.ndarray:
    """float16, contiguous, n >= 16: path C in float32 on each complete block of 16 fresh
    uniforms, then (when ``n % 16``) on 16 more for the last 16 positions; rounded to half.
    (Only the complete blocks are drawn first, unlike the float32 kernel.)"""
    m, s = _np.float32(mean), _np.float32(std)
    k = n // 16
    out = _np.empty(n, dtype=out_dtype)
    if k:
        out[: k * 16] = _normal_fast_f32(gen, k * 16, m, s, _np.empty(k * 16, _np.float32))
    if n % 16:
        out[n - 16:] = _normal_fast_f32(gen, 16, m, s, _np.empty(16, _np.float32))
    return out


# ---------------------------------------------------------------------------------------
# The default generator and the module-level API.
# ---------------------------------------------------------------------------------------

default_generator = Generator()
default_generator.seed()


def _gen(generator: Generator | None) -> Generator:
    """``generator`` if given, else :data:`default_generator`; anything else raises torch's
    parser error for the op's call."""
    if generator is None:
        return default_generator
    if generator.__class__ is not Generator and not isinstance(generator, Generator):
        from . import _errors
        raise _errors.call_failure() or TypeError(
            f"expected a torch.Generator, not {_errors.type_name(generator)}")
    return generator


def manual_seed(seed) -> Generator:
    """Seed the default generator with ``int(seed)`` and return it."""
    default_generator._set_seed(_check_seed_range(int(seed)))
    return default_generator


def seed() -> int:
    """Seed the default generator non-deterministically and return the 64-bit seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed last given to the default generator."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor of 5056 bytes."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default generator's state from :func:`get_rng_state`."""
    default_generator.set_state(new_state)


@_contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """Run the block, then put the default generator back in the state it had before (the CPU
    generator: the only one there is). ``enabled=False`` runs the block without forking."""
    if device_type == "meta" or not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


del annotations  # keep dir() to torch's names
