"""Householder representations of QR: ``torch.geqrf``, ``linalg.householder_product``
(``torch.orgqr``) and ``torch.ormqr``. Loaded on first use.

With MKL's runtime installed ``geqrf``, ``orgqr`` and ``ormqr`` are MKL's, called as torch
calls them (``_lapack``: torch's bits); otherwise ``geqrf`` is NumPy's LAPACK (its
``qr(mode='raw')`` returns geqrf's output, transposed) and the others NumPy recurrences.
``geqrf`` gives the reflectors ``vᵢ`` below the diagonal (``vᵢ[i] = 1`` implied), ``R`` on
and above it and the scalars ``τᵢ`` of ``Hᵢ = I - τᵢ vᵢ vᵢᴴ``. ``Q = H₀ H₁ … Hₖ₋₁``:
``householder_product`` forms its first ``n`` columns, ``ormqr`` multiplies a matrix by
``Q`` or ``Qᴴ`` from either side.

The backward formulas are torch's (``householder_product_backward``): the gradient of each
reflector is read off ``K = result · gradᴴ`` as ``K`` is carried past the reflectors one at a
time, each inverted by ``H(σ)``, ``σ = τ / (τ‖v‖² - 1)``.
"""

from __future__ import annotations

from .. import _dtype as D
from .. import _ops as _ops_package
from .._device import xp
from .._tensor import Tensor
from ..autograd import grad_mode
from . import _lapack
from .registry import NONE, _scalar_name, expose, op, run
from .search import _return_type
from .unary import _no_derivative

_wrap = Tensor._wrap
geqrf_t = _return_type("geqrf", ("a", "tau"))


def _check_kernel(t, kernel):
    if not (t.dtype.is_floating_point or t.dtype.is_complex) or t.dtype in (D.float16,
                                                                            D.bfloat16):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(t.dtype)}\'')


def _reflectors(a):
    """The unit lower-trapezoidal ``V`` stored in a geqrf result ``a`` (m×n)."""
    m, n = a.shape[-2:]
    return xp.tril(a, -1) + xp.eye(m, n, dtype=a.dtype)


def _apply(V, tau, C, left, adjoint, order):
    """``Hᵢ C`` (``C Hᵢ`` when not ``left``; ``Hᵢᴴ`` when ``adjoint``) for ``i`` in ``order``."""
    C = xp.array(C, copy=True)
    for i in order:
        v = V[..., :, i:i + 1]
        t = tau[..., i, None, None]
        t = t.conj() if adjoint else t
        if left:
            C -= (t * v) * (xp.swapaxes(v, -1, -2).conj() @ C)
        else:
            C -= (C @ (t * v)) * xp.swapaxes(v, -1, -2).conj()
    return C


# ----------------------------------------------------------------------------- geqrf

@op("GeqrfBackward0", name="geqrf", promote=NONE, outputs=2, method=False, function=False,
    self=_no_derivative("geqrf"))
def _geqrf(self):
    a = _lapack.column_major(self)
    tau = _lapack.geqrf(a)
    if tau is not None:
        return a, tau
    h, tau = xp.linalg.qr(self, mode="raw")
    return xp.ascontiguousarray(xp.swapaxes(h, -1, -2)), tau.astype(self.dtype, copy=False)


@expose
def geqrf(input: Tensor, *, out=None):
    """LAPACK's geqrf: ``(a, tau)``, the QR factorization of ``input`` as Householder
    reflectors (below the diagonal of ``a``, with ``R`` on and above it) and their scalars.

    >>> a, tau = ember.geqrf(ember.tensor([[3., 1.], [4., 2.]]))
    >>> a
    tensor([[-5.0000, -2.2000],
            [ 0.5000,  0.4000]])
    """
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_kernel(input, "geqrf_cpu")
    res = geqrf_t(*run(_geqrf, (input,)))
    if out is None:
        return res
    from .decompositions import _out
    return _out(res, tuple(out))


# ----------------------------------------------------------------------------- backward

def _reflect(V, i, t, K, left):
    """``(I - t vᵢ vᵢᴴ) K`` (``K (I - t vᵢ vᵢᴴ)`` when not ``left``), in ember ops. Without a
    graph to build it is torch's in-place update of rows (columns) ``i:`` of ``K`` only, as
    ``vᵢ`` is zero above ``i`` (``apply_simple_transformation``)."""
    v = V.narrow(-1, i, 1)
    t = t.unsqueeze(-1)
    if not grad_mode._state.enabled:
        m = V.shape[-2]
        v = v.narrow(-2, i, m - i)
        if left:
            u = v.mH @ K.narrow(-2, i, m - i)
            K.narrow(-2, i, m - i).sub_((t * v) * u)
        else:
            u = K.narrow(-1, i, m - i) @ (t * v)
            K.narrow(-1, i, m - i).sub_(u * v.mH)
        return K
    if left:
        return K - (t * v) * (v.mH @ K)
    return K - (K @ (t * v)) * v.mH


def _householder_backward(grad, result, input, tau, flip=False):
    """torch's ``householder_product_backward``: the gradients of ``input`` and ``tau``."""
    if grad is None or input.numel() == 0 or tau.numel() == 0:
        return None, None
    m, n = input.shape[-2:]
    k = tau.shape[-1]
    V = input.tril(-1) + _wrap(xp.eye(m, n, dtype=input._data.dtype))
    Vk = V.narrow(-1, 0, k)
    sigma = tau / (tau * (Vk * Vk.conj()).sum(-2) - 1.0)
    K = result @ grad.mH
    order = range(k - 1, -1, -1) if flip else range(k)
    left = not flip
    K = _reflect(V, order[0], sigma.narrow(-1, order[0], 1), K, left)
    input_grad, tau_grad = input.new_zeros(input.shape), tau.new_zeros(tau.shape)
    for step, i in enumerate(order):
        v = V.narrow(-1, i, 1).narrow(-2, i, m - i)
        t = tau.narrow(-1, i, 1).unsqueeze(-1)
        vHK = v.mH @ K.narrow(-2, i, m - i)
        Kv = K.narrow(-1, i, m - i) @ v
        input_grad.select(-1, i).copy_((-t * vHK).conj().squeeze(-2) - (t * Kv).squeeze(-1))
        tau_grad.select(-1, i).copy_(-(vHK.narrow(-1, i, m - i) @ v).conj().squeeze(-1)
                                     .squeeze(-1))
        if step + 1 < k:
            j = order[step + 1]
            K = _reflect(V, j, sigma.narrow(-1, j, 1), K, left)
            K = _reflect(V, i, tau.narrow(-1, i, 1), K, not left)
    return input_grad.tril_(-1), tau_grad


def _hp_grads(grad, result, input, tau):
    return _householder_backward(grad, result, input, tau)


# ----------------------------------------------------------------------------- householder_product

@op("LinalgHouseholderProductBackward0", name="linalg_householder_product", promote=NONE,
    method=False, function=False, holomorphic=False, tensors=("input", "tau"),
    input=lambda grad, result, input, tau: _hp_grads(grad, result, input, tau)[0],
    tau=lambda grad, result, input, tau: _hp_grads(grad, result, input, tau)[1])
def _householder_product(input, tau):
    q = _lapack.column_major(input)
    if _lapack.orgqr(q, tau):
        return q
    m, n = input.shape[-2:]
    Q = xp.broadcast_to(xp.eye(m, n, dtype=input.dtype), input.shape)
    return _apply(_reflectors(input), tau, Q, True, False, range(tau.shape[-1] - 1, -1, -1))


def _batch_list(t) -> str:
    return str(list(t.shape[:-1]))


def _check_householder(input, tau, fname):
    if input.ndim < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{fname}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if tau.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{fname}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    if input.ndim - tau.ndim != 1:
        raise RuntimeError(f"{fname}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                           f"{input.ndim}")
    if tau.shape[:-1] != input.shape[:-2]:
        raise RuntimeError(f"{fname}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {_batch_list(tau)}")
    if tau.dtype is not input.dtype:
        raise RuntimeError(f"{fname}: tau dtype {_scalar_name(tau.dtype)} does not match input "
                           f"dtype {_scalar_name(input.dtype)}")
    _check_kernel(input, "orgqr_cpu")


def householder_product(input: Tensor, tau: Tensor, *, out=None) -> Tensor:
    """The first ``n`` columns of ``Q = H₀ … Hₖ₋₁`` from the reflectors below the diagonal of
    ``input`` (m×n, m ≥ n) and their scalars ``tau`` (as LAPACK's orgqr; see :func:`geqrf`).

    >>> a, tau = ember.geqrf(ember.tensor([[3., 1.], [4., 2.]]))
    >>> ember.linalg.householder_product(a, tau)
    tensor([[-0.6000, -0.8000],
            [-0.8000,  0.6000]])
    """
    _check_householder(input, tau, "torch.linalg.householder_product")
    return run(_householder_product, (input, tau), out)


@expose(name="orgqr")
def orgqr(input: Tensor, input2: Tensor, *, out=None) -> Tensor:
    """Alias of :func:`ember.linalg.householder_product` (``input2`` is ``tau``)."""
    _check_householder(input, input2, "torch.linalg.householder_product")
    return run(_householder_product, (input, input2), out)


# ----------------------------------------------------------------------------- ormqr

def _ormqr_grads(grad, result, self, input2, left, transpose):
    if left != transpose:
        g, r = (grad, result) if not transpose else (grad.mH, result.mH)
        return _householder_backward(g, r, self, input2)
    g, r = (result.mH, grad.mH) if not transpose else (result, grad)
    return _householder_backward(g, r, self, input2, flip=True)


@op("OrmqrBackward0", name="ormqr", promote=NONE, method=False, function=False,
    holomorphic=False, tensors=("self", "input2", "input3"),
    self=lambda grad, result, self, input2, left, transpose:
    _ormqr_grads(grad, result, self, input2, left, transpose)[0],
    input2=lambda grad, result, self, input2, left, transpose:
    _ormqr_grads(grad, result, self, input2, left, transpose)[1],
    input3=lambda grad, self, input2, left, transpose:
    ormqr(self, input2, grad, left, not transpose))
def _ormqr(self, input2, input3, left=True, transpose=False):
    done = _lapack.ormqr(self, input2, input3, left, transpose)
    if done is not None:
        return done
    k = input2.shape[-1]
    forward = (left == transpose)       # Qᴴ C and C Q apply H₀ first
    order = range(k) if forward else range(k - 1, -1, -1)
    return _apply(_reflectors(self[..., :, :k]), input2, input3, left, transpose, order)


@expose
def ormqr(input: Tensor, input2: Tensor, input3: Tensor, left: bool = True,
          transpose: bool = False, *, out=None) -> Tensor:
    """``Q C`` for ``Q = H₀ … Hₖ₋₁`` given by :func:`geqrf`'s ``(input, input2)`` and
    ``C = input3`` (``C Q`` when not ``left``; ``Qᴴ`` in place of ``Q`` when ``transpose``),
    as LAPACK's ormqr, without forming ``Q``."""
    if input.ndim < 2:
        raise RuntimeError("torch.ormqr: input must have at least 2 dimensions.")
    if input3.ndim < 2:
        raise RuntimeError("torch.ormqr: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if input3.shape[side] != input.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{side}] must be equal to "
                           f"input.shape[-2]")
    if input2.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if input2.shape[-1] != min(input3.shape[side], input.shape[-1]):
        raise RuntimeError(f"torch.ormqr: tau.shape[-1] must be equal to "
                           f"min(other.shape[{side}], input.shape[-1])")
    if input.ndim - input2.ndim != 1:
        raise RuntimeError(f"torch.ormqr: Expected tau to have one dimension less than input, "
                           f"but got tau.ndim equal to {input2.ndim} and input.ndim is equal "
                           f"to {input.ndim}")
    if input.ndim != input3.ndim:
        raise RuntimeError(f"torch.ormqr: Expected other to have the same number of dimensions "
                           f"as input, but got other.ndim equal to {input3.ndim} and "
                           f"input.ndim is equal to {input.ndim}")
    if input2.shape[:-1] != input.shape[:-2]:
        raise RuntimeError(f"torch.ormqr: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {_batch_list(input2)}")
    if input3.shape[:-2] != input.shape[:-2]:
        raise RuntimeError(f"torch.ormqr: Expected batch dimensions of other to be equal to "
                           f"input.shape[:-2], but got {str(list(input3.shape[:-2]))}")
    for t, name in ((input2, "tau"), (input3, "other")):
        if t.dtype is not input.dtype:
            raise RuntimeError(f"torch.ormqr: Expected input and {name} to have the same "
                               f"dtype, but input has dtype{_scalar_name(input.dtype)} and "
                               f"{name} has dtype {_scalar_name(t.dtype)}")
    _check_kernel(input, "ormqr_cpu")
    return run(_ormqr, (input, input2, input3, left, transpose), out)


_ops_package.methods_defined(__name__)      # (its Tensor methods: torch's parser errors)
