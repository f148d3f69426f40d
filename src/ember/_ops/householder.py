"""Householder reflectors: ``torch.geqrf`` (LAPACK's compact QR) and
``torch.linalg.householder_product`` (``torch.orgqr``), the first ``n`` columns of
``H_1 … H_k`` with ``H_i = I − τ_i v_i v_iᴴ``. Loaded on first use.

geqrf is NumPy's LAPACK ``geqrf`` (not differentiable, as in torch). The product is formed as
LAPACK's unblocked ``org2r`` does, reflector by reflector from the last; its backward runs the
same recurrence in reverse with ember ops (so double backward works): for ``X_{i-1} = X_i −
τ v (vᴴ X_i)`` with upstream gradient ``G``, ``∂τ = −(vᴴ G)(X_iᴴ v)``, ``∂v = −τ̄ G (X_iᴴ v) −
τ X_i (Gᴴ v)`` and ``G ← G − τ̄ v (vᴴ G)``.
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from .._tensor import Tensor
from .registry import expose, op, run
from .search import _return_type
from .shape import stack

_wrap = Tensor._wrap
geqrf_t = _return_type("geqrf", ("a", "tau"))
_FLOATING = (D.float32, D.float64, D.complex64, D.complex128)


def _no_derivative(grad):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


@op("GeqrfBackward0", name="geqrf_", method=False, function=False, promote=None, outputs=2,
    self=lambda grads: _no_derivative(grads))
def _geqrf(self):
    m, n = self.shape[-2:]
    batch = self.shape[:-2]
    a = xp.empty(self.shape, self.dtype)
    tau = xp.zeros(batch + (min(m, n),), self.dtype)
    flat_in = self.reshape((-1, m, n))
    for i, (aa, tt) in enumerate(zip(a.reshape((-1, m, n)), tau.reshape((-1, min(m, n))))):
        if m and n:
            h, t = xp.linalg.qr(flat_in[i], mode="raw")
            aa[...] = h.T
            tt[...] = t
    return a, tau


@expose(name="geqrf")
def geqrf(input: Tensor, *, out=None):
    """LAPACK's QR in compact form: ``(a, tau)``, R on and above the diagonal of ``a`` and
    the Householder vectors below it (``torch.return_types.geqrf``); not differentiable.

    >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
    """
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    if input.dtype not in _FLOATING:
        raise NotImplementedError(f"\"geqrf_cpu\" not implemented for '{input.dtype.scalar_name}'")
    res = geqrf_t(*run(_geqrf, (input,)))
    if out is not None:
        for o, r in zip(out, res):
            o.resize_(r.shape).copy_(r)
        return geqrf_t(*out)
    return res


def _reflector(A, i):
    """The i-th Householder vector of ``A`` (..., m, n): 1 at row i, A's column below it."""
    m = A.shape[-2]
    col = A[..., :, i]
    ones = _wrap(xp.eye(1, m, i, dtype=A._data.dtype)[0])
    below = _wrap((xp.arange(m) > i).astype(A._data.dtype))
    return col * below + ones


def _product_steps(A, tau):
    """``X_k … X_0`` of the recurrence (X_0 the product), as ember tensors."""
    m, n = A.shape[-2:]
    k = tau.shape[-1]
    X = _wrap(xp.broadcast_to(xp.eye(m, n, dtype=A._data.dtype), A.shape).copy())
    steps = [X]
    for i in reversed(range(k)):
        v = _reflector(A, i).unsqueeze(-1)
        X = X - tau[..., i, None, None] * (v @ (v.mH @ X))
        steps.append(X)
    return steps[::-1]


def _backward(grad, A, tau, which):
    if not A.numel() or not tau.numel():
        return None          # torch's undefined gradient
    steps = _product_steps(A, tau)
    k = tau.shape[-1]
    G = grad
    gA = A * 0
    gtau = []
    for i in range(k):
        X = steps[i + 1]
        v = _reflector(A, i).unsqueeze(-1)
        t = tau[..., i, None, None]
        w = X.mH @ v                      # (..., n, 1)
        vG = v.mH @ G                     # (..., 1, n)
        gtau.append(-(vG @ w)[..., 0, 0])
        gv = -(t.conj() * (G @ w) + t * (X @ (G.mH @ v)))
        below = _wrap((xp.arange(A.shape[-2]) > i).astype(A._data.dtype))
        onehot = _wrap(xp.eye(1, A.shape[-1], i, dtype=A._data.dtype)[0])
        gA = gA + (gv * below.unsqueeze(-1)) * onehot
        G = G - t.conj() * (v @ vG)
    if which == "tau":
        return stack(gtau, -1) if gtau else tau * 0
    return gA


@op("LinalgHouseholderProductBackward0", name="linalg_householder_product", method=False,
    function=False, promote=None, holomorphic=False,
    input=lambda grad, input, tau: _backward(grad, input, tau, "input"),
    tau=lambda grad, input, tau: _backward(grad, input, tau, "tau"))
def _householder_product(input, tau):
    m, n = input.shape[-2:]
    k = tau.shape[-1]
    q = xp.broadcast_to(xp.eye(m, n, dtype=input.dtype), input.shape).copy()
    for i in reversed(range(k)):
        v = input[..., :, i].copy()
        v[..., :i] = 0
        v[..., i] = 1
        w = xp.einsum("...m,...mn->...n", v.conj(), q)
        q -= tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return q


def householder_product(A: Tensor, tau: Tensor, *, out=None) -> Tensor:
    """The first ``n`` columns of ``H_1 … H_k``, ``H_i = I − τ_i v_i v_iᴴ`` with ``v_i`` the
    i-th column of ``A`` below the diagonal and 1 on it (node
    ``LinalgHouseholderProductBackward0``).

    >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
    >>> torch.linalg.householder_product(a, tau)
    tensor([[-0.6000, -0.8000],
            [-0.8000,  0.6000]])
    """
    name = "torch.linalg.householder_product"
    if A.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if A.dim() - tau.dim() != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.dim()} and input.ndim is equal to "
                           f"{A.dim()}")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype != A.dtype:
        raise RuntimeError(f"{name}: tau dtype {tau.dtype.scalar_name} does not match input "
                           f"dtype {A.dtype.scalar_name}")
    if A.dtype not in _FLOATING:
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{A.dtype.scalar_name}'")
    return run(_householder_product, (A, tau), out)


@expose(name="orgqr")
def orgqr(input: Tensor, input2: Tensor, *, out=None) -> Tensor:
    """``torch.orgqr``: an alias of :func:`ember.linalg.householder_product`."""
    return householder_product(input, input2, out=out)
