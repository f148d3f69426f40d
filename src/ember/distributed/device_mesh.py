"""``torch.distributed.device_mesh``: the ranks of a job laid out as an n-dimensional grid,
with a process group along each dimension (made with ``new_group`` by every rank)."""

from __future__ import annotations

import numpy as _np

from . import distributed_c10d as _c10d

__all__ = ["init_device_mesh", "DeviceMesh"]


class DeviceMesh:
    """An n-dimensional grid of global ranks. Each dimension has the process group of this
    rank's line along it (``get_group``); ``mesh["dp"]`` is the sub-mesh of the named
    dimensions through this rank, sharing the parent's groups. Every rank of the world must
    make the same meshes, in the same order (the groups are made collectively)."""

    def __init__(self, device_type: str, mesh=None, *,
                 mesh_dim_names: tuple[str, ...] | None = None, backend_override=None,
                 _init_backend: bool = True) -> None:
        from .._tensor import Tensor
        if mesh is None:
            raise ValueError("DeviceMesh needs a mesh of ranks")
        arr = _np.array(mesh._data if isinstance(mesh, Tensor) else mesh, dtype=_np.int64)
        self.device_type = device_type
        self._mesh = arr
        self._strides = tuple(s // arr.itemsize for s in _np.ascontiguousarray(arr).strides)
        if mesh_dim_names is not None:
            mesh_dim_names = tuple(mesh_dim_names)
            if len(mesh_dim_names) != arr.ndim:
                raise RuntimeError(
                    f"mesh_dim_names should have same length as mesh.ndim, but got "
                    f"{len(mesh_dim_names)} and {arr.ndim}")
            if len(set(mesh_dim_names)) != len(mesh_dim_names):
                raise RuntimeError(f"Each mesh_dim_name must be unique. Found repeated "
                                   f"mesh_dim_name in mesh_dim_names {mesh_dim_names}")
        self._mesh_dim_names = mesh_dim_names
        if _init_backend and not _c10d.is_initialized():
            _c10d.init_process_group()
        self._rank = _c10d.get_rank()
        where = _np.argwhere(arr == self._rank)
        self._coordinate = tuple(int(c) for c in where[0]) if len(where) else None
        self._groups = self._make_groups() if _init_backend else []

    def _make_groups(self) -> list:
        world = _c10d.get_world_size()
        groups = []
        for d in range(self._mesh.ndim):
            lines = _np.moveaxis(self._mesh, d, -1).reshape(-1, self._mesh.shape[d])
            mine = None
            if self._mesh.ndim == 1 and lines.shape[1] == world \
                    and (lines[0] == _np.arange(world)).all():
                mine = _c10d.GroupMember.WORLD
            else:
                for line in lines:
                    pg = _c10d.new_group([int(r) for r in line])
                    if self._rank in line:
                        mine = pg
            groups.append(mine)
        return groups

    # ----- the grid
    @property
    def mesh(self):
        """The ranks, as an int64 tensor of the mesh's shape."""
        from .._tensor import Tensor
        return Tensor._wrap(self._mesh.copy())

    @property
    def mesh_dim_names(self) -> tuple[str, ...] | None:
        return self._mesh_dim_names

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._mesh.shape)

    @property
    def ndim(self) -> int:
        return self._mesh.ndim

    def size(self, mesh_dim: int | None = None) -> int:
        """The number of ranks (along ``mesh_dim``, when given)."""
        return int(self._mesh.size) if mesh_dim is None else int(self._mesh.shape[mesh_dim])

    def _dim(self, mesh_dim) -> int:
        if isinstance(mesh_dim, str):
            if not self._mesh_dim_names or mesh_dim not in self._mesh_dim_names:
                raise KeyError(f"Mesh dimension '{mesh_dim}' does not exist. Available mesh "
                               f"dimensions are: mesh_dim_names={self._mesh_dim_names}")
            return self._mesh_dim_names.index(mesh_dim)
        return mesh_dim

    def get_group(self, mesh_dim: int | str | None = None):
        """The process group along ``mesh_dim`` (which a mesh of more than one dimension
        must name) through this rank."""
        if mesh_dim is None:
            if self.ndim > 1:
                raise RuntimeError(
                    f"Found the DeviceMesh have {self.ndim} dimensions",
                    "Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1.",
                    "If you want to get the list of all the ProcessGroups in the DeviceMesh,"
                    "please use `get_all_groups()` instead.")
            mesh_dim = 0
        return self._groups[self._dim(mesh_dim)]

    def get_all_groups(self) -> list:
        """The process group of every dimension."""
        return list(self._groups)

    def get_rank(self) -> int:
        """This process's global rank."""
        return self._rank

    def get_local_rank(self, mesh_dim: int | str | None = None) -> int:
        """This rank's coordinate along ``mesh_dim``."""
        if mesh_dim is None:
            if self.ndim > 1:
                raise RuntimeError(
                    f"Found the DeviceMesh have {self.ndim} dimensions",
                    "Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1.")
            mesh_dim = 0
        return self._coordinate[self._dim(mesh_dim)]

    def get_coordinate(self) -> tuple[int, ...] | None:
        """This rank's coordinates in the mesh, or None outside it."""
        return self._coordinate

    def __getitem__(self, mesh_dim_names):
        """The sub-mesh of the named dimensions through this rank."""
        if not self._mesh_dim_names:
            raise RuntimeError("Cannot slice a DeviceMesh without mesh_dim_names!")
        names = (mesh_dim_names,) if isinstance(mesh_dim_names, str) else tuple(mesh_dim_names)
        if names == self._mesh_dim_names:
            return self
        dims = [self._dim(n) for n in names]
        if dims != sorted(dims):
            raise KeyError(f"Invalid mesh_dim_names {names} specified. Mesh dim names must "
                           f"be in the order of {self._mesh_dim_names}.")
        index = tuple(slice(None) if d in dims else c for d, c in enumerate(self._coordinate))
        sub = DeviceMesh(self.device_type, self._mesh[index], mesh_dim_names=names,
                         _init_backend=False)
        sub._rank = self._rank
        sub._coordinate = tuple(self._coordinate[d] for d in dims)
        sub._groups = [self._groups[d] for d in dims]
        sub._strides = tuple(self._strides[d] for d in dims)
        return sub

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        return (isinstance(other, DeviceMesh) and self.device_type == other.device_type
                and self._mesh.shape == other._mesh.shape
                and (self._mesh == other._mesh).all()
                and self._mesh_dim_names == other._mesh_dim_names)

    def __hash__(self) -> int:
        return hash((self.device_type, self._mesh.tobytes(), self._mesh.shape,
                     self._mesh_dim_names))

    def __repr__(self) -> str:
        if self._mesh_dim_names:
            sizes = "(" + ", ".join(f"{k}={v}" for k, v in
                                    zip(self._mesh_dim_names, self._mesh.shape)) + ")"
        else:
            sizes = str(tuple(self._mesh.shape))
        # (torch's layout gives a dimension of size 1 no stride)
        strides = tuple(() if n == 1 else st for n, st in zip(self._mesh.shape, self._strides))
        return f"DeviceMesh({sizes}, '{self.device_type}', stride={strides})"


def init_device_mesh(device_type: str, mesh_shape: tuple[int, ...], *,
                     mesh_dim_names: tuple[str, ...] | None = None,
                     backend_override=None) -> DeviceMesh:
    """A mesh of the world's ranks in order, of shape ``mesh_shape`` (initialising the
    default process group first if need be)."""
    if mesh_dim_names is not None:
        if len(set(mesh_dim_names)) != len(mesh_dim_names):
            raise RuntimeError(f"Each mesh_dim_name must be unique. Found repeated "
                               f"mesh_dim_name in mesh_dim_names {tuple(mesh_dim_names)}")
        if len(mesh_shape) != len(mesh_dim_names):
            raise RuntimeError(
                "mesh_shape and mesh_dim_names should have same length! Found len(mesh_shape): "
                f"{len(mesh_shape)} and len(mesh_dim_names): {len(mesh_dim_names)}.")
    if device_type and not device_type.isalpha():
        raise RuntimeError(f"Device type with index is not supported but got {device_type}. "
                           "If you maintained a 'torch.device' object, it's recommended to "
                           "pass in 'device.type'.")
    if not _c10d.is_initialized():
        _c10d.init_process_group()
    world = _c10d.get_world_size()
    total = int(_np.prod(mesh_shape)) if len(mesh_shape) else 1
    if total != world:
        raise RuntimeError(f"Mesh should not be bigger than default world size {world}, but "
                           f"found {total} ranks!" if total > world else
                           f"DeviceMesh's mesh shape {tuple(mesh_shape)} holds {total} ranks; "
                           f"the world has {world}")
    mesh = _np.arange(total, dtype=_np.int64).reshape(tuple(mesh_shape))
    return DeviceMesh(device_type, mesh, mesh_dim_names=mesh_dim_names)


del annotations  # keep dir() to torch's names
