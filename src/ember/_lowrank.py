"""Randomised low-rank SVD and PCA (``torch.svd_lowrank``, ``torch.pca_lowrank``): Halko,
Martinsson and Tropp's range finder with subspace iterations (their Algorithms 4.4 and 5.1),
step for step as torch's ``torch/_lowrank.py``, so the random draws (from the global generator,
which is torch's) and therefore the results are torch's to round-off. Loaded on first use.
"""

from __future__ import annotations

from . import _dtype as D
from ._factories import randn
from ._ops.decompositions import qr, svd
from ._tensor import Tensor


def _basis(A, q, niter, M):
    """``Q`` with ``q`` orthonormal columns such that ``Q Qᴴ (A - M)`` approximates
    ``A - M``."""
    niter = 2 if niter is None else niter
    dtype = A.dtype if A.dtype.is_complex or A.dtype in (D.float16, D.float32, D.float64) \
        else D.float32
    R = randn(A.shape[-1], q, dtype=dtype)

    def times(B, X):        # (B - M) X, without forming B - M
        Y = B @ X
        return Y if M is None else Y - (M if B is A else M.mH) @ X
    Q = qr(times(A, R)).Q
    for _ in range(niter):
        Q = qr(times(A.mH, Q)).Q
        Q = qr(times(A, Q)).Q
    return Q


def _svd_lowrank(A, q, niter, M):
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    if m < n:
        A = A.mH
        M = None if M is None else M.mH
    Q = _basis(A, q, niter, M)
    B = Q.mH @ A
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    return (V, S, U) if m < n else (U, S, V)


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2,
                M: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """An approximate SVD ``(U, S, V)`` of ``A - M`` (``M`` broadcasts; ``A`` if ``M`` is
    None) of rank ``q``, by randomised subspace iteration (``niter`` power steps).

    >>> _ = ember.manual_seed(0)
    >>> U, S, V = ember.svd_lowrank(ember.eye(8)[:, :3] * ember.tensor([3., 2., 1.]), q=3)
    >>> S
    tensor([3.0000, 2.0000, 1.0000])
    """
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True,
                niter: int = 2) -> tuple[Tensor, Tensor, Tensor]:
    """Principal component analysis of the data ``A`` (``m`` samples × ``n`` features):
    :func:`svd_lowrank` of ``A`` less its column means (``center=True``), ``q = min(6, m, n)``
    by default; the columns of ``V`` are the principal directions."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter, None)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter, None)
