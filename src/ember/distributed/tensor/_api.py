"""``DTensor``: a tensor laid out over a device mesh; each rank holds its local piece.

A DTensor is a Tensor subclass whose own array is its local piece (so optimizers, which
work on arrays, update parameters shard by shard) and whose shape is the global one. Its
operations go through ``__torch_function__`` to the sharding rules of
:mod:`ember.distributed.tensor._ops`, which lay the arguments out as each operation needs,
run it on the local pieces and give the result its placements. Autograd runs on the local
pieces: ``requires_grad``, ``grad``, ``grad_fn`` and ``backward`` are those of the local
piece, seen as DTensors (see :mod:`._redistribute` for the gradients' layout).
"""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from ...autograd import Function
from ...nn.parameter import Parameter
from ...overrides import _activate
from . import _redistribute as R
from .placement_types import Placement, Replicate, Shard


class DTensorSpec:
    """Where a DTensor lies: its mesh, one placement per mesh dimension, its global shape."""

    __slots__ = ("mesh", "placements", "shape")

    def __init__(self, mesh, placements, shape) -> None:
        self.mesh, self.placements, self.shape = mesh, tuple(placements), tuple(shape)

    def __eq__(self, other) -> bool:
        return (isinstance(other, DTensorSpec) and self.mesh == other.mesh
                and self.placements == other.placements and self.shape == other.shape)

    def __hash__(self) -> int:
        return hash((self.mesh, self.placements, self.shape))

    def __repr__(self) -> str:
        return f"Spec({', '.join(str(p) for p in self.placements)} on {self.shape})"


def normalize_placements(placements, ndim: int, mesh) -> tuple:
    """Placements with negative shard dims counted from the end, one per mesh dimension."""
    if placements is None:
        return (Replicate(),) * mesh.ndim
    placements = tuple(placements)
    if len(placements) != mesh.ndim:
        raise ValueError(f"`placements` must have the same length as `device_mesh.ndim`! "
                         f"Found placements length: {len(placements)}, and device_mesh.ndim: "
                         f"{mesh.ndim}.")
    out = []
    for p in placements:
        if not isinstance(p, Placement):
            raise TypeError(f"placements must be Placement objects, got {p!r}")
        if p.is_shard() and p.dim < 0:
            if ndim == 0:
                raise IndexError("can not shard a 0-dim tensor")
            p = Shard(p.dim + ndim)
        out.append(p)
    return tuple(out)


class DTensor(Tensor):
    """A tensor whose elements lie over the ranks of a ``DeviceMesh`` as its
    ``placements`` say (``Shard``, ``Replicate``, ``Partial`` per mesh dimension).

    Make one with :func:`distribute_tensor` (from a whole tensor) or
    :meth:`DTensor.from_local` (from each rank's piece); ``to_local`` gives the piece,
    ``full_tensor`` the whole tensor, ``redistribute`` another layout."""

    # Loading this module leaves dispatch off; the first DTensor made switches it on.
    _dispatch_from_first_instance = True

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        from ._ops import dispatch
        return dispatch(func, args, kwargs or {})

    @staticmethod
    def _make(local: Tensor, spec: DTensorSpec) -> DTensor:
        _activate()
        t = object.__new__(DTensor)
        t._data = local._data
        t._vc = local._vc
        t._requires_grad = False
        t._grad = t._base = t._acc = t._hooks = None
        t._output_nr = 0
        t._retains_grad = False
        t._local_tensor = local
        t._spec = spec
        return t

    @classmethod
    def _as_parameter(cls, data: DTensor, requires_grad: bool = True) -> DTensor:
        """``nn.Parameter(dtensor)``: a leaf DTensor that modules take as a parameter."""
        local = data._local_tensor.detach()
        local.requires_grad_(requires_grad)
        t = DTensor._make(local, data._spec)
        t.__class__ = _DTensorParameter
        return t

    # ----- layout
    @property
    def device_mesh(self):
        """The mesh the tensor lies on."""
        return self._spec.mesh

    @property
    def placements(self) -> tuple:
        """One placement per mesh dimension."""
        return self._spec.placements

    @property
    def shape(self):
        from ..._tensor import Size
        return Size(self._spec.shape)

    def size(self, dim: int | None = None):
        """The global shape, or the global length of dimension ``dim``."""
        from ..._tensor import Size
        if dim is None:
            return Size(self._spec.shape)
        from ..._ops.util import norm_dim
        return self._spec.shape[norm_dim(dim, len(self._spec.shape))]

    def dim(self) -> int:
        return len(self._spec.shape)

    ndimension = dim

    @property
    def ndim(self) -> int:
        return len(self._spec.shape)

    def numel(self) -> int:
        return int(np.prod(self._spec.shape, dtype=np.int64))

    nelement = numel

    def stride(self, dim: int | None = None):
        from ..._memory_format import contiguous_strides
        st = contiguous_strides(self._spec.shape)
        return st if dim is None else st[dim]

    def __hash__(self) -> int:
        return id(self)

    def __len__(self) -> int:
        if not self._spec.shape:
            raise TypeError("len() of a 0-d tensor")
        return self._spec.shape[0]

    # ----- autograd, that of the local piece
    @property
    def requires_grad(self) -> bool:
        return self._local_tensor.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._local_tensor.requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> DTensor:
        self._local_tensor.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._local_tensor.grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._local_tensor.grad_fn is None

    def _grad_spec(self) -> DTensorSpec:
        """Where this tensor's gradient lies (see :mod:`._redistribute`)."""
        return DTensorSpec(self._spec.mesh, tuple(R.grad_placement(p) for p in self.placements),
                           self._spec.shape)

    @property
    def grad(self):
        g = self._local_tensor._grad
        return None if g is None else DTensor._make(g, self._grad_spec())

    @grad.setter
    def grad(self, value) -> None:
        if value is None:
            self._local_tensor._grad = None
            return
        if not isinstance(value, DTensor):
            raise RuntimeError("a DTensor's grad must be a DTensor")
        self._local_tensor._grad = R.redistribute_local(
            value._local_tensor, value._spec.shape, value.device_mesh, value.placements,
            self._grad_spec().placements).detach()

    @grad.deleter
    def grad(self) -> None:
        self._local_tensor._grad = None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Backward from this DTensor through the local pieces' graphs (every rank calls it)."""
        if isinstance(gradient, DTensor):
            gradient = R.redistribute_local(gradient._local_tensor, gradient._spec.shape,
                                            gradient.device_mesh, gradient.placements,
                                            self._grad_spec().placements)
        if inputs is not None:
            inputs = [i._local_tensor if isinstance(i, DTensor) else i for i in inputs]
        self._local_tensor.backward(gradient, retain_graph, create_graph, inputs)

    def register_hook(self, hook):
        """Run ``hook(grad)`` (a DTensor) when this tensor's gradient is computed."""
        spec = self._grad_spec()

        def on_local(g):
            out = hook(DTensor._make(g, spec))
            return out._local_tensor if isinstance(out, DTensor) else out

        return self._local_tensor.register_hook(on_local)

    def detach(self) -> DTensor:
        return DTensor._make(self._local_tensor.detach(), self._spec)

    @property
    def data(self) -> DTensor:
        return self.detach()

    @data.setter
    def data(self, value: DTensor) -> None:
        if not isinstance(value, DTensor):
            raise TypeError("a DTensor's data must be a DTensor")
        self._local_tensor.data = value._local_tensor
        self._data = self._local_tensor._data
        self._spec = value._spec

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        local = self._local_tensor.detach().clone()
        local.requires_grad_(self._local_tensor.requires_grad)
        new = DTensor._make(local, self._spec)
        new.__class__ = self.__class__
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._local_tensor.detach().clone(), self._spec.mesh,
                           self._spec.placements, self._spec.shape))

    def __repr__(self, *, tensor_contents=None) -> str:
        return (f"DTensor(local_tensor={self._local_tensor!r}, device_mesh={self.device_mesh!r}, "
                f"placements={self.placements!r})")

    # ----- conversions
    @staticmethod
    def from_local(local_tensor, device_mesh=None, placements=None, *, run_check: bool = False,
                   shape=None, stride=None, grad_placements=None) -> DTensor:
        """A DTensor whose piece on this rank is ``local_tensor`` (differentiable: the
        gradient comes back to ``local_tensor`` as a local piece laid out as
        ``placements``, or ``grad_placements``)."""
        from ..device_mesh import DeviceMesh as _Mesh
        if device_mesh is None or not isinstance(device_mesh, _Mesh):
            raise RuntimeError("from_local needs a DeviceMesh")
        placements = normalize_placements(placements, local_tensor.ndim, device_mesh)
        local = local_tensor
        if shape is None:
            shape = _global_shape(local, device_mesh, placements)
        spec = DTensorSpec(device_mesh, placements, tuple(shape))
        if run_check:
            _check_replicas(local, device_mesh, placements)
        if local.requires_grad:
            have = tuple(R.grad_placement(p) for p in placements)
            want = have if grad_placements is None else normalize_placements(
                grad_placements, local.ndim, device_mesh)
            local = _FromTorchTensor.apply(local, spec, have, want)
        return DTensor._make(local, spec)

    def to_local(self, *, grad_placements=None) -> Tensor:
        """This rank's piece (differentiable: its gradient is taken as the local piece of a
        gradient laid out as ``grad_placements``, by default the placements)."""
        local = self._local_tensor
        if not local.requires_grad:
            return local
        want = self._grad_spec().placements
        have = want if grad_placements is None else normalize_placements(
            grad_placements, self.ndim, self.device_mesh)
        return _ToTorchTensor.apply(local, self._spec, have, want)

    def redistribute(self, device_mesh=None, placements=None, *, async_op: bool = False,
                     forward_dtype=None, backward_dtype=None) -> DTensor:
        """The same tensor laid out as ``placements`` (collectives of the mesh's groups;
        differentiable)."""
        mesh = device_mesh or self.device_mesh
        if mesh != self.device_mesh:
            raise NotImplementedError("Cross device mesh comm not supported yet!")
        if placements is None:
            raise RuntimeError("placements is needed for redistribute!")
        placements = normalize_placements(placements, self.ndim, mesh)
        local = self._local_tensor
        if forward_dtype is not None:
            local = local.to(forward_dtype)
        local = R.redistribute_local(local, self._spec.shape, mesh, self.placements, placements)
        return DTensor._make(local, DTensorSpec(mesh, placements, self._spec.shape))

    def full_tensor(self, *, grad_placements=None) -> Tensor:
        """The whole tensor on every rank (an all-gather or all-reduce; differentiable)."""
        whole = self.redistribute(placements=[Replicate()] * self.device_mesh.ndim)
        return whole.to_local(grad_placements=grad_placements)


class _DTensorParameter(DTensor, Parameter):
    """A DTensor that is a module's parameter (``nn.Parameter(dtensor)``; named DTensor,
    the type torch gives it)."""

    _dispatch_from_first_instance = True


_DTensorParameter.__name__ = _DTensorParameter.__qualname__ = "DTensor"


def _rebuild(local, mesh, placements, shape):
    return DTensor._make(local, DTensorSpec(mesh, placements, shape))


def _global_shape(local, mesh, placements) -> tuple:
    """The global shape from this rank's piece, taking the pieces as even (torch's
    ``compute_global_tensor_info``; pass ``shape`` for uneven ones)."""
    shape = list(local.shape)
    for i, p in enumerate(placements):
        if p.is_shard():
            shape[p.dim] *= mesh.size(i)
    return tuple(shape)


def _check_replicas(local, mesh, placements) -> None:
    """``run_check``: the replicated dimensions hold the same data on every rank (as in
    torch, rank 0's piece is broadcast over each replicated mesh dimension)."""
    from .. import distributed_c10d as c10d
    for i, p in enumerate(placements):
        if p.is_replicate():
            theirs = Tensor._wrap(np.ascontiguousarray(local._data).copy())
            c10d.broadcast(theirs, group=mesh.get_group(i), group_src=0)
            if not np.array_equal(theirs._data, local._data):
                raise ValueError("Inconsistent tensor metadata or data across ranks: the "
                                 "replicated pieces differ")


class _Relayout(Function):
    """The identity whose backward lays the gradient's piece out from ``have`` to
    ``want`` (the gradient layouts of ``to_local`` and ``from_local``)."""

    @staticmethod
    def forward(ctx, local, spec, have, want):
        ctx.args = (spec, have, want)
        return local.view_as(local)

    @staticmethod
    def backward(ctx, grad):
        spec, have, want = ctx.args
        if have == want:
            return grad, None, None, None
        arr = R.redistribute_array(grad._data, spec.shape, spec.mesh, have, want)
        return Tensor._wrap(arr), None, None, None


class _ToTorchTensor(_Relayout):
    """``DTensor.to_local`` (named as torch's, for ``grad_fn``)."""


class _FromTorchTensor(_Relayout):
    """``DTensor.from_local`` (named as torch's, for ``grad_fn``)."""


def distribute_tensor(tensor, device_mesh=None, placements=None, *,
                      src_data_rank: int | None = 0) -> DTensor:
    """``tensor`` laid out over ``device_mesh`` as ``placements`` (Replicate everywhere by
    default): every rank takes its piece of rank ``src_data_rank``'s tensor (of its own
    when None). The result is a leaf that requires grad when ``tensor`` does."""
    from .. import distributed_c10d as c10d
    from ..device_mesh import DeviceMesh as _Mesh
    if isinstance(tensor, DTensor):
        if device_mesh is not None and device_mesh != tensor.device_mesh:
            raise ValueError("Cannot distribute a DTensor with device mesh "
                             f"{tensor.device_mesh} to a different device mesh {device_mesh}.")
        if placements is not None and tuple(placements) != tensor.placements:
            raise ValueError(f"Cannot distribute a DTensor with placements "
                             f"{tensor.placements} to a different placements {placements}. do "
                             "you want to call `redistribute` instead?")
        return tensor
    if device_mesh is None:
        raise RuntimeError("distribute_tensor needs a DeviceMesh")
    if not isinstance(device_mesh, _Mesh):
        raise TypeError(f"expected a DeviceMesh, got {type(device_mesh)}")
    placements = normalize_placements(placements, tensor.ndim, device_mesh)
    for p in placements:
        if p.is_shard() and not 0 <= p.dim < tensor.ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-tensor.ndim}, {tensor.ndim - 1}], but got {p.dim})")
    arr = np.ascontiguousarray(tensor.detach()._data).copy()
    if src_data_rank is not None:
        for i in range(device_mesh.ndim):
            whole = Tensor._wrap(arr)
            c10d.broadcast(whole, group=device_mesh.get_group(i), group_src=src_data_rank)
    shape = tuple(arr.shape)
    coord = device_mesh.get_coordinate()
    for i, p in enumerate(placements):
        if p.is_shard():
            a, b = R.chunk_bounds(arr.shape[p.dim], device_mesh.size(i), coord[i])
            arr = R._take(arr, p.dim, a, b)
        elif p.is_partial():            # every rank a term: the sum's, the tensor / n
            arr = R.move(arr, device_mesh, i, Replicate(), p, 0)
    local = Tensor._wrap(np.ascontiguousarray(arr))
    if tensor.requires_grad:
        local.requires_grad_(True)
    return DTensor._make(local, DTensorSpec(device_mesh, placements, shape))


def distribute_module(module, device_mesh=None, partition_fn=None, input_fn=None,
                      output_fn=None):
    """Lay ``module``'s parameters out with ``partition_fn(name, submodule, mesh)`` (all
    replicated when None) and hook ``input_fn(module, inputs, mesh)`` before and
    ``output_fn(module, outputs, mesh)`` after its forward."""
    from ... import nn
    if device_mesh is None:
        raise RuntimeError("distribute_module needs a DeviceMesh")
    if getattr(module, "_distribute_module_applied", False):
        raise RuntimeError("distribute_module should only be called once on a module, but it "
                           "has already been called on this module!")

    def replicate(_name, sub, mesh):
        for key, param in list(sub._parameters.items()):
            if param is not None and not isinstance(param, DTensor):
                sub.register_parameter(key, nn.Parameter(
                    distribute_tensor(param.data, mesh, [Replicate()] * mesh.ndim),
                    requires_grad=param.requires_grad))
        for key, buf in list(sub._buffers.items()):
            if buf is not None and not isinstance(buf, DTensor):
                sub._buffers[key] = distribute_tensor(buf, mesh, [Replicate()] * mesh.ndim)

    for name, sub in module.named_modules():
        (partition_fn or replicate)(name, sub, device_mesh)
        if partition_fn is not None:
            replicate(name, sub, device_mesh)
    if input_fn is not None:
        module.register_forward_pre_hook(lambda mod, inputs: input_fn(mod, inputs, device_mesh))
    if output_fn is not None:
        module.register_forward_hook(
            lambda mod, inputs, outputs: output_fn(mod, outputs, device_mesh))
    module._distribute_module_applied = True
    return module


def _factory(make, size, requires_grad, dtype, device_mesh, placements, whole=False):
    """A DTensor of global ``size``: ``make(shape, dtype)`` gives this rank's piece, or with
    ``whole`` the whole tensor, cut here (random factories: the same seed gives every rank
    the same tensor, so the pieces are those of one tensor)."""
    from ..._dtype import get_default_dtype
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    if device_mesh is None:
        raise RuntimeError("the DTensor factories need a device_mesh")
    shape = tuple(int(s) for s in size)
    placements = normalize_placements(placements, len(shape), device_mesh)
    dtype = dtype or get_default_dtype()
    if whole:
        arr = make(shape, dtype)._data
        coord = device_mesh.get_coordinate()
        for i, p in enumerate(placements):
            if p.is_shard():
                a, b = R.chunk_bounds(arr.shape[p.dim], device_mesh.size(i), coord[i])
                arr = R._take(arr, p.dim, a, b)
        local = Tensor._wrap(arr)
    else:
        local = make(R.local_shape(shape, device_mesh, placements), dtype)
    if requires_grad:
        local.requires_grad_(True)
    return DTensor._make(local, DTensorSpec(device_mesh, placements, shape))


def _make_factory(name: str, whole: bool = False):
    from ... import _factories

    fn = getattr(_factories, name)

    def factory(*size, requires_grad: bool = False, dtype=None, layout=None, device_mesh=None,
                placements=None) -> DTensor:
        return _factory(lambda s, dt: fn(s, dtype=dt), size, requires_grad, dtype, device_mesh,
                        placements, whole)

    factory.__name__ = factory.__qualname__ = name
    factory.__module__ = "ember.distributed.tensor"
    factory.__doc__ = (f"A DTensor of global shape ``size`` laid out as ``placements`` on "
                       f"``device_mesh``, filled as ``ember.{name}`` fills.")
    return factory


zeros = _make_factory("zeros")
ones = _make_factory("ones")
empty = _make_factory("empty")
rand = _make_factory("rand", whole=True)
randn = _make_factory("randn", whole=True)


def full(size, fill_value, *, dtype=None, layout=None, requires_grad: bool = False,
         device_mesh=None, placements=None) -> DTensor:
    """A DTensor of global shape ``size`` filled with ``fill_value``, laid out as
    ``placements`` on ``device_mesh``."""
    from ... import _factories
    return _factory(lambda s, dt: _factories.full(s, fill_value, dtype=dt), tuple(size),
                    requires_grad, dtype, device_mesh, placements)


del annotations
