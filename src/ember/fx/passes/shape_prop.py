"""``torch.fx.passes.shape_prop``: :class:`ShapeProp` records each node's tensor metadata."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..interpreter import Interpreter as _Interpreter
from ..node import Node, map_aggregate

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    """What ShapeProp records of a tensor a node computes."""

    shape: Any
    dtype: Any
    requires_grad: bool
    stride: tuple[int, ...]
    memory_format: Any
    is_quantized: bool
    qparams: dict[str, Any]


def _extract_tensor_metadata(result) -> TensorMetadata:
    from ... import channels_last, channels_last_3d, contiguous_format
    memory_format = None
    for query_format in (contiguous_format, channels_last, channels_last_3d):
        if result.is_contiguous(memory_format=query_format):
            memory_format = query_format
            break
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, result.stride(),
                          memory_format, False, {})


class ShapeProp(_Interpreter):
    """Run a GraphModule on example inputs and store each tensor result's
    :class:`TensorMetadata` in ``node.meta['tensor_meta']`` (and its type in ``node.type``)."""

    def __init__(self, gm, fake_mode: Any = None) -> None:
        super().__init__(gm)
        self.fake_mode = fake_mode
        self.fake_module = None
        self.real_module = self.module

    def run_node(self, n: Node) -> Any:
        """Run ``n`` and record the metadata of the tensors it returns."""
        from ... import Tensor
        try:
            result = super().run_node(n)
        except Exception as e:
            raise RuntimeError(
                f"ShapeProp error for: node={n.format_node()} with meta={n.meta}") from e
        found_tensor = False

        def extract_tensor_meta(obj):
            nonlocal found_tensor
            if isinstance(obj, Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract_tensor_meta)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args: Any) -> Any:
        """Run the module on ``args``, recording metadata; returns its output."""
        return super().run(*args)


del annotations  # keep dir() to torch's names
