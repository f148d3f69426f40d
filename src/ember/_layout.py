"""Tensor layouts: ``ember.strided`` (every ember tensor's), and torch's other layout names.

``sparse_coo`` is the layout of ember's sparse tensors (:mod:`ember.sparse`); ``sparse_csr``
… and ``jagged`` exist as the constants code compares against or passes on.
"""

from __future__ import annotations

__all__ = ["layout", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr",
           "sparse_bsc", "jagged"]


class TorchConstant:
    """A named torch constant (a layout, a memory format, a quantization scheme): printed as
    ``torch.<name>``, pickled by name through its class's ``_by_name``."""

    __slots__ = ("name",)
    _by_name = None           # a module-level function: name -> the constant

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self):
        return (self._by_name, (self.name,))


class layout(TorchConstant):
    """A memory layout of tensor data, printed as torch's (``torch.strided``)."""

    __slots__ = ()


def _by_name(name: str) -> layout:
    return globals()[name]


layout._by_name = staticmethod(_by_name)


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
jagged = layout("jagged")
