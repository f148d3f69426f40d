"""``nn.utils.parametrizations``: ``orthogonal``, ``weight_norm`` and ``spectral_norm`` as
parametrizations (``nn.utils.parametrize``), torch's modules name for name.

``orthogonal`` maps an unconstrained tensor to an orthogonal (unitary) matrix by the matrix
exponential or the Cayley transform of a skew-symmetric matrix, or by a product of Householder
reflectors; with ``use_trivialization`` the map is taken around a ``base`` point that
assignments reset. ``weight_norm`` keeps ``original0`` (g) and ``original1`` (v);
``spectral_norm`` keeps the power-iteration vectors ``_u`` and ``_v`` as buffers and runs an
iteration on every training forward, drawing its starting vectors with ``normal_`` from the
default generator as torch does.
"""

from __future__ import annotations

from enum import Enum, auto

from ... import _factories
from ..._finfo import finfo as _finfo
from ..._nn_functions import norm_except_dim as _norm_except_dim
from ..._ops.constructions import matrix_exp as _matrix_exp
from ..._ops.householder import geqrf as _geqrf
from ..._ops.householder import householder_product as _householder_product
from ..._ops.linalg import mv as _mv
from ..._ops.linalg import vdot as _vdot
from ..._ops.shape import cat as _cat
from ..._ops.weight_norm import _weight_norm
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad as _no_grad
from ...linalg import solve as _solve
from .. import functional as F
from ..modules import conv as _conv
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    Id = _factories.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * _finfo(Q.dtype).eps
    return Q.mH.matmul(Q).allclose(Id, atol=eps)


def _make_orthogonal(A):
    """Q of A's QR decomposition, its columns' signs chosen so that R's diagonal is
    positive (the diagonal of the compact form is R's)."""
    X, tau = _geqrf(A)
    Q = _householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    base: Tensor

    def __init__(self, weight, orthogonal_map: _OrthMaps, *,
                 use_trivialization=True) -> None:
        super().__init__()
        # complex reflectors cannot carry the n² real parameters of a unitary matrix
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # X is tall (n >= k) from here on
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            # n·k − k(k−1)/2 parameters: the lower triangle, embedded in a square matrix
            X = X.tril()
            if n != k:
                X = _cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH                  # skew-symmetric (skew-Hermitian)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = _matrix_exp(A)
            else:
                # the Cayley retraction (I + A/2)(I − A/2)⁻¹
                Id = _factories.eye(n, dtype=A.dtype, device=A.device)
                Q = _solve(Id.add(A, alpha=-0.5), Id.add(A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            # real here: the reflectors below the diagonal, ±1 on it choosing the signs
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            # the diagonal's signs are not differentiated through, nor updated
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @_no_grad()
    def right_inverse(self, Q: Tensor) -> Tensor:
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        # Q is copied on every path
        if not hasattr(self, "base"):
            # without a base only the Householder map can be inverted (by a QR)
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential or the Cayley "
                    "parametrizations when use_trivialization=False.")
            A, tau = _geqrf(Q)
            # diag(R) > 0 makes the decomposition unique; LAPACK's tau is exactly 0 where it
            # skipped a reflection
            A.diagonal(dim1=-2, dim2=-1).sign_()
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            # complete Q to an n×n orthogonal matrix
            N = _factories.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype,
                                 device=Q.device)
            Q = _make_orthogonal(_cat([Q, N], dim=-1))
        self.base = Q
        # −I: the Householder map then gives householder(zeros) == eye
        neg_Id = _factories.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Constrain ``module.<name>`` (a matrix or batch of matrices) to be orthogonal (unitary)
    through ``orthogonal_map``: ``"matrix_exp"`` (the default for square or complex
    matrices), ``"cayley"`` or ``"householder"``.

    >>> m = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(20, 40))
    >>> torch.dist(m.weight.T @ m.weight, torch.eye(20)) < 1e-5
    tensor(True)
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1)
                          or weight.is_complex() else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = _norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module: Module, name: str = "weight", dim: int = 0):
    """Reparametrise ``module.<name>`` as ``g · v / ‖v‖``, the norm over every dim but
    ``dim`` (``None``: the whole tensor): ``original0`` is g, ``original1`` v. State dicts of
    the deprecated :func:`ember.nn.utils.weight_norm` (``<name>_g``, ``<name>_v``) load.

    >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(20, 40))
    >>> m.parametrizations.weight.original0.size()
    torch.Size([40, 1])
    """
    _weight_norm_module = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm_module, unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys,
                                 unexpected_keys, error_msgs) -> None:
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # (a vector needs no estimate: see forward)
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            # start from reasonable vectors
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if weight.ndim <= 1:
            raise AssertionError(
                f"Expected weight to have more than 1 dimension, got {weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @_no_grad()
    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        # u and v are updated in place (module replicas share them); forward clones them
        # so that a graph through an earlier forward still finds the values it saved
        if weight_mat.ndim <= 1:
            raise AssertionError(
                f"Expected weight_mat to have more than 1 dimension, got {weight_mat.ndim}")
        for _ in range(n_power_iterations):
            self._u = F.normalize(_mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(_mv(weight_mat.H, self._u), dim=0, eps=self.eps,
                                  out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            # exact, nothing to estimate
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = _vdot(u, _mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm, estimated by ``n_power_iterations``
    power iterations per training forward (15 when registered); ``dim`` is the output dim
    (1 for transposed convolutions).

    >>> snm = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(20, 40))
    >>> snm.parametrizations.weight[0]._u.size()
    torch.Size([40])
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (_conv.ConvTranspose1d, _conv.ConvTranspose2d,
                                       _conv.ConvTranspose3d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


del annotations  # keep dir() to torch's names
