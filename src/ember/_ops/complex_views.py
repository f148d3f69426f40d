"""``view_as_real``, ``view_as_complex`` (views sharing memory, as torch's) and ``polar``."""

from __future__ import annotations

from .. import _memory_format as _mf
from .._device import xp
from .._tensor import CONJ, Tensor, watch_conj
from ..autograd import grad_mode
from ._libm import c_float, double_fn
from .registry import NONE, check_out_same_dtype, expose, op
from .util import c_order

_as_strided = xp.lib.stride_tricks.as_strided
_COMPLEX_OF = {"float16": None, "float32": xp.complex64, "float64": xp.complex128}


def _check_real(self) -> None:
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")


def _check_complex(self) -> None:
    if self.dtype.name not in ("float32", "float64"):
        name = self.dtype.scalar_name
        if self.dtype.name == "float16":
            raise NotImplementedError("view_as_complex: complex32 is not supported")
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {name}")
    if not self.ndim or self.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if self.stride(-1) != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in self.stride()[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last "
                           "dimension")


@op("ViewAsRealBackward0", name="view_as_real_op", promote=NONE, method=False, function=False,
    view=True, check=_check_real, holomorphic=False,
    self=lambda grad: view_as_complex(grad.contiguous()))
def _view_as_real(self):
    re = self.real
    return _as_strided(re, self.shape + (2,), self.strides + (re.itemsize,))


@expose(method=False)
def view_as_real(input: Tensor) -> Tensor:
    """A real view of a complex tensor: a last dimension of (real, imaginary) (torch refuses
    a tensor with the conjugate bit set: its memory holds the unconjugated values)."""
    if CONJ and input in CONJ:
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To "
                           "resolve the conjugate tensor so you can view it as real, use "
                           "self.resolve_conj(); however, be warned that the resulting tensor "
                           "will NOT alias the original.")
    return _view_as_real(input)


@op("ViewAsComplexBackward0", promote=NONE, method=False, view=True, check=_check_complex,
    holomorphic=False,
    self=lambda grad: _view_as_real(grad))
def view_as_complex(self):
    """A complex view of a real tensor whose last dimension (of size 2) is (real, imag)."""
    return self.view(_COMPLEX_OF[self.dtype.name])[..., 0]


def _no_grad_support(name: str, *tensors) -> None:
    """Raise rather than silently drop a gradient torch would compute."""
    if grad_mode._state.enabled and any(isinstance(t, Tensor) and t.requires_grad
                                       for t in tensors):
        raise NotImplementedError(f"{name}: ember has no complex autograd yet")


def _check_parts(a, b) -> None:
    floats = ("float16", "float32", "float64")
    if a.dtype.name not in floats or b.dtype.name not in floats:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a.dtype.scalar_name} and {b.dtype.scalar_name}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"Expected object of scalar type {a.dtype.scalar_name} but got "
                           f"scalar type {b.dtype.scalar_name} for second argument")
    if a.dtype.name == "float16":
        raise NotImplementedError('"polar_cpu" not implemented for \'Half\'')
    if a.dtype.name not in ("float32", "float64"):
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a.dtype.scalar_name} and {b.dtype.scalar_name}")


def _polar_abs_grad(grad, result):
    return (grad.conj() * result.sgn()).real


def _polar_angle_grad(grad, result):
    return (grad.conj() * (result * 1j)).real


def _from_parts(real, imag, like=None):
    """The complex array ``real + i imag`` of two broadcast real arrays, laid out as
    TensorIterator lays out a result of the operands ``like`` (``real`` and ``imag``)."""
    a, b = xp.broadcast_arrays(real, imag)
    res = _mf.ti_layout(xp.empty(a.shape, _COMPLEX_OF[a.dtype.name]), *(like or (real, imag)))
    res.real = a
    res.imag = b
    return res


@op("PolarBackward0", name="polar_op", method=False, function=False, promote=NONE,
    holomorphic=False, check=_check_parts, abs=_polar_abs_grad, angle=_polar_angle_grad)
def _polar_op(abs, angle):
    # polar_kernel's scalar loop: a * std::cos(b), a * std::sin(b) (glibc's cosf/sinf for float)
    a, t = xp.broadcast_arrays(abs, angle)
    if t.dtype == xp.float32:
        return _from_parts(a * c_float("cosf")(t), a * c_float("sinf")(t), (abs, angle))
    return _from_parts(a * double_fn("cos")(t), a * double_fn("sin")(t), (abs, angle))


@expose(method=False)
def polar(abs: Tensor, angle: Tensor, *, out=None) -> Tensor:
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``.

    >>> ember.polar(ember.tensor([2.]), ember.tensor([0.]))
    tensor([2.+0.j])
    """
    result = _polar_op(abs, angle)
    return result if out is None else out.resize_(result.shape).copy_(result)


@op("ComplexBackward0", name="complex_op", method=False, function=False, promote=NONE,
    holomorphic=False, check=_check_parts, real=lambda grad: grad.real,
    imag=lambda grad: grad.imag)
def _complex_op(real, imag):
    return _from_parts(real, imag)


@expose(method=False)
def complex(real: Tensor, imag: Tensor, *, out=None) -> Tensor:
    """The complex tensor ``real + i imag``.

    >>> ember.complex(ember.tensor([1.]), ember.tensor([2.]))
    tensor([1.+2.j])
    """
    result = _complex_op(real, imag)
    return result if out is None else out.resize_(result.shape).copy_(result)


@op("ConjBackward0", name="conj_op", method=False, function=False, promote=NONE,
    holomorphic=False, self=lambda grad: grad.conj())
def _conj_op(self):
    return _conj_strided(self)


def _conj_strided(a):
    """``conj(a)`` laid out with ``a``'s own strides, as torch's view (the memory ``a`` spans,
    conjugated, seen through its strides)."""
    item = a.itemsize
    if not a.size or any(s < 0 or s % item for s in a.strides):
        return xp.conj(a)
    span = sum((n - 1) * s for n, s in zip(a.shape, a.strides)) // item + 1
    flat = xp.conj(_as_strided(a, (span,), (item,)))
    return _as_strided(flat, a.shape, a.strides)


@op("ConjPhysicalBackward0", name="conj_physical_op", method=False, function=False,
    promote=NONE, holomorphic=False, self=lambda grad: grad.conj_physical())
def _conj_physical_op(self):
    return xp.conj(self)


@expose
def conj(input: Tensor) -> Tensor:
    """The complex conjugate (the tensor itself for non-complex dtypes), as torch's: a view
    with the conjugate bit flipped (``is_conj``), whose writes reach ``input`` conjugated.

    ember stores the conjugated elements (a copy that the version counter keeps in step with
    ``input``, :func:`ember._tensor.watch_conj`); under autograd it is not a view (torch's
    in-place ops through it would rebase ``input``'s history).
    """
    if not input.dtype.is_complex:
        return input
    out = _conj_op(input)
    if not (CONJ and input in CONJ):
        CONJ.add(out)
    if not out.requires_grad:
        out._base = input if input._base is None else input._base
        out._vc = input._vc
        watch_conj(out, input._data)
    return out


@expose
def conj_physical(input: Tensor, *, out=None) -> Tensor:
    """The complex conjugate, computed (a non-complex tensor is returned as it is, as
    torch's)."""
    if out is None and isinstance(input, Tensor) and not input.dtype.is_complex:
        return input
    if out is not None:
        check_out_same_dtype(out, input)
    result = _conj_physical_op(input)
    if out is None:
        return result
    from .registry import _write_out
    # (resized to TensorIterator's layout)
    return _write_out(out, _mf.ti_layout(result._data, input._data))


@expose
def resolve_conj(input: Tensor) -> Tensor:
    """``input`` with its conjugate bit resolved: a copy without the bit, or ``input``
    itself when the bit is not set."""
    return input.clone() if CONJ and input in CONJ else input


@expose
def is_conj(input: Tensor) -> bool:
    """Whether ``input`` has the conjugate bit set (a ``conj()`` of a complex tensor, or a
    view of one)."""
    return bool(CONJ) and input in CONJ


@expose
def resolve_neg(input: Tensor) -> Tensor:
    """``input`` itself: ember never holds a lazy negation."""
    return input


@expose
def is_neg(input: Tensor) -> bool:
    """False: ember's negations are computed, never lazy."""
    return False


__all__ = ["view_as_real", "view_as_complex", "polar", "complex", "conj", "conj_physical",
           "resolve_conj", "is_conj"]


def _angle_grad(grad, self):
    """``angle_backward``: 0 for real inputs; ``grad * z / |z|^2 * i`` (0 at 0) for complex."""
    from .._factories import zeros_like
    if not self.dtype.is_complex:
        return zeros_like(self)
    from .pointwise import where
    return where(self == 0.0, zeros_like(self), grad * self / self.abs().pow(2) * 1j)


@op("AngleBackward0", promote=NONE, pointwise=False, self=_angle_grad)
def angle(self):
    """The argument of each element: ``atan2(imag, real)`` for complex inputs (a real
    result), ``pi`` for negative and 0 for other real inputs (nan stays nan).

    >>> ember.angle(ember.tensor([-1.0, 2.0]))
    tensor([3.1416, 0.0000])
    """
    if self.dtype.kind == "c":
        # (torch computes a complex input's angle into a new real tensor of C order)
        if xp.__name__ == "numpy":
            from . import _sleef_atan2
            return c_order(_sleef_atan2.complex_angle(self))
        with xp.errstate(all="ignore"):
            return c_order(xp.arctan2(self.imag, self.real))
    x = self
    if x.dtype.kind in "biu":
        from .. import _dtype as D
        x = x.astype(D.get_default_dtype().np)
    out = xp.where(x < 0, x.dtype.type(xp.pi), x.dtype.type(0))
    out = xp.where(xp.isnan(x), x, out)
    return _mf.ti_layout(out, self) if out.ndim > 1 else out
