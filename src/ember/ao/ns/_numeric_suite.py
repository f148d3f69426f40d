"""Eager-mode numeric suite (``torch.ao.ns._numeric_suite``): match a float model's weights
and activations with its quantized version's, to measure where quantization loses accuracy."""

from __future__ import annotations

import sys as _sys_
from collections.abc import Callable
from typing import Any

from ... import nn
from ..nn import quantized as nnq
from ..nn.quantized import dynamic as nnqd
from ..quantization.quantize import (
    get_default_dynamic_quant_module_mappings,
    get_default_qconfig_propagation_list,
    get_default_static_quant_module_mappings,
    prepare,
)

torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

__all__ = ["compare_weights", "get_logger_dict", "Logger", "ShadowLogger", "OutputLogger",
           "Shadow", "prepare_model_with_stubs", "compare_model_stub",
           "get_matching_activations", "prepare_model_outputs", "compare_model_outputs"]

NON_LEAF_MODULE_TO_ADD_OBSERVER_ALLOW_LIST = {nnqd.Linear, nnq.Linear, nnqd.LSTM, nn.LSTM}


def _find_match(str_list, key_str: str, postfix: str) -> str | None:
    """The key of ``str_list`` naming the same layer as ``key_str`` (whose last part must be
    ``postfix``), comparing the dotted names with their separators dropped."""
    parts = key_str.split(".")
    if parts[-1] != postfix:
        return None
    candidates = ["".join(parts[:-1])]
    if postfix == "_packed_params":
        candidates.append("".join(parts[:-2]))
    for i, match in enumerate(candidates):
        if i and not match:
            return None
        for s2 in str_list:
            p = s2.split(".")
            if match in ("".join(p[:-1]), "".join(p[:-2])):
                return s2
    return None


def compare_weights(float_dict: dict, quantized_dict: dict) -> dict:
    """``{key: {'float': weight, 'quantized': qweight}}`` for each quantized state-dict entry
    whose float weight ``float_dict`` holds."""
    weight_dict: dict = {}
    for key in quantized_dict:
        match_key = _find_match(float_dict, key, "weight")
        if match_key is not None:
            weight_dict[key] = {"float": float_dict[match_key],
                                "quantized": quantized_dict[key]}
            continue
        match_key = _find_match(float_dict, key, "_packed_params")
        if match_key is not None:
            weight_dict[key] = {"float": float_dict[match_key],
                                "quantized": quantized_dict[key][0]}
        parts = key.split(".")
        if parts[-1] == "param" and parts[-3] == "_all_weight_values":
            # a dynamic LSTM's layer: torch's pairing ends on the hidden-to-hidden weights
            layer, module_name = parts[-2], ".".join(parts[:-3])
            hh_key = module_name + ".weight_hh_l" + layer
            if module_name + ".weight_ih_l" + layer in float_dict and hh_key in float_dict:
                packed = quantized_dict[key].__getstate__()[0][4]
                weight_dict[key] = {"float": float_dict[hh_key],
                                    "quantized": packed[1].__getstate__()[0][0]}
    return weight_dict


def _get_logger_dict_helper(mod, target_dict: dict, prefix: str = "") -> None:
    def get_prefix(p):
        return p if p == "" else p + "."
    for child in mod.children():
        if isinstance(child, Logger):
            target_dict[get_prefix(prefix) + "stats"] = child.stats
            break
    for name, child in mod.named_children():
        _get_logger_dict_helper(child, target_dict, get_prefix(prefix) + name if prefix else name)


def get_logger_dict(mod, prefix: str = "") -> dict:
    """The ``stats`` of every Logger in ``mod``, keyed by ``<module name>.stats``."""
    target_dict: dict = {}
    _get_logger_dict_helper(mod, target_dict, prefix)
    return target_dict


class Logger(nn.Module):
    """The base of the loggers: a module with a ``stats`` dict."""

    def __init__(self):
        super().__init__()
        self.stats = {}
        self.dtype = torch.quint8

    def forward(self, x):
        """Record nothing."""


class ShadowLogger(Logger):
    """Records the outputs of a quantized module and of its float shadow."""

    def __init__(self):
        super().__init__()
        self.stats["float"] = []
        self.stats["quantized"] = []

    def forward(self, x, y):
        if len(x) > 1:
            x = x[0]
        if len(y) > 1:
            y = y[0]
        self.stats["quantized"].append(x.detach())
        self.stats["float"].append(y.detach())


class OutputLogger(Logger):
    """Records a module's outputs."""

    def __init__(self):
        super().__init__()
        self.stats["tensor_val"] = []

    def forward(self, x):
        self.stats["tensor_val"].append(x)
        return x


def _convert_tuple_to_list(t: Any) -> Any:
    return [_convert_tuple_to_list(x) for x in t] if type(t) is tuple else t


def _dequantize_tensor_list(t: Any) -> Any:
    if type(t) is list:
        return [_dequantize_tensor_list(x) for x in t]
    return t.dequantize() if t.is_quantized else t


class Shadow(nn.Module):
    """Runs a quantized module and its float counterpart on the same (dequantized) input and
    hands both outputs to a logger; returns the quantized module's output."""

    def __init__(self, q_module, float_module, logger_cls):
        super().__init__()
        self.orig_module = q_module
        self.shadow_module = float_module
        self.dequant = nnq.DeQuantize()
        self.logger = logger_cls()

    def forward(self, *x):
        xl = _convert_tuple_to_list(x)
        output = self.orig_module(*xl)
        shadow_output = self.shadow_module(*_dequantize_tensor_list(xl))
        self.logger(output, shadow_output)
        return output


def prepare_model_with_stubs(float_module, q_module, module_swap_list, logger_cls: Callable):
    """Replace each submodule of ``q_module`` whose float counterpart's type is in
    ``module_swap_list`` by a :class:`Shadow` of the two."""
    float_children = dict(float_module.named_children())
    reassign = {}
    for name, mod in q_module.named_children():
        if name not in float_children:
            continue
        float_mod = float_children[name]
        if type(float_mod) not in module_swap_list:
            prepare_model_with_stubs(float_mod, mod, module_swap_list, logger_cls)
        elif not _is_identical_module_type(mod, float_mod):
            reassign[name] = Shadow(mod, float_mod, logger_cls)
    for key, value in reassign.items():
        q_module._modules[key] = value


def _is_identical_module_type(mod1, mod2) -> bool:
    return [type(m) for m in mod1.modules()] == [type(m) for m in mod2.modules()]


def compare_model_stub(float_model, q_model, module_swap_list, *data,
                       logger_cls=ShadowLogger) -> dict:
    """Shadow the quantized modules of ``module_swap_list`` types with their float ones, run
    ``q_model(*data)``, and return the loggers' stats."""
    prepare_model_with_stubs(float_model, q_model, module_swap_list, logger_cls)
    q_model(*data)
    return get_logger_dict(q_model)


def get_matching_activations(float_module, q_module) -> dict:
    """``{key: {'float': [...], 'quantized': [...]}}`` of the outputs the two models' loggers
    recorded at matching places."""
    float_dict = get_logger_dict(float_module)
    quantized_dict = get_logger_dict(q_module)
    act_dict: dict = {}
    for key in quantized_dict:
        if len(quantized_dict[key]["tensor_val"]) == 0:
            continue
        match_key = _find_match(sorted(float_dict, reverse=True), key, "stats")
        if match_key is not None:
            act_dict[key] = {"float": float_dict[match_key]["tensor_val"],
                             "quantized": quantized_dict[key]["tensor_val"]}
    return act_dict


def get_default_compare_output_module_list() -> set:
    """The module classes whose outputs ``compare_model_outputs`` logs."""
    static = get_default_static_quant_module_mappings()
    dynamic = get_default_dynamic_quant_module_mappings()
    return set(static.values()) | set(dynamic.values()) | get_default_qconfig_propagation_list()


def prepare_model_outputs(float_module, q_module, logger_cls=OutputLogger,
                          allow_list=None) -> None:
    """Attach a ``logger_cls`` to the outputs of the modules of ``allow_list`` types in both
    models."""
    from ..quantization.qconfig import QConfig
    if allow_list is None:
        allow_list = get_default_compare_output_module_list()
    qconfig_debug = QConfig(activation=logger_cls, weight=None)
    float_module.qconfig = qconfig_debug
    prepare(float_module, inplace=True, allow_list=allow_list, prepare_custom_config_dict={})
    q_module.qconfig = qconfig_debug
    prepare(q_module, inplace=True, allow_list=allow_list,
            observer_non_leaf_module_list=NON_LEAF_MODULE_TO_ADD_OBSERVER_ALLOW_LIST,
            prepare_custom_config_dict={})


def compare_model_outputs(float_model, q_model, *data, logger_cls=OutputLogger,
                          allow_list=None) -> dict:
    """Log the outputs of matching modules of both models on ``data`` and return them
    paired (see :func:`get_matching_activations`)."""
    if allow_list is None:
        allow_list = get_default_compare_output_module_list()
    prepare_model_outputs(float_model, q_model, logger_cls, allow_list)
    float_model(*data)
    q_model(*data)
    return get_matching_activations(float_model, q_model)
