"""``assert_close``: torch's comparison of tensors, numbers and containers of them.

The structure follows torch's: inputs are split into pairs (sequences and mappings recursively),
each pair compares itself and raises an :class:`ErrorMeta`, which becomes the user-facing error
with torch's message.
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor

__all__ = ["assert_close", "assert_allclose"]

_DTYPE_PRECISIONS = {
    D.float16: (0.001, 1e-05),
    D.float32: (1.3e-06, 1e-05),
    D.float64: (1e-07, 1e-07),
    D.complex64: (1.3e-06, 1e-05),
    D.complex128: (1e-07, 1e-07),
}
for _name, _tol in (("bfloat16", (0.016, 1e-05)), ("complex32", (0.001, 1e-05))):
    if hasattr(D, _name):
        _DTYPE_PRECISIONS[getattr(D, _name)] = _tol


class ErrorMeta(Exception):
    """An error of a comparison, turned into the user-facing one by :meth:`to_error`."""

    def __init__(self, type: type[Exception], msg: str, *, id: tuple = ()) -> None:
        super().__init__("please `raise ErrorMeta.to_error()` for user facing errors.")
        self.type = type
        self.msg = msg
        self.id = id

    def to_error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += ("\n\nThe failure occurred for item "
                              f"{''.join(str([item]) for item in self.id)}")
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


class UnsupportedInputs(Exception):
    """Raised by a pair type that cannot handle its inputs."""


def default_tolerances(*inputs, dtype_precisions: dict | None = None) -> tuple[float, float]:
    """The largest ``(rtol, atol)`` of the inputs' dtypes (0 for exact dtypes)."""
    dtypes = []
    for x in inputs:
        if isinstance(x, Tensor):
            dtypes.append(x.dtype)
        elif isinstance(x, D.dtype):
            dtypes.append(x)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(x)} "
                            "instead.")
    precisions = dtype_precisions or _DTYPE_PRECISIONS
    rtols, atols = zip(*[precisions.get(dt, (0.0, 0.0)) for dt in dtypes])
    return max(rtols), max(atols)


def get_tolerances(*inputs, rtol, atol, id: tuple = ()) -> tuple[float, float]:
    if (rtol is None) ^ (atol is None):
        raise ErrorMeta(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                        f"but got no {'rtol' if rtol is None else 'atol'}.", id=id)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _identifier(default: str, identifier) -> str:
    if identifier is None:
        return default
    return identifier(default) if callable(identifier) else identifier


def _make_mismatch_msg(*, default_identifier, identifier=None, extra=None, abs_diff,
                       abs_diff_idx=None, atol, rel_diff, rel_diff_idx=None, rtol) -> str:
    equality = rtol == 0 and atol == 0

    def diff_msg(type_, diff, idx, tol):
        if idx is None:
            m = f"{type_.title()} difference: {diff}"
        else:
            m = f"Greatest {type_} difference: {diff} at index {idx}"
        if not equality:
            m += f" (up to {tol} allowed)"
        return m + "\n"

    msg = (f"{_identifier(default_identifier, identifier)} are not "
           f"{'equal' if equality else 'close'}!\n\n")
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_msg("absolute", abs_diff, abs_diff_idx, atol)
    msg += diff_msg("relative", rel_diff, rel_diff_idx, rtol)
    return msg.strip()


def make_scalar_mismatch_msg(actual, expected, *, rtol: float, atol: float,
                             identifier=None) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _make_mismatch_msg(default_identifier="Scalars", identifier=identifier,
                              extra=f"Expected {expected} but got {actual}.", abs_diff=abs_diff,
                              atol=atol, rel_diff=rel_diff, rtol=rtol)


def _abs(x: np.ndarray) -> np.ndarray:
    """torch's abs of an array (for complex, libm's hypot of the parts, as ``Tensor.abs``)."""
    from .._ops.unary import abs as abs_op
    return abs_op.kernel(x)


def make_tensor_mismatch_msg(actual: Tensor, expected: Tensor, matches: np.ndarray, *,
                             rtol: float, atol: float, identifier=None) -> str:
    shape = matches.shape
    n = matches.size
    mismatches = n - int(matches.sum())
    extra = f"Mismatched elements: {mismatches} / {n} ({mismatches / n:.1%})"
    a = actual._data.reshape(-1)
    e = expected._data.reshape(-1)
    m = matches.reshape(-1)
    if not (actual.dtype.is_floating_point or actual.dtype.is_complex):
        a = a.astype(np.int64)
        e = e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = _abs(a - e)
        abs_diff[m] = 0
        rel_diff = abs_diff / _abs(e)
    rel_diff[m] = 0

    def argmax(x):
        # torch.max(x, 0): nan is the maximum, the first one wins
        nans = np.isnan(x)
        i = int(np.argmax(nans)) if nans.any() else int(np.argmax(x))
        return x[i].item(), tuple(int(k) for k in np.unravel_index(i, shape)) if shape else ()

    max_abs, abs_idx = argmax(abs_diff)
    max_rel, rel_idx = argmax(rel_diff)
    return _make_mismatch_msg(default_identifier="Tensor-likes", identifier=identifier,
                              extra=extra, abs_diff=max_abs, abs_diff_idx=abs_idx, atol=atol,
                              rel_diff=max_rel, rel_diff_idx=rel_idx, rtol=rtol)


class Pair:
    """A pair of inputs to compare; ``compare`` raises an :class:`ErrorMeta` on mismatch."""

    def __init__(self, actual, expected, *, id: tuple = (), **unknown_parameters) -> None:
        self.actual = actual
        self.expected = expected
        self.id = id
        self._unknown_parameters = unknown_parameters

    @staticmethod
    def _inputs_not_supported() -> NoReturn:
        raise UnsupportedInputs

    @staticmethod
    def _check_inputs_isinstance(*inputs, cls):
        if not all(isinstance(x, cls) for x in inputs):
            Pair._inputs_not_supported()

    def _fail(self, type: type[Exception], msg: str, *, id: tuple = ()) -> NoReturn:
        raise ErrorMeta(type, msg, id=self.id if not id and hasattr(self, "id") else id)

    def compare(self) -> None:
        raise NotImplementedError

    def extra_repr(self):
        return []

    def __repr__(self) -> str:
        body = [f"    {name}={value!s}," for name, value in [
            ("id", self.id), ("actual", self.actual), ("expected", self.expected),
            *[(x, getattr(self, x)) if isinstance(x, str) else x for x in self.extra_repr()]]]
        return "\n".join((f"{type(self).__name__}(", *body, ")"))


class NonePair(Pair):
    def __init__(self, actual, expected, **other) -> None:
        if not (actual is None or expected is None):
            self._inputs_not_supported()
        super().__init__(actual, expected, **other)

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            self._fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class BooleanPair(Pair):
    def __init__(self, actual, expected, *, id: tuple, **other) -> None:
        self._check_inputs_isinstance(actual, expected, cls=(bool, np.bool_))
        actual, expected = (bool(x) for x in (actual, expected))
        super().__init__(actual, expected, **other)

    def compare(self) -> None:
        if self.actual is not self.expected:
            self._fail(AssertionError,
                       f"Booleans mismatch: {self.actual} is not {self.expected}")


class NumberPair(Pair):
    _TYPE_TO_DTYPE = {int: D.int64, float: D.float64, complex: D.complex128}

    def __init__(self, actual, expected, *, id: tuple = (), rtol=None, atol=None,
                 equal_nan: bool = False, check_dtype: bool = False, **other) -> None:
        self._check_inputs_isinstance(actual, expected, cls=(int, float, complex, np.number))
        actual, expected = (x.item() if isinstance(x, np.number) else x
                            for x in (actual, expected))
        super().__init__(actual, expected, id=id, **other)
        self.rtol, self.atol = get_tolerances(
            *[self._TYPE_TO_DTYPE[type(x)] for x in (actual, expected)],
            rtol=rtol, atol=atol, id=id)
        self.equal_nan = equal_nan
        self.check_dtype = check_dtype

    def compare(self) -> None:
        if self.check_dtype and type(self.actual) is not type(self.expected):
            self._fail(AssertionError, f"The (d)types do not match: {type(self.actual)} != "
                       f"{type(self.expected)}.")
        if self.actual == self.expected:
            return
        if self.equal_nan and cmath.isnan(self.actual) and cmath.isnan(self.expected):
            return
        abs_diff = abs(self.actual - self.expected)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(self.expected):
            return
        self._fail(AssertionError, make_scalar_mismatch_msg(self.actual, self.expected,
                                                            rtol=self.rtol, atol=self.atol))

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_dtype")


class TensorLikePair(Pair):
    def __init__(self, actual, expected, *, id: tuple = (), allow_subclasses: bool = True,
                 rtol=None, atol=None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 **other) -> None:
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or (not allow_subclasses and type(actual) is not type(expected)):
            self._inputs_not_supported()
        actual, expected = (self._to_tensor(x) for x in (actual, expected))
        super().__init__(actual, expected, id=id, **other)
        self.rtol, self.atol = get_tolerances(actual, expected, rtol=rtol, atol=atol, id=self.id)
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_layout = check_layout
        self.check_stride = check_stride

    def _to_tensor(self, x) -> Tensor:
        if isinstance(x, Tensor):
            return x
        from .._factories import as_tensor
        try:
            return as_tensor(x)
        except Exception:
            self._inputs_not_supported()

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        self._compare_attributes(actual, expected)
        if actual.dtype != expected.dtype:
            dt = D.promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(dt), expected.to(dt)
        self._compare_regular_values_close(actual, expected, rtol=self.rtol, atol=self.atol,
                                           equal_nan=self.equal_nan)

    def _compare_attributes(self, actual: Tensor, expected: Tensor) -> None:
        def mismatch(name, a, e) -> NoReturn:
            self._fail(AssertionError,
                       f"The values for attribute '{name}' do not match: {a} != {e}.")

        if actual.shape != expected.shape:
            mismatch("shape", actual.shape, expected.shape)
        if actual.layout != expected.layout:
            if self.check_layout:
                mismatch("layout", actual.layout, expected.layout)
        elif self.check_stride and actual.stride() != expected.stride():
            mismatch("stride()", actual.stride(), expected.stride())
        if self.check_device and actual.device != expected.device:
            mismatch("device", actual.device, expected.device)
        if self.check_dtype and actual.dtype != expected.dtype:
            mismatch("dtype", actual.dtype, expected.dtype)

    def _compare_regular_values_close(self, actual: Tensor, expected: Tensor, *, rtol, atol,
                                      equal_nan, identifier=None) -> None:
        matches = _isclose(actual._data, expected._data, rtol, atol, equal_nan)
        if matches.all():
            return
        if actual.shape == ():
            msg = make_scalar_mismatch_msg(actual.item(), expected.item(), rtol=rtol, atol=atol,
                                           identifier=identifier)
        else:
            msg = make_tensor_mismatch_msg(actual, expected, matches, rtol=rtol, atol=atol,
                                           identifier=identifier)
        self._fail(AssertionError, msg)

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_device", "check_dtype", "check_layout",
                "check_stride")


def _isclose(a: np.ndarray, e: np.ndarray, rtol, atol, equal_nan) -> np.ndarray:
    """torch.isclose on arrays of one dtype, in torch's arithmetic."""
    close = a == e
    if rtol == 0 and atol == 0 and not equal_nan:
        return close
    if a.dtype.kind in "biu":   # torch computes integers' errors in the default float
        a = a.astype(D.get_default_dtype().np)
        e = e.astype(a.dtype)
    if equal_nan:
        close |= np.isnan(a) & np.isnan(e)
    if rtol == 0 and atol == 0:
        return close
    t = a.real.dtype.type
    with np.errstate(all="ignore"):
        allowed = t(atol) + _abs(t(rtol) * e)
        actual = _abs(a - e)
        close |= np.isfinite(actual) & (actual <= allowed)
    return close


def originate_pairs(actual, expected, *, pair_types, sequence_types=(collections.abc.Sequence,),
                    mapping_types=(collections.abc.Mapping,), id: tuple = (), **options):
    """The pairs to compare: sequences and mappings are walked, leaves become pairs."""
    if (isinstance(actual, sequence_types) and not isinstance(actual, str)
            and isinstance(expected, sequence_types) and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise ErrorMeta(AssertionError, "The length of the sequences mismatch: "
                            f"{len(actual)} != {len(expected)}", id=id)
        pairs = []
        for i in range(len(actual)):
            pairs.extend(originate_pairs(actual[i], expected[i], pair_types=pair_types,
                                         sequence_types=sequence_types,
                                         mapping_types=mapping_types, id=(*id, i), **options))
        return pairs
    if isinstance(actual, mapping_types) and isinstance(expected, mapping_types):
        akeys, ekeys = set(actual.keys()), set(expected.keys())
        if akeys != ekeys:
            raise ErrorMeta(AssertionError, "The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: {sorted(ekeys - akeys)}\n"
                            f"Additional keys in the actual mapping: {sorted(akeys - ekeys)}",
                            id=id)
        keys = akeys
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        pairs = []
        for k in keys:
            pairs.extend(originate_pairs(actual[k], expected[k], pair_types=pair_types,
                                         sequence_types=sequence_types,
                                         mapping_types=mapping_types, id=(*id, k), **options))
        return pairs
    for pair_type in pair_types:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except UnsupportedInputs:
            continue
    raise ErrorMeta(TypeError, "No comparison pair was able to handle inputs of type "
                    f"{_type(actual)} and {_type(expected)}.", id=id)


def _type(x) -> str:
    """``type(x)`` as torch's message prints it (a Tensor is ``torch.Tensor``)."""
    return "<class 'torch.Tensor'>" if type(x) is Tensor else str(type(x))


def not_close_error_metas(actual, expected, *, pair_types=(NonePair,), **options):
    """The errors of every pair that does not compare close."""
    try:
        pairs = originate_pairs(actual, expected, pair_types=pair_types, **options)
    except ErrorMeta as meta:
        raise meta.to_error() from None
    metas = []
    for pair in pairs:
        try:
            pair.compare()
        except ErrorMeta as meta:
            metas.append(meta)
    return metas


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None, equal_nan: bool = False,
                 check_device: bool = True, check_dtype: bool = True, check_layout: bool = True,
                 check_stride: bool = False, msg: str | Callable[[str], str] | None = None):
    """Assert that ``actual`` and ``expected`` are close, as ``torch.testing.assert_close``.

    Tensors (and array-likes) compare with ``|actual - expected| <= atol + rtol * |expected|``,
    with default tolerances by dtype; Python numbers, booleans and ``None`` compare as torch's;
    sequences and mappings are compared element by element. Raises ``AssertionError`` with
    torch's message on a mismatch.
    """
    __tracebackhide__ = True
    metas = not_close_error_metas(
        actual, expected, pair_types=(NonePair, BooleanPair, NumberPair, TensorLikePair),
        allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
        check_device=check_device, check_dtype=check_dtype, check_layout=check_layout,
        check_stride=check_stride, msg=msg)
    if metas:
        raise metas[0].to_error(msg)


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None,
                    atol: float | None = None, equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated: ``assert_close`` with the older, looser default tolerances."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed "
                  "in a future release. Please use `torch.testing.assert_close()` instead. You can "
                  "find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    from .._factories import tensor
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = default_tolerances(actual, expected, dtype_precisions={
            D.float16: (0.001, 0.001), D.float32: (0.0001, 1e-05), D.float64: (1e-05, 1e-08)})
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
