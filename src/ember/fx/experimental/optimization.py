"""``torch.fx.experimental.optimization``: inference-time graph rewrites: :func:`fuse` folds
BatchNorm into the convolution or linear layer before it, :func:`remove_dropout` drops the
Dropout modules."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from ... import nn
from ...nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
from .. import GraphModule as _GraphModule
from .. import Node as _Node
from .. import Transformer as _Transformer
from .. import symbolic_trace as _symbolic_trace

__all__ = ["fuse", "remove_dropout", "matches_module_pattern", "replace_node_module"]


def _parent_name(target: str) -> tuple[str, str]:
    """``foo.bar.baz`` -> (``foo.bar``, ``baz``)."""
    *parent, name = target.rsplit(".", 1)
    return parent[0] if parent else "", name


def matches_module_pattern(pattern: Iterable[type], node: _Node,
                           modules: dict[str, nn.Module]) -> bool:
    """Whether ``node`` and its first argument call modules of exactly the two types of
    ``pattern`` (first argument first)."""
    if len(node.args) == 0:
        return False
    for expected_type, current_node in zip(pattern, (node.args[0], node)):
        if not isinstance(current_node, _Node) or current_node.op != "call_module":
            return False
        if not isinstance(current_node.target, str) or current_node.target not in modules:
            return False
        if type(modules[current_node.target]) is not expected_type:
            return False
    return True


def replace_node_module(node: _Node, modules: dict[str, nn.Module],
                        new_module: nn.Module) -> None:
    """Install ``new_module`` where ``node``'s target module was."""
    parent_name, name = _parent_name(node.target)
    modules[node.target] = new_module
    setattr(modules[parent_name], name, new_module)


def fuse(model: nn.Module, inplace: bool = False, no_trace: bool = False) -> nn.Module:
    """Fold each BatchNorm that follows a Conv1d/2d/3d or Linear (whose output nothing else
    reads) into that layer, for inference; works on a deep copy unless ``inplace``."""
    patterns = [(nn.Conv1d, nn.BatchNorm1d), (nn.Conv2d, nn.BatchNorm2d),
                (nn.Conv3d, nn.BatchNorm3d), (nn.Linear, nn.BatchNorm1d)]
    if not inplace:
        model = copy.deepcopy(model)
    if not no_trace or not isinstance(model, _GraphModule):
        fx_model = _symbolic_trace(model)
    else:
        fx_model = model
    modules = dict(fx_model.named_modules())
    new_graph = copy.deepcopy(fx_model.graph)
    for pattern in patterns:
        for node in new_graph.nodes:
            if matches_module_pattern(pattern, node, modules):
                if len(node.args[0].users) > 1:
                    continue
                first_layer = modules[node.args[0].target]
                bn = modules[node.target]
                if not bn.track_running_stats:
                    continue
                if pattern[0] in (nn.Conv1d, nn.Conv2d, nn.Conv3d):
                    fused_layer = fuse_conv_bn_eval(first_layer, bn)
                else:
                    fused_layer = fuse_linear_bn_eval(first_layer, bn)
                replace_node_module(node.args[0], modules, fused_layer)
                node.replace_all_uses_with(node.args[0])
                new_graph.erase_node(node)
    return _GraphModule(fx_model, new_graph)


def remove_dropout(model: nn.Module) -> nn.Module:
    """``model`` traced, with every Dropout module call replaced by its input."""
    fx_model = _symbolic_trace(model)

    class DropoutRemover(_Transformer):
        def call_module(self, target: str, args: tuple, kwargs: dict[str, Any]) -> Any:
            if isinstance(self.submodules[target], nn.Dropout):
                return args[0]
            return super().call_module(target, args, kwargs)

    return DropoutRemover(fx_model).transform()


del annotations  # keep dir() to torch's names
