"""Reductions: sum, mean, prod, var/std (and their ``_mean`` pairs), norms, logsumexp, the
cumulative ops (cumsum, cumprod, cummax, cummin), all/any/count_nonzero, nansum/nanmean.

torch names the full reduction ``…Backward0`` and the one over dims ``…Backward1``; the
public ``sum``/``mean``/``prod`` pick the entry from the arguments, as torch's overloads do.
``dim`` is normalised once (:func:`_reduce_dims`: int, tuple or None, with torch's errors);
kernels receive the sorted tuple of reduced dims. Backward formulas are torch's
(``derivatives.yaml``), written with ember ops; masks are constants built from the data.
"""

from __future__ import annotations

from .. import _dtype as D
from .. import _errors
from .._device import xp
from .._dtype import can_cast, no_barebones_kernel, promote_types
from . import _exact, _vml
from ._exact import cascade_sum, exact_dtype, reduce_prod, summed_dtype
from .registry import (
    NONE,
    check_out_dtype,
    check_out_dtypes,
    check_out_tuple,
    expose,
    op,
    run,
    write_outs,
)
from .search import _return_type
from .shape import _flip
from .util import c_order, dim_not_none, norm_dim, norm_dims

_dtypes = D                     # (``D`` is deleted at the end of the module)

CummaxResult, CumminResult = _return_type("cummax"), _return_type("cummin")
_NO_DIM = object()


def _expand_back(grad, self_shape, dim, keepdim):
    if not keepdim:
        for d in dim:
            grad = grad.unsqueeze(d)
    return grad.expand(self_shape)


def _sum_dtype(self, dtype):
    if dtype is not None:
        return dtype.np
    return xp.int64 if self.dtype.kind in "biu" else self.dtype


@op("SumBackward0", name="sum_all", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape: grad.expand(self_shape))
def _sum_all(self, dtype=None):
    a = _cast(self, dtype)
    if a.dtype == xp.float16:
        return _half_in_float(_sum_all, a)
    if a.dtype in summed_dtype:
        return cascade_sum(a, (), False)
    return xp.sum(a, dtype=_sum_dtype(a, dtype))


@op("SumBackward1", name="sum_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim, keepdim: _expand_back(grad, self_shape, dim, keepdim))
def _sum_dim(self, dim, keepdim=False, dtype=None):
    a = _cast(self, dtype)
    if a.dtype == xp.float16:
        return _half_in_float(_sum_dim, a, dim, keepdim)
    if a.dtype in summed_dtype and a.ndim:
        return cascade_sum(a, dim, keepdim)
    if a.dtype == xp.float16 and a.ndim:
        # the Half kernel adds in float (its acc_type): float's order, one rounding
        return cascade_sum(a.astype(xp.float32), dim, keepdim).astype(xp.float16)
    if a.dtype in _COMPLEX_PARTS and dim and a.ndim - 1 not in dim \
            and a.strides[-1] == a.itemsize:
        # over outer dims a complex sum adds the parts as a float sum over the same bytes
        # does (a vector of complex values is one of twice as many floats)
        return c_order(cascade_sum(a.view(_COMPLEX_PARTS[a.dtype]), dim, keepdim)).view(a.dtype)
    return c_order(xp.add.reduce(a, axis=dim, keepdims=keepdim, dtype=_sum_dtype(a, dtype)))


def _half_in_float(op, a, *args):
    """A float16 sum or mean as torch's kernels compute it: in float32 (their vectorised
    loops convert each vector to float, as for bfloat16), rounded to float16 once."""
    return xp.asarray(op.kernel(a.astype(xp.float32), *args)).astype(xp.float16)


_COMPLEX_PARTS = {xp.dtype(xp.complex64): xp.dtype(xp.float32),
                  xp.dtype(xp.complex128): xp.dtype(xp.float64)}


def _fmean(a, dim, keepdim, dtype):
    """torch's CPU mean: the sum in torch's order, then divided by the count."""
    a = _cast(a, dtype)
    if a.dtype == xp.float16:
        return xp.asarray(_fmean(a.astype(xp.float32), dim, keepdim, None)).astype(xp.float16)
    if a.dtype not in summed_dtype:    # (``()`` is every dim, NumPy's None)
        return c_order(xp.mean(a, axis=dim or None, keepdims=keepdim))
    if a.ndim == 0:
        return a + xp.zeros((), a.dtype)
    dims = dim or tuple(range(a.ndim))
    return cascade_sum(a, dims, keepdim) / a.dtype.type(_numel([a.shape[d] for d in dims]))


def _reduce_dims(input, dim):
    """``dim`` normalised for a reduction: ``()`` means every dim; a 0-d tensor has none."""
    nd = input._data.ndim
    dims = norm_dims(dim, nd)
    if nd == 0:
        return ()
    return dims if dims or (dim is not None and not isinstance(dim, (tuple, list))) \
        else tuple(range(nd))


@expose(overloads=("(Tensor input, *, torch.dtype dtype = None)",
                   "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype "
                   "dtype = None, Tensor out = None)"), bools=("keepdim",))
def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum of all elements, or over ``dim`` (int or tuple), keeping dims if ``keepdim``."""
    if dim is None and not keepdim:
        if out is not None:         # (the sum of all elements takes no out=)
            raise _errors.Unparsed("sum() received an invalid combination of arguments")
        return _sum_all(input, dtype)
    # (dim=None with keepdim is torch's sum.dim_IntList over every dim)
    if out is not None and dtype is None and not _recording(input):
        natural = _dtypes.int64 if input.dtype._category < 2 else input.dtype
        if out.dtype is not natural:
            # (torch sums in out's type, the input converted to it first, a float16 or
            # bfloat16 one into float32 read as it is)
            from .registry import _write_out
            if input.dtype in (_dtypes.float16, _dtypes.bfloat16) and \
                    out.dtype is _dtypes.float32:
                res = sum(input, dim, keepdim, dtype=out.dtype)
            else:
                res = sum(input.to(out.dtype), dim, keepdim)
            return _write_out(out, res._data)
    return run(_sum_dim, (input, _reduce_dims(input, dim), keepdim, dtype), out)


def _recording(input) -> bool:
    """Whether autograd records an op on ``input`` (its out= form then refuses)."""
    from ..autograd import grad_mode
    return input.requires_grad and grad_mode._state.enabled


def _mean_check(input, dtype, name="mean"):
    dt = dtype or input.dtype
    if not (dt.is_floating_point or dt.is_complex):
        from .registry import _scalar_name
        raise RuntimeError(f"{name}(): could not infer output dtype. "
                           f"{'Input' if dtype is None else 'Optional'} dtype must be either a "
                           "floating point or complex dtype. Got: " + _scalar_name(dt))


@op("MeanBackward0", name="mean_all", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, self_numel: grad.expand(self_shape) / max(1, self_numel))
def _mean_all(self, dtype=None):
    with xp.errstate(invalid="ignore", divide="ignore"):
        return _fmean(self, (), False, dtype)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@op("MeanBackward1", name="mean_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, self_numel, dim, keepdim:     # (numel: kept as torch's)
        _expand_back(grad, self_shape, dim, keepdim) / _numel([self_shape[d] for d in dim]))
def _mean_dim(self, dim, keepdim=False, dtype=None):
    with xp.errstate(invalid="ignore", divide="ignore"):
        return _fmean(self, dim, keepdim, dtype)


@expose(bools=("keepdim",))
def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean of all elements, or over ``dim``; floating (or complex) dtypes only."""
    _mean_check(input, dtype)
    whole = dim is None and not keepdim
    if out is not None and dtype is None and not _recording(input):
        if whole and not can_cast(input.dtype, out.dtype):
            raise RuntimeError("mean.dtype_out(): input types can't be cast to the desired "
                               f"output type {out.dtype.scalar_name}")
        # (over dims torch sums into ``out`` in its dtype, then divides it in place: a
        # complex input gives its real part, an integral ``out`` refuses the quotient)
        if not whole and not (out.dtype.is_floating_point or out.dtype.is_complex):
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               f"{out.dtype.scalar_name}")
        if not whole and input.dtype.is_complex and not out.dtype.is_complex:
            input = input.real
        if out.dtype is not input.dtype:        # (summed in out's type, a reduced one's in
            dt = out.dtype if out.dtype.itemsize > 2 else _dtypes.float32       # float)
            from .registry import _write_out
            return _write_out(out, mean(input, dim, keepdim, dtype=dt)._data)
    if whole:
        return run(_mean_all, (input, dtype), out)
    return run(_mean_dim, (input, _reduce_dims(input, dim), keepdim, dtype), out)


# ----------------------------------------------------------------------------- shared helpers

def _wrap(arr):
    from .._tensor import Tensor
    return Tensor._wrap(arr)


def _unsq(t, dims, keepdim):
    """Re-insert the reduced ``dims`` (sorted) of a reduction's output when not ``keepdim``."""
    if not keepdim:
        for d in dims:
            t = t.unsqueeze(d)
    return t


def _scalar_name(dt):
    from .registry import _scalar_name as name
    return name(dt)


def _check_float(input, msg):
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(msg)


def _rev_cumsum(grad, dim):
    """``grad.flip(dim).cumsum(dim).flip(dim)``: the backward of cumsum (torch's order)."""
    if grad._data.size <= 1 or grad._data.shape[dim] == 1:
        return grad
    return _flip(cumsum(_flip(grad, (dim,)), dim), (dim,))


# ----------------------------------------------------------------------------- prod

def _prod_safe_zeros(grad, inp, dim):
    """torch's prod_safe_zeros_backward: exclusive products from the left and the right."""
    from .shape import cat
    n = inp._data.shape[dim]
    if inp._data.size == 0:
        return grad.expand(inp.shape)
    ones_shape = list(inp._data.shape)
    ones_shape[dim] = 1
    ones = _wrap(xp.ones(ones_shape, grad._data.dtype))
    left = cumprod(cat([ones, inp.narrow(dim, 0, n - 1)], dim), dim)
    right = cumprod(cat([ones, _flip(inp.narrow(dim, 1, n - 1), (dim,))], dim), dim)
    return grad * (left * _flip(right, (dim,)))


def _prod_back_all(grad, self, result):
    if self._data.ndim == 0:
        return grad
    self = self.to(grad.dtype)          # (torch's prod_backward(grad, self.to(grad's type)))
    if not (self._data == 0).any():
        return grad * (result / self)
    return _prod_safe_zeros(grad, self.reshape(-1), 0).reshape(self.shape)


def _prod_back_dim(grad, self, result, dim, keepdim):
    if self._data.ndim == 0:
        return grad
    self = self.to(grad.dtype)
    if not keepdim:
        grad, result = grad.unsqueeze(dim), result.unsqueeze(dim)
    if not (self._data == 0).any():
        return grad * (result / self)
    return _prod_safe_zeros(grad, self, dim)


def _cast(a, dtype):
    if dtype is None or a.dtype == dtype.np:
        return a
    if a.dtype.kind == "V" and dtype.np.kind in "iu":   # (bfloat16: c10 converts its float)
        a = a.astype(xp.float32)
    return a.astype(dtype.np)


@op("ProdBackward0", name="prod_all", method=False, function=False, promote=NONE,
    self=lambda grad, self, result: _prod_back_all(grad, self, result))
def _prod_all(self, dtype=None):
    a = _cast(self, dtype)
    if a.dtype in exact_dtype or a.dtype.kind == "c" or _half(a):
        return reduce_prod(a, (), False)
    return xp.prod(a, dtype=_sum_dtype(a, dtype))


def _half(a):
    """float16 or bfloat16, whose products reduce_prod rounds as torch's kernel does."""
    return a.itemsize == 2 and a.dtype.kind in "fV"


@op("ProdBackward1", name="prod_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self, result, dim, keepdim: _prod_back_dim(grad, self, result, dim,
                                                                 keepdim))
def _prod_dim(self, dim, keepdim=False, dtype=None):
    a = _cast(self, dtype)
    if a.ndim == 0:
        return a.astype(_sum_dtype(a, dtype))
    if a.dtype in exact_dtype or a.dtype.kind == "c" or _half(a):
        return reduce_prod(a, (dim,), keepdim)
    return c_order(xp.prod(a, axis=dim, keepdims=keepdim, dtype=_sum_dtype(a, dtype)))


@expose(overloads=("(Tensor input, *, torch.dtype dtype = None)",
                   "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
                   "Tensor out = None)"), bools=("keepdim",))
def prod(input, dim=_NO_DIM, keepdim=False, *, dtype=None, out=None):
    """Product of all elements, or over one ``dim``; integral inputs give int64.

    >>> ember.tensor([[1., 2.], [3., 4.]]).prod(0)
    tensor([3., 8.])
    """
    if dim is _NO_DIM and out is None and not keepdim:
        return run(_prod_all, (input, dtype))
    if not isinstance(dim, int) or isinstance(dim, bool):   # (the product of all elements
        # takes no out=)
        raise _errors.Unparsed("prod() received an invalid combination of arguments")
    nd = input._data.ndim
    if out is not None and dtype is None:
        dtype = out.dtype       # (prod_out_impl: the product of self.to(out's dtype))
    return run(_prod_dim, (input, norm_dim(dim, nd), keepdim, dtype), out)


# ----------------------------------------------------------------------------- var / std

_VAR_OVERLOADS = (
    "(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
    "Tensor out = None)",
    "(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = "
    "False, Tensor out = None)",
    "(Tensor input, bool unbiased = True)")
# (var_mean and std_mean: the same, with no out=)
_MEAN_PAIR_OVERLOADS = tuple(o.replace(", *, Tensor out = None", "").replace(
    ", Tensor out = None", "") for o in _VAR_OVERLOADS)


def _var_args(fname, dim, unbiased, correction, keepdim=False):
    """torch's overloads: ``var(dim, unbiased, keepdim)``, ``var(unbiased)``, ``correction=``."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    elif unbiased is not None and (correction is not None or dim is None and keepdim):
        raise _errors.Unparsed(f"{fname}() received an invalid combination of arguments")
    if unbiased is not None and correction is not None:
        raise TypeError(f"{fname}(): argument 'correction' cannot be passed together with "
                        "'unbiased'")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, correction


def _dof_warn(fname, input, dims, correction):
    n = _numel([input._data.shape[d] for d in dims]) if input._data.ndim else 1
    if n - correction <= 0:
        import warnings
        warnings.warn(_errors.internal(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than "
            "the reduction factor (input numel divided by output numel).",
            "aten/src/ATen/native/ReduceOps.cpp:1861"),
            UserWarning, stacklevel=_errors.user_stacklevel())


def _var_kernel(self, dim, correction, keepdim, take_sqrt=False, with_mean=False):
    """var (std with ``take_sqrt``) over ``dim``; with ``with_mean`` the pair (that, mean)."""
    with xp.errstate(invalid="ignore", divide="ignore"):
        if self.ndim == 0:       # (complex: a real variance)
            r = xp.asarray(xp.nan if correction else 0.0, self.real.dtype) + self.real * 0
            return (r, self.copy()) if with_mean else r
        if self.size == 0 or _numel([self.shape[d] for d in dim]) == 0:
            shape = [1 if d in dim else s for d, s in enumerate(self.shape)] if keepdim else \
                [s for d, s in enumerate(self.shape) if d not in dim]
            r = xp.full(shape, xp.nan, self.real.dtype)    # (complex: a real variance)
            return (r, _mean_kernel(self, dim, keepdim)) if with_mean else r
        if self.dtype in exact_dtype:
            return _var_exact(self, dim, correction, keepdim, take_sqrt, with_mean)
        if self.dtype == xp.float16:    # (torch's WelfordOps in double, all-reduce too,
            # its results through float: the square root taken there)
            r, m = (x.astype(xp.float32) for x in _exact.welford(
                self.astype(xp.float64), dim, correction, False, keepdim))
            r = (xp.sqrt(r) if take_sqrt else r).astype(self.dtype)
            return (r, m.astype(self.dtype)) if with_mean else r
        if self.real.dtype in exact_dtype:      # complex: ATen's var of each part, added
            re, im = (_var_kernel(p, dim, correction, keepdim, False, with_mean)
                      for p in (self.real, self.imag))
            if not with_mean:                   # (torch's sqrt: VML's)
                return _vml.sqrt(re + im) if take_sqrt else re + im
            r = _vml.sqrt(re[0] + im[0]) if take_sqrt else re[0] + im[0]
            m = xp.empty(re[1].shape, self.dtype)
            m.real, m.imag = re[1], im[1]
            return r, m
        r = _var_numpy(self, dim, correction, keepdim)
        r = xp.sqrt(r) if take_sqrt else r
        return (r, _mean_kernel(self, dim, keepdim)) if with_mean else r


def _var_exact(self, dim, correction, keepdim, take_sqrt, with_mean):
    """torch's CPU var/std: ``std_var_all_cpu`` for one output (squared deviations from
    the float mean, in double), ``WelfordOps`` in double over dims."""
    n = _numel([self.shape[d] for d in dim])
    full = n == self.size
    if full and not with_mean:
        r = _exact.var_all(self, _fmean(self, dim, False, None), correction, take_sqrt)
        shape = [1 if d in dim else s for d, s in enumerate(self.shape)] if keepdim else \
            [s for d, s in enumerate(self.shape) if d not in dim]
        return xp.asarray(r).astype(self.dtype).reshape(shape)
    r, m = _exact.welford(self, dim, correction, take_sqrt, keepdim)
    return (r, m) if with_mean else r


def _var_numpy(self, dim, correction, keepdim):
    with xp.errstate(invalid="ignore", divide="ignore"):
        n = _numel([self.shape[d] for d in dim])
        mean = xp.mean(self, axis=dim, keepdims=True)
        dev = self - mean
        sq = (dev * xp.conj(dev)).real if xp.iscomplexobj(dev) else dev * dev
        total = xp.sum(sq, axis=dim, keepdims=keepdim)
        return c_order((total / max(n - correction, 0)).astype(total.dtype))


def _var_back(grad, self, dim, correction, keepdim, full):
    """torch's var_backward: ``2 / (N - correction) * grad * (self - mean)``."""
    if self._data.ndim == 0 or full:
        dof = self._data.size - correction
        if dof <= 0:
            inf = xp.where(self._data == xp.mean(self._data), xp.nan, xp.inf)
            return grad * _wrap(inf.astype(self._data.dtype))
        return (2.0 / dof) * grad * (self - self.mean())
    grad = _unsq(grad, dim, keepdim)
    dof = _numel([self._data.shape[d] for d in dim]) - correction
    scale = 2.0 / dof if dof else float("inf")
    return scale * grad * (self - self.mean(dim, keepdim=True))


def _std_back(grad, self, result, dim, correction, keepdim, full):
    zero = _wrap(result._data == 0)
    g = ember_where(zero, 0.0, grad / (result * 2))
    return _var_back(g, self, dim, correction, keepdim, full)


def ember_where(cond, a, b):
    from .pointwise import where
    return where(cond, a, b)


def _mean_back(grad, self, dim, keepdim, full):
    if full or self._data.ndim == 0:
        return grad.expand(self.shape) / max(1, self._data.size)
    return _unsq(grad, dim, keepdim).expand(self.shape) / _numel(
        [self._data.shape[d] for d in dim])


@op("VarBackward0", name="var_", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    self=lambda grad, self, dim, correction, keepdim, full:
        _var_back(grad, self, dim, correction, keepdim, full))
def _var(self, dim, correction, keepdim, full):
    return _var_kernel(self, dim, correction, keepdim)


@op("StdBackward0", name="std_", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    self=lambda grad, self, result, dim, correction, keepdim, full:
        _std_back(grad, self, result, dim, correction, keepdim, full))
def _std(self, dim, correction, keepdim, full):
    return _var_kernel(self, dim, correction, keepdim, take_sqrt=True)


def _mean_kernel(self, dim, keepdim):
    with xp.errstate(invalid="ignore", divide="ignore"):
        if self.ndim == 0:
            return self.copy()
        return c_order(xp.mean(self, axis=dim, keepdims=keepdim))


@op("VarMeanBackward0", name="var_mean_", method=False, function=False, promote=NONE,
    outputs=2, reduced_in_float=False,
    self=lambda grads, self, dim, correction, keepdim, full:
        _var_back(grads[0], self, dim, correction, keepdim, full)
        + _mean_back(grads[1], self, dim, keepdim, full))
def _var_mean(self, dim, correction, keepdim, full):
    return _var_kernel(self, dim, correction, keepdim, with_mean=True)


@op("StdMeanBackward0", name="std_mean_", method=False, function=False, promote=NONE,
    outputs=2, reduced_in_float=False,
    self=lambda grads, self, result, dim, correction, keepdim, full:
        _std_back(grads[0], self, result, dim, correction, keepdim, full)
        + _mean_back(grads[1], self, dim, keepdim, full))
def _std_mean(self, dim, correction, keepdim, full):
    return _var_kernel(self, dim, correction, keepdim, take_sqrt=True, with_mean=True)


def _var_family(d, fname, input, dim, unbiased, keepdim, correction, out):
    dim, correction = _var_args(fname, dim, unbiased, correction, keepdim)
    _check_float(input, f"{fname} only support floating point and complex dtypes"
                 if fname.endswith("_mean") else
                 "std and var only support floating point and complex dtypes")
    full = dim is None
    dims = _reduce_dims(input, dim)
    if out is not None and out.dtype is not input.dtype.to_real() and d in (_var, _std) \
            and not _recording(input):
        return _var_other_out(d, fname, input, dim, dims, correction, keepdim, out)
    if out is not None and not input.dtype.is_complex:     # (std_var_out's check)
        from .registry import check_out_cast
        check_out_cast(input.dtype, out)
    _dof_warn(fname, input, dims, correction)
    return run(d, (input, dims, correction, keepdim, full), out)


def _var_other_out(d, fname, input, dim, dims, correction, keepdim, out):
    """torch's ``std_var_out`` into an ``out`` of another dtype: a complex input's real and
    imaginary parts each into ``out``'s real type, added (then the square root, in
    ``out``'s type); a real input converted to ``out``'s type first, but a reduced input
    into one float result refused (its ``std_var_all`` path), a complex ``out`` refused
    by the kernel."""
    from .registry import FUNCTIONS
    if input.dtype.is_complex:
        rdt = out.dtype.to_real()
        parts = [_var_family(_var, fname, part, dim, None, keepdim, correction,
                             _wrap(xp.empty(0, rdt.np))) for part in (input.real, input.imag)]
        FUNCTIONS["add"](*parts, out=out)
        if d is _std:
            from .unary import sqrt
            run(sqrt, (out,), out)
        return out
    from .registry import check_out_cast
    check_out_cast(input.dtype, out)
    reduced = (_dtypes.float16, _dtypes.bfloat16)
    if not input._data.size:                    # (NaN, without a kernel)
        return run(d, (input, dims, correction, keepdim, dim is None), out)
    if out.dtype not in reduced and _numel(_reduced_shape(input, dims, keepdim)) == 1:
        if input.dtype in reduced:
            raise RuntimeError(f"std_var_all: Unsupported dtype {input.dtype.scalar_name}")
        return run(d, (input, dims, correction, keepdim, dim is None), out)
    if out.dtype.is_complex:
        raise NotImplementedError(f"\"std_cpu\" not implemented for "
                                  f"'{out.dtype.scalar_name}'")
    input = input.to(out.dtype)
    _dof_warn(fname, input, dims, correction)
    return run(d, (input, dims, correction, keepdim, dim is None), out)


def _reduced_shape(input, dims, keepdim):
    shape = input._data.shape
    return [1 if i in dims else n for i, n in enumerate(shape) if keepdim or i not in dims]


@expose(method=False, overloads=_VAR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """Variance over ``dim`` (all dims when None), Bessel-corrected unless ``correction=0``.

    >>> ember.tensor([1., 2., 3., 4.]).var()
    tensor(1.6667)
    """
    return _var_family(_var, "var", input, dim, unbiased, keepdim, correction, out)


@expose(name="var", function=False, overloads=_VAR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def _var_method(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """:func:`var` as a method (torch's parser errors name no ``input``)."""
    return _var_family(_var, "var", self, dim, unbiased, keepdim, correction, None)


@expose(method=False, overloads=_VAR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """Standard deviation over ``dim``; see :func:`var` for ``unbiased``/``correction``.

    >>> ember.tensor([1., 2., 3., 4.]).std()
    tensor(1.2910)
    """
    return _var_family(_std, "std", input, dim, unbiased, keepdim, correction, out)


@expose(name="std", function=False, overloads=_VAR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def _std_method(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """:func:`std` as a method (torch's parser errors name no ``input``)."""
    return _var_family(_std, "std", self, dim, unbiased, keepdim, correction, None)


@expose(method=False, overloads=_MEAN_PAIR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)`` over ``dim`` in one pass (a plain tuple, as torch returns).

    >>> ember.var_mean(ember.tensor([1., 2., 3.]))
    (tensor(1.), tensor(2.))
    """
    return _var_family(_var_mean, "var_mean", input, dim, unbiased, keepdim, correction, None)


@expose(method=False, overloads=_MEAN_PAIR_OVERLOADS,
        bools=("unbiased", "keepdim"))
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)`` over ``dim`` (a plain tuple, as torch returns).

    >>> ember.std_mean(ember.tensor([1., 2., 3.]))
    (tensor(1.), tensor(2.))
    """
    return _var_family(_std_mean, "std_mean", input, dim, unbiased, keepdim, correction, None)


# ----------------------------------------------------------------------------- norms

def _norm_back(grad, self, result, ord, dim, keepdim):
    """torch's norm_backward, written with ember ops (``dim`` is the sorted reduced dims)."""
    p = float(ord)
    if self._data.ndim and not keepdim:
        grad, result = _unsq(grad, dim, False), _unsq(result, dim, False)
    if p == 0.0:
        return None                       # torch: an undefined gradient
    if p == 1.0:
        return self.sgn() * grad
    if p == 2.0:
        return grad * ember_where(_wrap(result._data == 0), 0.0, self / result)
    if p in (float("inf"), float("-inf")):
        a = xp.abs(self._data)
        mask = _wrap((a == result._data) | xp.isnan(a))
        count = _wrap(xp.sum(mask._data, axis=dim, keepdims=True)) if dim else \
            _wrap(xp.asarray(mask._data.sum()))
        return self.sgn() * ((grad / count) * mask)
    if p < 1.0:
        scaled = self.sgn() * ember_where(_wrap(self._data == 0), 0.0, self.abs() ** (p - 1))
        return scaled * grad * result ** (1 - p)
    zero = _wrap(result._data == 0)
    if p < 2.0:
        scaled = self.sgn() * self.abs() ** (p - 1)
    else:
        scaled = self * self.abs() ** (p - 2)
    return scaled * ember_where(zero, 0.0, grad / result ** (p - 1))


@op("LinalgVectorNormBackward0", name="linalg_vector_norm", method=False, function=False,
    reduced_in_float=False,
    promote=NONE, self=lambda grad, self, result, ord, dim, keepdim:
        _norm_back(grad, self, result, ord, dim, keepdim))
def _vector_norm(self, ord, dim, keepdim, dtype):
    a = _cast(self, dtype)
    ax = dim if a.ndim else None
    p = float(ord)
    if a.dtype in exact_dtype and a.ndim and p != 0 and abs(p) != float("inf"):
        with xp.errstate(over="ignore", invalid="ignore"):
            return _exact.vector_norm(a, p, dim or tuple(range(a.ndim)), keepdim)
    if a.dtype.kind == "c" and a.real.dtype in exact_dtype and p in (1, 2):
        # (torch's complex norm: NormOneOps/NormTwoOps over std::abs, one by one)
        from .unary import abs as _abs
        if not a.ndim:
            return _abs.kernel(a)
        with xp.errstate(over="ignore", invalid="ignore"):
            return _exact.vector_norm(_abs.kernel(a), p, dim or tuple(range(a.ndim)), keepdim,
                                      vectorised=False)
    if a.dtype == xp.float16 and a.ndim and p != 0 and abs(p) != float("inf"):
        # (torch's half norm: a float accumulator, one by one)
        with xp.errstate(over="ignore", invalid="ignore"):
            return _exact.vector_norm(a.astype(xp.float32), p, dim or tuple(range(a.ndim)),
                                      keepdim, vectorised=False).astype(xp.float16)
    a = xp.abs(a)
    with xp.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if p == float("inf"):
            out = xp.max(a, axis=ax, keepdims=keepdim)
        elif p == float("-inf"):
            out = xp.min(a, axis=ax, keepdims=keepdim)
        elif p == 0:
            out = xp.sum(a != 0, axis=ax, keepdims=keepdim).astype(a.dtype)
        elif p == 1:
            out = xp.sum(a, axis=ax, keepdims=keepdim)
        elif p == 2:
            out = xp.sqrt(xp.sum(a * a, axis=ax, keepdims=keepdim))
        else:
            out = xp.sum(a ** p, axis=ax, keepdims=keepdim) ** (1.0 / p)
    return c_order(xp.asarray(out, a.dtype))


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The vector ``ord``-norm over ``dim`` (all elements when None), as torch.linalg.

    >>> ember.linalg.vector_norm(ember.tensor([3., 4.]))
    tensor(5.)
    """
    import numbers

    if isinstance(ord, bool) or not isinstance(ord, numbers.Number):
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        f"{type(ord).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_name(x.dtype)}")
    nd = x._data.ndim
    dims = _reduce_dims(x, dim)
    if float(ord) < 0 or ord == float("inf"):
        if dim is None or not nd:
            if x._data.size == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_name(ord)} "
                                   "norm on an empty tensor because the operation does not "
                                   "have an identity")
        else:
            for d in dims:
                if x._data.shape[d] == 0:
                    raise RuntimeError(
                        f"linalg.vector_norm cannot compute the {_ord_name(ord)} norm on the "
                        f"dimension {d}because this dimension is empty and the operation does "
                        "not have an identity")
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, "
                               f"but got {_scalar_name(dtype)}")
        if dtype.is_complex != x.dtype.is_complex:
            kind = "complex" if x.dtype.is_complex else "real"
            raise RuntimeError(f"linalg.vector_norm: dtype should be {kind} for {kind} inputs, "
                               f"but got {_scalar_name(dtype)}")
        if promote_types(x.dtype, dtype) is not dtype:
            raise RuntimeError(f"linalg.vector_norm: the dtype of the input "
                               f"({_scalar_name(x.dtype)}) should be convertible without "
                               f"narrowing to the specified dtype ({_scalar_name(dtype)})")
    check_out_dtype(out, (dtype or x.dtype).to_real())     # (a structured kernel's out=)
    return run(_vector_norm, (x, ord, dims, keepdim, dtype), out)


def _renorm_acc(dtype):
    """The dtype torch takes a renorm's norms in: float32 for half precision."""
    from .._dtype import float32
    return float32 if dtype.itemsize < 4 else None


def _renorm_back(grad, self, p, dim, maxnorm):
    """torch's renorm_backward: through the norm where it scaled, in the CPU accumulate
    type (float64 for float32, float32 for half precision)."""
    from .. import _dtype
    dims = tuple(d for d in range(self._data.ndim) if d != dim)
    acc = _dtype.float32 if self._data.dtype.itemsize < 4 else _dtype.float64
    norm = vector_norm(self, p, dims, True, dtype=acc)
    go = (self * grad).sum(dims, keepdim=True, dtype=acc)
    nb = _norm_back(go, self, norm, p, dims, True)
    invnorm = (norm + 1e-7).reciprocal()
    scaled = (invnorm * maxnorm * (grad - invnorm * nb)).to(grad.dtype)
    return ember_where(norm > maxnorm, scaled, grad)


def _renorm_check(self, p, dim, maxnorm):
    if float(p) <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if float(maxnorm) < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    if self.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.ndim} "
                           "dimensions")
    norm_dim(dim, self.ndim)
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_scalar_name(self.dtype)}")


@op("RenormBackward0", promote=NONE, inplace=True, check=_renorm_check,
    self=lambda grad, self, p, dim, maxnorm: _renorm_back(grad, self, p, norm_dim(
        dim, self._data.ndim), maxnorm))
def renorm(self, p, dim, maxnorm):
    """Scale each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` down to norm
    ``maxnorm`` (by ``maxnorm / (norm + 1e-7)``, as torch)."""
    dim = norm_dim(dim, self.ndim)
    dims = tuple(d for d in range(self.ndim) if d != dim)
    acc = _renorm_acc(self.dtype)
    norm = _vector_norm.kernel(self, p, dims, True, acc)
    t = norm.dtype.type
    with xp.errstate(invalid="ignore", divide="ignore"):
        factor = xp.where(norm > t(maxnorm), t(maxnorm) / (norm + t(1e-7)), t(1))
    return c_order(self * factor.astype(self.dtype))      # (torch's result: contiguous)


def _ord_name(ord):
    f = float(ord)
    if f == float("inf"):
        return "inf"
    if f == float("-inf"):
        return "-inf"
    return str(ord)


@expose
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The ``p``-norm (``'fro'``: the 2-norm) over ``dim``; torch.norm's dispatch.

    >>> ember.tensor([[3., 4.], [0., 0.]]).norm()
    tensor(5.)
    """
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype, out=out)
        try:
            from ..linalg import matrix_norm
        except ImportError:
            raise NotImplementedError(f"ember.norm: p={p!r} (matrix norms) is not "
                                      "supported yet") from None
        return matrix_norm(input, p, dim if dim is not None else tuple(range(input.ndim)),
                           keepdim, dtype=dtype, out=out)
    return vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype, out=out)


# ----------------------------------------------------------------------------- logsumexp

def _lse_back(grad, self, result, dim, keepdim):
    if self._data.ndim:
        grad, result = _unsq(grad, dim, keepdim), _unsq(result, dim, keepdim)
    return grad * (self - result).exp()


@op("LogsumexpBackward0", name="logsumexp_", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    self=lambda grad, self, result, dim, keepdim: _lse_back(grad, self, result, dim, keepdim))
def _logsumexp(self, dim, keepdim):
    if self.ndim == 0:      # (torch's formula all the same: log(exp(x - x)) + x)
        return _logsumexp.kernel(self.reshape(1), (0,), False).reshape(())
    with xp.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if self.size == 0:
            return c_order(xp.log(xp.sum(xp.exp(self), axis=dim, keepdims=keepdim)))
        # (a complex input's shift: the largest real part)
        m = xp.max(self.real, axis=dim, keepdims=True)
        m = xp.where(xp.abs(m) == xp.inf, 0, m).astype(m.dtype)
        mk = m if keepdim else xp.squeeze(m, dim)
        if self.dtype.itemsize == 2 and self.dtype.kind == "V":
            # (bfloat16: each step rounded to the type, the exps summed in float)
            f32, dt = xp.float32, self.dtype
            e = xp.exp((self - m).astype(f32)).astype(dt).astype(f32)
            s = cascade_sum(e, dim, keepdim).astype(dt)
            return c_order(xp.log(s.astype(f32)).astype(dt) + mk)
        if self.dtype.kind == "c":      # (torch's complex exp, sum and log, as ember's)
            r = (_wrap(self) - _wrap(m)).exp().sum(dim, keepdim).log() + _wrap(mk)
            return r._data
        e = _vml.exp(self - m)
        # torch adds the exps in its reduction order (its exp and log are MKL's)
        s = cascade_sum(e, dim, keepdim) if self.dtype in exact_dtype else \
            xp.sum(e, axis=dim, keepdims=keepdim)
        return c_order(_vml.log(s) + mk)


def _real_into(t, out):
    """``t`` as a reduction into ``out`` reads it: its real part when ``out`` is real."""
    return t.real if t.dtype.is_complex and not out.dtype.is_complex else t


@expose(bools=("keepdim",))
def logsumexp(input, dim=_NO_DIM, keepdim=False, *, out=None):
    """``log(sum(exp(input)))`` over ``dim``, computed stably (integers give floats).

    >>> ember.tensor([0., 0.]).logsumexp(0)
    tensor(0.6931)
    """
    from .. import _dtype as D
    if dim is _NO_DIM:
        raise _errors.missing_arguments("logsumexp", ["dim"])
    dim_not_none("logsumexp", dim, "tuple of ints")
    if out is not None and not (out.dtype.is_floating_point or out.dtype.is_complex):
        raise RuntimeError("logsumexp(): Expected floating point type for result tensor, but "
                           f"got: {out.dtype.scalar_name}")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        input = input.to(D.get_default_dtype())
    if isinstance(dim, (tuple, list)) and len(dim) == 0 and not keepdim and input._data.ndim:
        raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                           f"{[1] * input._data.ndim}")
    dims = _reduce_dims(input, dim)
    if out is not None and out.dtype is not input.dtype and input._data.ndim:
        # torch sums the exps into the out= tensor, in its dtype (a complex sum into a real
        # one: of the real parts), then takes the log there (a complex input's shift: the
        # largest real part)
        if not input._data.size:
            res = sum(_real_into(input.exp(), out), dims, keepdim, dtype=out.dtype).log()
        else:
            maxes = (input.real if input.dtype.is_complex else input).amax(dims, True)
            maxes = maxes.masked_fill(maxes.abs() == float("inf"), 0)
            s = sum(_real_into((input - maxes).exp(), out), dims, keepdim, dtype=out.dtype)
            res = s.log() + (maxes if keepdim else maxes.squeeze(dims))
        from .registry import _write_out
        return _write_out(out, res._data)
    return run(_logsumexp, (input, dims, keepdim), out)


# ----------------------------------------------------------------------------- cumulative ops

def _cum_dtype(a, dtype):
    if dtype is not None:
        return dtype.np
    return xp.int64 if a.dtype.kind in "biu" else a.dtype


@op("CumsumBackward0", name="cumsum_", method=False, function=False, promote=NONE,
    self=lambda grad, dim: _rev_cumsum(grad, dim))
def _cumsum(self, dim, dtype=None):
    a = self.astype(_cum_dtype(self, dtype))
    if a.ndim == 0:
        return a.copy()
    acc = _CUM_ACC.get(a.dtype)      # (torch's result is contiguous)
    res = xp.cumsum(a, axis=dim, dtype=acc)
    if res.dtype.kind in "fc":       # torch's sum starts at +0, so it never holds -0
        res += 0
    return xp.ascontiguousarray(res.astype(a.dtype, copy=False))


# torch's cumulative kernels accumulate in at::acc_type<T, /*is_cuda=*/false>
_CUM_ACC = {xp.dtype(xp.float16): xp.float32, xp.dtype(xp.float32): xp.float64,
            xp.dtype(xp.complex64): xp.complex128}


def _cumprod_zeros_back(grad, self, dim):
    """Gradient of cumprod when the input has zeros: ``sum_{j>=i} g_j prod_{m<=j, m!=i} x_m``."""
    from .shape import cat
    x = self.transpose(dim, -1)
    g = grad.transpose(dim, -1)
    n = x._data.shape[-1]
    upper = _wrap(xp.triu(xp.ones((n, n), bool), 1))           # [i, m]: m > i
    rows = ember_where(upper, x.unsqueeze(-2).expand(*x.shape[:-1], n, n), 1.0)
    span = cumprod(rows, -1)                                    # [i, j]: prod_{i<m<=j} x_m
    keep = _wrap(xp.triu(xp.ones((n, n), bool)))                # j >= i
    s = (ember_where(keep, span, 0.0) * g.unsqueeze(-2)).sum(-1)
    ones = _wrap(xp.ones(x._data.shape[:-1] + (1,), x._data.dtype))
    left = cumprod(cat([ones, x.narrow(-1, 0, n - 1)], -1), -1)
    return (left * s).transpose(dim, -1)


def _cumprod_zeros_linear(grad, self, dim, result):
    """``cumprod_backward``'s O(n) path for inputs with zeros (no graph recorded): before
    each slice's first zero the reversed cumsum of ``result * grad`` over the input; at the
    first zero, the products up to the second zero times the grads there, added, times the
    output before it; 0 from there on."""
    from .indexing import gather
    from .pointwise import where
    w = result * grad
    zero = self == 0
    count = zero.cumsum(dim)
    before = count == 0
    out = where(before, _rev_cumsum(w.masked_fill(~before, 0), dim) / self,
                self.new_zeros(()))
    between = count == 1
    first = between.long().max(dim, keepdim=True).indices
    pos = xp.arange(self._data.shape[dim]).reshape(
        [-1 if d == dim else 1 for d in range(self._data.ndim)])
    at_first = _wrap(pos == first._data) & between
    between = between & ~at_first
    val = (self.masked_fill(~between, 1).cumprod(dim) * grad.masked_fill(count != 1, 0)).sum(
        dim, keepdim=True)
    val = val * gather(result, dim, (first - 1).clamp(min=0)).masked_fill(first == 0, 1)
    return where(at_first, val, out)


def _cumprod_back(grad, self, dim, result):
    if self._data.size <= 1 or self._data.shape[dim] == 1:
        return grad
    if (self._data != 0).all():
        return _rev_cumsum(result * grad, dim) / self
    from ..autograd.grad_mode import is_grad_enabled
    if not is_grad_enabled() and (self._data.dtype.kind == "f" or _half(self._data)):
        return _cumprod_zeros_linear(grad, self, dim, result)
    return _cumprod_zeros_back(grad, self, dim)


@op("CumprodBackward0", name="cumprod_", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    self=lambda grad, self, dim, result: _cumprod_back(grad, self, dim, result))
def _cumprod(self, dim, dtype=None):
    a = self.astype(_cum_dtype(self, dtype))
    if a.ndim == 0:
        return a.copy()
    if a.dtype.kind == "c":
        return _complex_cumprod(a, dim)
    acc = _CUM_ACC.get(a.dtype)
    return xp.ascontiguousarray(xp.cumprod(a, axis=dim, dtype=acc).astype(a.dtype,
                                                                          copy=False))


def _complex_cumprod(a, dim):
    """torch's complex ``cumprod``: ``acc *= x`` in complex128, each product as c10's
    ``operator*=`` compiles (``re = fma(a, c, -b * d)``, ``im = fma(a, d, b * c)``)."""
    x = xp.moveaxis(a, dim, 0).astype(xp.complex128)
    out = xp.empty(x.shape, xp.complex128)
    re, im = xp.ones(x.shape[1:]), xp.zeros(x.shape[1:])
    for i in range(x.shape[0]):
        c, d = x[i].real, x[i].imag
        re, im = _exact.fma(re, c, -(im * d)), _exact.fma(re, d, im * c)
        out.real[i], out.imag[i] = re, im
    return xp.ascontiguousarray(xp.moveaxis(out.astype(a.dtype), 0, dim))


def _cum(d, name, input, dim, dtype, out):
    dim = norm_dim(dim, input._data.ndim)
    if out is not None and dtype is None:
        # meta_func_cum_ops: the result's dtype is out's, and the kernel scans
        # self.to(out.dtype) in it
        dtype = out.dtype
    if dtype is not None:
        _bool_scan(input, dtype, name)
    return run(d, (input, dim, dtype), out)


def _bool_scan(self, dtype, name):
    """The scans have no Bool kernel; impl_func_cum_ops fills a 0-d result and zeroes an empty
    one without it."""
    if dtype.name == "bool" and self._data.ndim and self._data.size:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')


@expose
def cumsum(input, dim=_NO_DIM, *, dtype=None, out=None):
    """Cumulative sum along ``dim``; integral inputs give int64.

    >>> ember.tensor([1, 2, 3]).cumsum(0)
    tensor([1, 3, 6])
    """
    if dim is _NO_DIM:
        raise _errors.missing_arguments("cumsum", ["dim"])
    dim_not_none("cumsum", dim)
    return _cum(_cumsum, "cumsum", input, dim, dtype, out)


@expose
def cumprod(input, dim=_NO_DIM, *, dtype=None, out=None):
    """Cumulative product along ``dim``; integral inputs give int64.

    >>> ember.tensor([1., 2., 3.]).cumprod(0)
    tensor([1., 2., 6.])
    """
    if dim is _NO_DIM:
        raise _errors.missing_arguments("cumprod", ["dim"])
    return _cum(_cumprod, "cumprod", input, dim, dtype, out)


def _same_dtype_in_place(self, dtype, name):
    if dtype is not None and dtype is not self.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {self.dtype.cpp_name} and "
                           f"output tensor dtype {dtype.cpp_name} should match")
    _bool_scan(self, self.dtype, name)


@expose(function=False)
def cumsum_(self, dim, *, dtype=None):
    """In-place :meth:`Tensor.cumsum`."""
    from .registry import run_inplace
    _same_dtype_in_place(self, dtype, "cumsum")
    return run_inplace(_cumsum, (self, norm_dim(dim, self._data.ndim), dtype))


@expose(function=False)
def cumprod_(self, dim, *, dtype=None):
    """In-place :meth:`Tensor.cumprod`."""
    from .registry import run_inplace
    _same_dtype_in_place(self, dtype, "cumprod")
    return run_inplace(_cumprod, (self, norm_dim(dim, self._data.ndim), dtype))


@op("ScatterAddBackward0", name="reduction_scatter_add", method=False, function=False,
    promote=NONE, grad=lambda grad, dim, indices: _gather(grad, dim, indices))
def _scatter_add(grad, dim, indices, shape):
    out = xp.zeros(shape, grad.dtype)
    ix = list(xp.ix_(*[xp.arange(s) for s in shape]))
    ix[dim] = indices
    xp.add.at(out, tuple(ix), grad)
    return out


@op("GatherBackward0", name="reduction_gather", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim, indices: _scatter_add(grad, dim, indices, self_shape))
def _gather(self, dim, indices):
    return xp.take_along_axis(self, indices, axis=dim)


def _cummax_back(grads, self, dim, indices):
    """torch's cummaxmin_backward: the gradient summed onto the index of each running
    extreme (``indices``: the op's indices result, as torch saves it)."""
    shape = self._data.shape
    if _numel(shape) == 0 or not shape:
        return grads[0]
    return _scatter_add(grads[0], dim, indices._data, shape)


def _cum_extreme_indices(a, dim, greater):
    """torch's cummax/cummin indices: the latest index of the running extreme; NaN wins."""
    acc = (xp.maximum if greater else xp.minimum).accumulate
    vals = acc(a, axis=dim)
    n = a.shape[dim]
    prev = xp.concatenate([xp.take(vals, [0], axis=dim), xp.take(vals, range(n - 1), axis=dim)],
                          axis=dim) if n else vals
    cmp = (a >= prev) if greater else (a <= prev)
    if a.dtype.kind in "fcV":       # (V: bfloat16 and the float8 types)
        upd = xp.isnan(a) | (~xp.isnan(prev) & cmp)
    else:
        upd = cmp
    shape = [1] * a.ndim
    shape[dim] = n
    pos = xp.arange(n).reshape(shape)
    return xp.maximum.accumulate(xp.where(upd, pos, 0), axis=dim).astype(xp.int64)


def _cum_extreme_kernel(self, dim, indices):
    if self.ndim == 0:
        return self.copy(), indices
    return xp.take_along_axis(self, indices, axis=dim), indices


_cummax = op("CummaxBackward0", name="cummax_", method=False, function=False, promote=NONE,
             outputs=2, saved_results={"indices": 1}, self=_cummax_back)(_cum_extreme_kernel)
_cummin = op("CumminBackward0", name="cummin_", method=False, function=False, promote=NONE,
             outputs=2, saved_results={"indices": 1}, self=_cummax_back)(_cum_extreme_kernel)


def _cum_extreme_mismatch(i, expected, got) -> str:
    """torch's message for an out= tensor of ``cummax``/``cummin`` of the wrong dtype."""
    return f"expected scalar_type {expected.scalar_name} but found {got.scalar_name}"


def _cum_extreme(d, rt, input, dim, greater, out):
    check_out_tuple("cummax" if greater else "cummin", out)
    if input.dtype.is_complex and input._data.ndim and input._data.size:
        if out is not None:     # (torch checks the out= tuple's dtypes first)
            check_out_dtypes(out, (input.dtype, _dtypes.int64), _cum_extreme_mismatch)
        raise NotImplementedError(f'"{"cummax" if greater else "cummin"}_cpu" not implemented '
                                  f"for '{input.dtype.scalar_name}'")
    nd = input._data.ndim
    dim = norm_dim(dim, nd)
    idx = _cum_extreme_indices(input._data, dim, greater) if input._data.size and nd else \
        xp.zeros(input._data.shape, xp.int64)
    res = run(d, (input, dim, idx))
    return rt(*res) if out is None else write_outs(out, res, rt, _cum_extreme_mismatch)


@expose(overloads=("(Tensor input, int dim, *, tuple of Tensors out = None)",))
def cummax(input, dim, *, out=None):
    """Running maximum along ``dim`` and the index where it was (last) reached.

    >>> ember.tensor([1., 3., 2.]).cummax(0).values
    tensor([1., 3., 3.])
    """
    return _cum_extreme(_cummax, CummaxResult, input, dim, True, out)


@expose
def cummin(input, dim, *, out=None):
    """Running minimum along ``dim`` and the index where it was (last) reached.

    >>> ember.tensor([3., 1., 2.]).cummin(0).indices
    tensor([0, 1, 1])
    """
    return _cum_extreme(_cummin, CumminResult, input, dim, False, out)


# ----------------------------------------------------------------------------- logical reductions

def _logical(fn, input, dim, keepdim, out):
    if out is not None and out.dtype.scalar_name not in ("Bool", "Byte"):
        raise RuntimeError(f"{fn.__name__} only supports bool tensor for result, got: "
                           f"{out.dtype.scalar_name}")
    a = input._data
    rdt = xp.uint8 if a.dtype == xp.uint8 else xp.bool_
    if dim is None:
        res = xp.asanyarray(fn(a != 0 if a.dtype != xp.bool_ else a))   # (meta stays meta)
        if keepdim:
            res = res.reshape((1,) * a.ndim)
    else:
        # (an empty dim list reduces nothing here, where sum's reduces every dim)
        dims = () if isinstance(dim, (tuple, list)) and not dim else _reduce_dims(input, dim)
        b = a != 0 if a.dtype != xp.bool_ else a
        res = fn(b, axis=dims, keepdims=keepdim) if a.ndim else b.copy()
    res = _wrap(c_order(xp.asanyarray(res).astype(rdt)))
    if out is not None:
        from .registry import _write_out
        return _write_out(out, res._data)
    return res


# (all and any)
_LOGICAL_OVERLOADS = ("(Tensor input, *, Tensor out = None)",
                      "(Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor "
                      "out = None)",
                      "(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)")


@expose(overloads=_LOGICAL_OVERLOADS, bools=("keepdim",))
def all(input, dim=None, keepdim=False, *, out=None):
    """True if every element (over ``dim``) is non-zero; uint8 inputs give uint8.

    >>> ember.tensor([1, 0]).all()
    tensor(False)
    """
    return _logical(xp.all, input, dim, keepdim, out)


@expose(overloads=_LOGICAL_OVERLOADS, bools=("keepdim",))
def any(input, dim=None, keepdim=False, *, out=None):
    """True if some element (over ``dim``) is non-zero; uint8 inputs give uint8.

    >>> ember.tensor([1, 0]).any()
    tensor(True)
    """
    return _logical(xp.any, input, dim, keepdim, out)


@expose(overloads=("(Tensor input, int dim = None)", "(Tensor input, tuple of ints dim)"),
        varargs=True)
def count_nonzero(input, dim=None):
    """The number of non-zero elements (over ``dim``, int or tuple), as int64.

    >>> ember.tensor([[0, 1], [2, 3]]).count_nonzero(0)
    tensor([1, 2])
    """
    no_barebones_kernel("nonzero_count_cpu", input.dtype)
    a = input._data
    dims = _reduce_dims(input, dim)
    return _wrap(c_order(xp.asarray(xp.count_nonzero(a, axis=dims) if a.ndim else
                                    int(a != 0), xp.int64)))


# ----------------------------------------------------------------------------- nan reductions

_REDUCED = D.REDUCED        # (filled in place when the reduced types load)

@op("NansumBackward0", name="nansum_", method=False, function=False, promote=NONE,
    self=lambda grad, self, dim, keepdim:
        _unsq(grad, dim, keepdim) * _wrap(~xp.isnan(self._data)))
def _nansum(self, dim, keepdim, dtype):
    if self.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if dtype is not None and not dtype.is_floating_point and self.dtype.kind not in "biu":
        # an integral dtype= sums the elements converted to it, each NaN as a 0
        self = xp.where(self != self, xp.zeros((), self.dtype), self)
        if self.dtype == xp.float16:    # (torch's float16 infinities count as its largest)
            self = xp.clip(self, xp.float16(-65504), xp.float16(65504))
    a = _cast(self, dtype)
    if a.ndim == 0:
        return xp.where(a != a, xp.zeros((), a.dtype), a) if a.dtype.kind == "f" or \
            a.dtype in _REDUCED else a.astype(_sum_dtype(a, dtype))
    if a.dtype == xp.float16 or a.dtype in _REDUCED:
        # in float, each row's sum added into the output of the type (no float buffer)
        return cascade_sum(_exact.in_layout(a, xp.float32), dim, keepdim, nan=True,
                           into=a.dtype).astype(a.dtype)
    if a.dtype in exact_dtype:
        return cascade_sum(a, dim, keepdim, nan=True)
    return c_order(xp.nansum(a, axis=dim, keepdims=keepdim, dtype=_sum_dtype(a, dtype)))


@expose(bools=("keepdim",))
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum treating NaN as zero.

    >>> ember.tensor([1., float('nan'), 2.]).nansum()
    tensor(3.)
    """
    if input.dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if dtype is not None and dtype.is_complex and input.dtype.is_floating_point:
        # (torch's nansum of an integer tensor is its sum)
        raise NotImplementedError(f'"nansum_cpu" not implemented for \'{dtype.scalar_name}\'')
    if out is not None and not (input.dtype.is_complex or _integral(input)):
        # nansum_out: the reduction runs in out's dtype (get_dtype_from_result), which a
        # given dtype= must be; without one, only a floating out has a kernel
        if dtype is not None and dtype is not out.dtype and dtype._category < 2:
            check_out_dtype(out, dtype)     # (an integral dtype: sum's structured check)
        if dtype is not None and dtype is not out.dtype:
            raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                               f"{out.dtype.scalar_name} and {dtype.scalar_name}.")
        if dtype is None:
            dtype = out.dtype
            if not dtype.is_floating_point and input._data.size:
                raise NotImplementedError(
                    f'"nansum_cpu" not implemented for \'{dtype.scalar_name}\'')
    return run(_nansum, (input, _reduce_dims(input, dim), keepdim, dtype), out)


def _integral(t):
    return not (t.dtype.is_floating_point or t.dtype.is_complex)


@expose(bools=("keepdim",))
def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean of the non-NaN elements (torch computes it as nansum / count: DivBackward0).

    >>> ember.tensor([1., float('nan'), 2.]).nanmean()
    tensor(1.5000)
    """
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("nanmean(): integral types and 'Bool' are not supported for nanmean, "
                           "even for empty tensors." if out is not None else
                           "nanmean(): expected input to have floating point or complex dtype "
                           f"but got {_scalar_name(input.dtype)}")
    if dtype is not None:
        _mean_check(input, dtype, "nanmean")
    dims = _reduce_dims(input, dim)
    a = input._data
    cnt = xp.sum(~xp.isnan(a), axis=dims, keepdims=keepdim) if a.ndim else \
        xp.asarray(int(not xp.isnan(a)))
    count = _wrap(xp.asarray(cnt, xp.int64))
    if out is not None:         # nanmean_out: nansum_out into out, then out.div_(count)
        return nansum(input, dim, keepdim, dtype=dtype, out=out).div_(count)
    return nansum(input, dim, keepdim, dtype=dtype) / count


del D
