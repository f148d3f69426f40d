"""Dtype objects (``ember.float32`` …) and torch's type-promotion rules.

A :class:`dtype` wraps the NumPy dtype that stores its elements. Promotion follows
``torch.result_type``: operands are split into three priority tiers — tensors with
dimensions, zero-dimensional tensors, and Python numbers ("wrapped numbers") — and a lower
tier only matters when it brings a higher *category* (bool < integer < floating < complex).
"""

from __future__ import annotations

import builtins
import math
import sys

import numpy as np

__all__ = [
    "dtype", "float16", "float32", "float64", "half", "float", "double",
    "int8", "int16", "int32", "int64", "short", "int", "long", "uint8", "bool",
    "uint16", "uint32", "uint64",
    "complex64", "complex128", "cfloat", "cdouble",
    "promote_types", "result_type", "get_default_dtype", "set_default_dtype", "can_cast",
    "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
    "qint8", "quint8", "qint32", "quint4x2", "quint2x4",
]


class dtype:
    """A tensor element type, printed as ``torch.float32`` like torch's."""

    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_complex", "is_signed",
                 "_category", "_rank", "_legacy", "scalar_name", "cpp_name")

    def __init__(self, name: str, np_dtype, category: int, rank: int, legacy: str,
                 scalar_name: str, cpp_name: str, itemsize: builtins.int = 0):
        self.name = name
        if np_dtype is not None:        # None: a reduced type, its NumPy dtype set on first use
            self.np = np.dtype(np_dtype)
            itemsize = self.np.itemsize
        self.itemsize = itemsize
        self._category = category          # 0 bool, 1 integer, 2 floating, 3 complex
        self._rank = rank                  # order inside the category
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = not name.startswith("uint") and name != "bool"
        self._legacy = legacy              # torch.FloatTensor style name, used in messages
        self.scalar_name = scalar_name     # torch's ScalarType name in messages ("Float")
        self.cpp_name = cpp_name           # the C++ type torch's messages name ("float")

    def __getattr__(self, attr: str):
        # only reached for an unset slot: ``np`` of a reduced type before ml_dtypes is loaded
        if attr == "np" and self.name in _REDUCED_NAMES:
            load_reduced()
            return self.np
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_real(self) -> dtype:
        return {complex64: float32, complex128: float64}.get(self, self)

    def to_complex(self) -> dtype:
        if self in BAREBONES:
            raise RuntimeError(f"Unknown Complex ScalarType for {self.scalar_name}")
        return {float32: complex64, float64: complex128, float16: complex64,
                bfloat16: complex64}.get(self, self)


bool = dtype("bool", np.bool_, 0, 0, "BoolTensor", "Bool", "bool")
uint8 = dtype("uint8", np.uint8, 1, 0, "ByteTensor", "Byte", "unsigned char")
int8 = dtype("int8", np.int8, 1, 0, "CharTensor", "Char", "signed char")
int16 = dtype("int16", np.int16, 1, 1, "ShortTensor", "Short", "short int")
int32 = dtype("int32", np.int32, 1, 2, "IntTensor", "Int", "int")
int64 = dtype("int64", np.int64, 1, 3, "LongTensor", "Long", "long int")
# torch's "barebones" unsigned types: they store, convert, print and compare for equality, but
# have few kernels and promote with nothing but themselves and the floating types (BAREBONES)
uint16 = dtype("uint16", np.uint16, 1, 4, "UInt16Tensor", "UInt16", "short unsigned int")
uint32 = dtype("uint32", np.uint32, 1, 5, "UInt32Tensor", "UInt32", "unsigned int")
uint64 = dtype("uint64", np.uint64, 1, 6, "UInt64Tensor", "UInt64", "long unsigned int")
BAREBONES = frozenset((uint16, uint32, uint64))
float16 = dtype("float16", np.float16, 2, 0, "HalfTensor", "Half", "c10::Half")
float32 = dtype("float32", np.float32, 2, 1, "FloatTensor", "Float", "float")
float64 = dtype("float64", np.float64, 2, 2, "DoubleTensor", "Double", "double")
complex64 = dtype("complex64", np.complex64, 3, 1, "ComplexFloatTensor", "ComplexFloat",
                  "c10::complex<float>")
complex128 = dtype("complex128", np.complex128, 3, 2, "ComplexDoubleTensor", "ComplexDouble",
                   "c10::complex<double>")

# the reduced floating types, stored with ml_dtypes' NumPy types: bfloat16 computes in float32
# and rounds, as torch's CPU kernels do; the float8 types only store (rank -1: no promotion).
# ml_dtypes takes long to import, so their NumPy dtypes are attached on first use (load_reduced)
bfloat16 = dtype("bfloat16", None, 2, 0, "BFloat16Tensor", "BFloat16", "c10::BFloat16", 2)
float8_e4m3fn = dtype("float8_e4m3fn", None, 2, -1, "Float8_e4m3fnTensor", "Float8_e4m3fn",
                      "c10::Float8_e4m3fn", 1)
float8_e5m2 = dtype("float8_e5m2", None, 2, -1, "Float8_e5m2Tensor", "Float8_e5m2",
                    "c10::Float8_e5m2", 1)
float8_e4m3fnuz = dtype("float8_e4m3fnuz", None, 2, -1, "Float8_e4m3fnuzTensor",
                        "Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", 1)
float8_e5m2fnuz = dtype("float8_e5m2fnuz", None, 2, -1, "Float8_e5m2fnuzTensor",
                        "Float8_e5m2fnuz", "c10::Float8_e5m2fnuz", 1)
FLOAT8 = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz)
# the quantized types: their tensors store integers (the NumPy dtype here) with a scale and zero
# point (ember.ao.quantization); rank -2: no promotion, no NumPy kernels
qint8 = dtype("qint8", np.int8, 1, -2, "QInt8Tensor", "QInt8", "c10::qint8")
quint8 = dtype("quint8", np.uint8, 1, -2, "QUInt8Tensor", "QUInt8", "c10::quint8")
qint32 = dtype("qint32", np.int32, 1, -2, "QInt32Tensor", "QInt32", "c10::qint32")
quint4x2 = dtype("quint4x2", np.uint8, 1, -2, "QUInt4x2Tensor", "QUInt4x2", "c10::quint4x2")
quint2x4 = dtype("quint2x4", np.uint8, 1, -2, "QUInt2x4Tensor", "QUInt2x4", "c10::quint2x4")
QUANTIZED = (qint8, quint8, qint32, quint4x2, quint2x4)
_REDUCED_NAMES = frozenset(d.name for d in (bfloat16, *FLOAT8))
REDUCED: dict = {}      # NumPy dtype -> reduced ember dtype (no NumPy kernels of their own)

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
cfloat, cdouble = complex64, complex128

ALL = (bool, uint8, int8, int16, int32, int64, uint16, uint32, uint64, float16, float32,
       float64, complex64, complex128, bfloat16, *FLOAT8)
_BY_NP = {d.np: d for d in ALL if d.name not in _REDUCED_NAMES}    # the reduced join on load
_BY_NAME = {d.name: d for d in (*ALL, *QUANTIZED)}
dtype.__module__ = __package__                        # ``ember.dtype``, as ``torch.dtype``
_SATURATE: dict = {}        # torch's casts to e4m3fn saturate at its maximum


def load_reduced() -> None:
    """Import ml_dtypes and attach its NumPy dtypes to bfloat16 and the float8 types (once)."""
    if REDUCED:
        return
    import ml_dtypes

    for d in (bfloat16, *FLOAT8):
        d.np = np.dtype(getattr(ml_dtypes, d.name))
    REDUCED.update({d.np: d for d in (bfloat16, *FLOAT8)})
    _BY_NP.update(REDUCED)
    _SATURATE[float8_e4m3fn.np] = 448.0


def _load_if_foreign() -> builtins.bool:
    """Load the reduced types when ml_dtypes is imported elsewhere (an array of its types may
    reach ember from outside); whether that added any."""
    if REDUCED or "ml_dtypes" not in sys.modules:
        return False
    load_reduced()
    return True


def cpu_type_name(d) -> str:
    """torch's name of a CPU tensor type in its older messages: the legacy class
    (``torch.FloatTensor``) where one is named so, else ``CPU<Scalar>Type``."""
    if d.scalar_name in ("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"):
        return f"torch.{d._legacy}"
    return f"CPU{d.scalar_name}Type"


def no_barebones_kernel(kernel: str, *dtypes) -> None:
    """torch's NotImplementedError for ``kernel``, which has no loop for uint16, uint32 or
    uint64, when one of ``dtypes`` (ember dtypes or None) is one of them."""
    for d in dtypes:
        if d in BAREBONES:
            raise NotImplementedError(f'"{kernel}" not implemented for \'{d.scalar_name}\'')


def _by_name(name: str) -> dtype:
    return _BY_NAME[name]


def _numpy_type_error(t: type) -> str:
    """torch's message for a NumPy scalar type ``t`` it has no dtype for (the list is
    torch's)."""
    return (f"can't convert np.ndarray of type {t.__module__}.{t.__name__}. The only supported "
            "types are: float64, float32, float16, complex64, complex128, int64, int32, int16, "
            "int8, uint64, uint32, uint16, uint8, and bool.")


def from_numpy_dtype(np_dtype) -> dtype:
    """The ember dtype that stores elements as ``np_dtype`` (TypeError if there is none)."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except KeyError:
        if _load_if_foreign():
            return from_numpy_dtype(np_dtype)
        raise TypeError(_numpy_type_error(np.dtype(np_dtype).type)) from None


_default = {"dtype": float32}


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats (``float32`` unless changed)."""
    return _default["dtype"]


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype; only ``float32`` and ``float64`` (and half) are allowed."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default["dtype"] = d


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype both ``type1`` and ``type2`` convert to without losing category
    (torch's table).

    >>> promote_types(int8, uint8)
    torch.int16
    """
    if type1 is type2:
        return type1
    if type1._rank == -2 or type2._rank == -2:
        raise RuntimeError("promoteTypes with quantized numbers is not handled yet; figure out "
                           "what the correct rules should be, offending types: "
                           f"{type1.scalar_name} {type2.scalar_name}")
    if type1._rank < 0 or type2._rank < 0:
        raise RuntimeError("Promotion for Float8 Types is not supported, attempted to promote "
                           f"{type1.scalar_name} and {type2.scalar_name}")
    if type1 in BAREBONES or type2 in BAREBONES:
        other = type2 if type1 in BAREBONES else type1
        if other.is_floating_point:       # (a floating type is the only one they reach)
            return other
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                           f"attempted to promote {type1.scalar_name} and {type2.scalar_name}")
    if type1._category == type2._category == 2 and type1._rank == type2._rank:  # f16, bf16
        return float32
    if type1._category != type2._category:
        hi, lo = (type1, type2) if type1._category > type2._category else (type2, type1)
        if hi.is_complex and lo.is_floating_point and lo is float64:
            return complex128
        return hi
    if type1._category == 1 and (type1 is uint8 or type2 is uint8):
        other = type2 if type1 is uint8 else type1
        return int16 if other is int8 else other
    return type1 if type1._rank > type2._rank else type2


def check_python_int(x) -> None:
    """torch's error for a Python int that no Scalar holds (int64 and uint64 do)."""
    if isinstance(x, builtins.int) and not -2 ** 63 <= x < 2 ** 64:
        raise OverflowError("int too big to convert" if x > 0 else
                            "can't convert negative int to unsigned")


def _scalar_dtype(x) -> dtype:
    """The dtype a Python number takes as a wrapped number."""
    if isinstance(x, builtins.bool):
        return bool
    if isinstance(x, builtins.int):
        check_python_int(x)
        return int64
    if isinstance(x, builtins.float):
        return get_default_dtype()
    if isinstance(x, builtins.complex):
        return get_default_dtype().to_complex()
    if isinstance(x, np.generic):
        d = from_numpy_dtype(x.dtype)
        return int64 if d in BAREBONES else d     # (read as a Python int)
    from . import _errors  # (a call torch's parser refuses: its error)
    raise _errors.call_failure() or TypeError(f"unsupported scalar type {type(x).__name__}")


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """Merge the result of a higher priority tier with a lower one (torch's combine_categories)."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type_of(tensor=None, other=None, *, scalar=None, scalar1=None,
                   scalar2=None) -> dtype:
    """``torch.result_type(tensor, other)`` under each of torch's parameter names (``scalar``,
    ``scalar1``, ``scalar2`` name a number in its other overloads)."""
    given = [v for v in (scalar, scalar1, tensor, other, scalar2) if v is not None]
    if len(given) != 2:
        raise TypeError("result_type() takes 2 arguments")
    return result_type(*given)


def result_type(*operands) -> dtype:
    """The dtype of an op's result over tensors and Python numbers (``torch.result_type``).

    >>> import ember
    >>> result_type(ember.tensor([1, 2], dtype=ember.int32), 2.5)
    torch.float32
    """
    dim = zero = wrapped = None
    for x in operands:
        d = getattr(x, "dtype", None)
        if isinstance(d, dtype):
            if x.ndim:
                dim = d if dim is None else promote_types(dim, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        else:
            d = _scalar_dtype(x)
            wrapped = d if wrapped is None else promote_types(wrapped, d)
    return _combine(dim, _combine(zero, wrapped))


def can_cast(from_: dtype, to: dtype) -> builtins.bool:
    """Whether an in-place op may write a ``from_`` result into a ``to`` tensor.

    Allowed unless the category would drop (float into int, int into bool …).
    """
    return from_._category <= to._category or (from_._category == 0)


# ----------------------------------------------------------------------------- reduced types

_F16, _F64 = np.dtype(np.float16), np.dtype(np.float64)
_F32 = np.dtype(np.float32)


def is_reduced(np_dtype) -> builtins.bool:
    """Whether ``np_dtype`` is bfloat16 or a float8 type (no NumPy kernels of its own)."""
    return np_dtype in REDUCED


def is_half(np_dtype) -> builtins.bool:
    """Whether ``np_dtype`` is float16 or bfloat16 (torch's kernels compute in float)."""
    return np_dtype == _F16 or np_dtype == bfloat16.np


def cast(arr: np.ndarray, d: dtype) -> np.ndarray:
    """``arr`` converted to ``d`` as torch converts: into a reduced type through float32
    (float16's too: ``c10::Half`` is made from a float, a double rounding from float64)."""
    if d.np not in REDUCED or arr.dtype == d.np:
        if arr.dtype.kind == "V" and d.np.kind in "iu":    # bfloat16: c10 converts its float
            arr = arr.astype(_F32)
        return through_float(arr, d.np).astype(d.np)
    if arr.dtype.kind == "c":
        arr = arr.real
    if arr.dtype != _F32:
        arr = arr.astype(_F32)
    hi = _SATURATE.get(d.np)
    if hi is not None:
        arr = np.clip(arr, -hi, hi)
    return arr.astype(d.np)


def through_float(a, npdt):
    """A double (array or Python float) bound for float16 or a reduced type rounded to float32
    first: ``c10::Half`` (``c10::BFloat16`` …) is made from a float, so torch rounds twice.
    Complex values bound for a real type give their real parts (rounded the same way), for
    bool whether they are nonzero; anything else unchanged."""
    if npdt is not None and isinstance(a, np.ndarray) and a.dtype.kind == "c" \
            and npdt.kind != "c":
        if npdt.kind == "b":
            return a != 0
        a = a.real
    if npdt == _F16 or npdt in REDUCED:
        if isinstance(a, np.ndarray):
            return a.astype(_F32) if a.dtype == _F64 else a
        if isinstance(a, builtins.float):          # (np.float64 too)
            return np.float32(a)
    return a


COMPLEX_TO_REAL = ("Casting complex values to real discards the imaginary part (Triggered "
                   "internally at /__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)")


def warn_complex_to_real(src_npdt, dst_npdt) -> None:
    """torch's once-a-process warning of a copy of complex values into a real (not bool)
    dtype."""
    if src_npdt.kind == "c" and dst_npdt.kind not in "cb":
        from ._errors import warn_once
        warn_once("complex_to_real", COMPLEX_TO_REAL)


def check_numpy_dtype(np_dtype) -> None:
    """torch's TypeError for a NumPy array of a type it cannot take (ml_dtypes' included)."""
    if np_dtype in REDUCED or (_load_if_foreign() and np_dtype in REDUCED):
        raise TypeError(_numpy_type_error(REDUCED[np_dtype].np.type))
    from_numpy_dtype(np_dtype)


def overflow_error(npdt, cname: bool = False) -> RuntimeError:
    """torch's error for a number that does not fit ``npdt`` (``cname``: C++ type names)."""
    name = C_NAMES.get(npdt.name, npdt.name + "_t") if cname else npdt.name
    return RuntimeError(f"value cannot be converted to type {name} without overflow")


_BF16_MAX = 3.3895313892515355e38
C_NAMES = {"float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float",
           "float64": "double", "int32": "int", "complex64": "c10::complex<float>",
           "complex128": "c10::complex<double>"}


def checked_scalar(value, npdt, numel: int = 2):
    """A number as torch's ``Scalar::to<T>`` converts it for a kernel of NumPy type ``npdt``
    (``checked_convert``): torch's RuntimeError where it does not fit, a negative int
    wrapped for an unsigned type; a one-element fill (``numel``) stores a float16
    unchecked."""
    npdt = np.dtype(npdt)
    kind = npdt.kind
    check_python_int(value)
    if kind == "V":        # ml_dtypes' types (float8 are not checked)
        if npdt.name != "bfloat16":
            return value
        if isinstance(value, (builtins.int, builtins.float)) and math.isfinite(value) \
                and abs(value) > _BF16_MAX:
            raise overflow_error(npdt, True)
        return np.float32(value) if value.__class__ is builtins.float else value
    if kind == "b" or (npdt.itemsize < 4 and kind == "f" and numel == 1) or isinstance(
            value, np.generic):
        return through_float(value, npdt)
    if isinstance(value, builtins.complex):
        if kind != "c" and value.imag != 0:
            raise overflow_error(npdt, True)
        if kind != "c":
            value = value.real
    if kind in "fc":
        finfo = np.finfo(npdt)
        parts = (value.real, value.imag) if isinstance(value, builtins.complex) else (value,)
        if any(np.isfinite(v) and abs(v) > finfo.max for v in parts):
            raise overflow_error(npdt, True)
        return through_float(value, npdt)
    info = np.iinfo(npdt)
    low = info.min if info.min < 0 else -info.max
    if isinstance(value, builtins.float) and not (np.isfinite(value)
                                                  and info.min <= value <= info.max):
        raise overflow_error(npdt, True)
    if isinstance(value, builtins.int) and not low <= value <= info.max:
        raise overflow_error(npdt, True)
    if isinstance(value, builtins.int) and value < 0 and info.min == 0:
        return value % (info.max + 1)      # a negative int wraps, as in torch
    return value


def scalar_array(value, npdt, numel: int = 2) -> np.ndarray:
    """A number (or a 0-d array holding one) as a 0-d array of ``npdt``, converted as torch's
    fill kernels convert a Scalar (:func:`checked_scalar`)."""
    if isinstance(value, np.ndarray):
        value = value.item()
    return np.asarray(checked_scalar(value, npdt, numel)).astype(npdt)
