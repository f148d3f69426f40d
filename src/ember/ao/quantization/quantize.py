"""Eager-mode post-training quantization: ``prepare`` (observers), ``convert`` (quantized
modules), ``quantize`` (both, with a calibration run) and ``quantize_dynamic``."""

from __future__ import annotations

import copy
import functools as _functools
import itertools
import sys as _sys_
import warnings

from ... import nn
from ..nn import intrinsic as _nni
from ..nn import quantized as nnq
from .observer import ObserverBase as _ObserverBase
from .qconfig import default_dynamic_qconfig, float_qparams_weight_only_qconfig
from .stubs import DeQuantStub
from .stubs import QuantStub as _QuantStub

torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

# torch marks the eager-mode entry points deprecated (``typing_extensions.deprecated``)
DEPRECATION_WARNING = (
    "torch.ao.quantization is deprecated and will be removed in 2.10. \n"
    "For migrations of users: \n"
    "1. Eager mode quantization (torch.ao.quantization.quantize, "
    "torch.ao.quantization.quantize_dynamic), please migrate to use torchao eager mode "
    "quantize_ API instead \n"
    "2. FX graph mode quantization (torch.ao.quantization.quantize_fx.prepare_fx,"
    "torch.ao.quantization.quantize_fx.convert_fx, please migrate to use torchao pt2e "
    "quantization API instead (prepare_pt2e, convert_pt2e) \n"
    "3. pt2e quantization has been migrated to torchao "
    "(https://github.com/pytorch/ao/tree/main/torchao/quantization/pt2e) \n"
    "see https://github.com/pytorch/ao/issues/2259 for more details"
)


def _deprecated(fn):
    """``fn`` warning ``DEPRECATION_WARNING`` (a ``DeprecationWarning``) at its caller on each
    call, as ``typing_extensions.deprecated`` does."""
    @_functools.wraps(fn)
    def wrapper(*args, **kwargs):
        warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
        return fn(*args, **kwargs)
    wrapper.__deprecated__ = DEPRECATION_WARNING
    return wrapper


__all__ = ["propagate_qconfig_", "add_quant_dequant", "prepare", "convert", "quantize",
           "quantize_dynamic", "swap_module",
           "get_default_static_quant_module_mappings",
           "get_default_dynamic_quant_module_mappings", "get_default_qconfig_propagation_list"]


def get_default_static_quant_module_mappings() -> dict:
    """Float module class -> quantized module class, for ``convert``."""
    from ..nn.intrinsic import quantized as nniq
    return {_QuantStub: nnq.Quantize, DeQuantStub: nnq.DeQuantize, nn.Linear: nnq.Linear,
            nn.modules.linear.NonDynamicallyQuantizableLinear: nnq.Linear,
            nn.Conv2d: nnq.Conv2d, _nni.LinearReLU: nniq.LinearReLU,
            _nni.ConvReLU2d: nniq.ConvReLU2d, nnq.FloatFunctional: nnq.QFunctional,
            nn.Embedding: nnq.Embedding}


def get_default_dynamic_quant_module_mappings() -> dict:
    """Float module class -> dynamically quantized module class, for ``quantize_dynamic``."""
    from ..nn.quantized import dynamic as nnqd
    return {nn.Linear: nnqd.Linear, nn.LSTM: nnqd.LSTM, nn.GRU: nnqd.GRU,
            nn.Embedding: nnq.Embedding}


# the float module classes torch's default mappings quantize (statically or dynamically),
# convertible here or not: prepare observes them and the numeric suite logs them, as torch's
_QUANTIZABLE = ("ELU", "Hardswish", "LeakyReLU", "PReLU", "ReLU6", "BatchNorm2d", "BatchNorm3d",
                "Sequential", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
                "ConvTranspose3d", "Dropout", "InstanceNorm1d", "InstanceNorm2d",
                "InstanceNorm3d", "Linear", "GroupNorm", "LayerNorm", "GRU", "GRUCell", "LSTM",
                "LSTMCell", "RNNCell", "Embedding", "EmbeddingBag")


def get_default_qconfig_propagation_list() -> set:
    """The module classes that get observers and qconfigs."""
    return (set(get_default_static_quant_module_mappings())
            | set(get_default_dynamic_quant_module_mappings())
            | {getattr(nn, name) for name in _QUANTIZABLE})


def _propagate_qconfig_helper(module, qconfig_dict, qconfig_parent=None, prefix=""):
    module_qconfig = qconfig_dict.get(type(module), qconfig_parent)
    module_qconfig = qconfig_dict.get(prefix, module_qconfig)
    module_qconfig = getattr(module, "qconfig", module_qconfig)
    module.qconfig = module_qconfig
    for name, child in module.named_children():
        _propagate_qconfig_helper(child, qconfig_dict, module_qconfig,
                                  prefix + "." + name if prefix else name)


def propagate_qconfig_(module, qconfig_dict=None, prepare_custom_config_dict=None) -> None:
    """Give every submodule a ``qconfig``: its own, the one ``qconfig_dict`` names for its
    type or qualified name, or its parent's."""
    _propagate_qconfig_helper(module, qconfig_dict or {})


def _observer_forward_hook(self, input, output):
    return self.activation_post_process(output)


def _needs_observation(m) -> bool:
    return getattr(m, "qconfig", None) is not None


def _insert_activation_post_process(m) -> None:
    if _needs_observation(m) and not isinstance(m, DeQuantStub):
        m.add_module("activation_post_process", m.qconfig.activation())
        handle = m.register_forward_hook(_observer_forward_hook, prepend=True)
        m.__dict__.setdefault("_observer_hook_ids", set()).add(handle.id)


def _add_observer_(module, qconfig_propagation_list, non_leaf_module_list=None) -> None:
    for child in module.children():
        if type(child) is nn.Dropout:
            continue
        if non_leaf_module_list is not None and type(child) in non_leaf_module_list:
            _insert_activation_post_process(child)
            continue
        if isinstance(child, _nni._FusedModule):
            _insert_activation_post_process(child)
            continue
        if isinstance(child, nnq.FloatFunctional):        # (observes in its own methods)
            if _needs_observation(child):
                child.activation_post_process = child.qconfig.activation()
            continue
        _add_observer_(child, qconfig_propagation_list, non_leaf_module_list)
    if not list(module.children()) and not isinstance(module, nn.Sequential) and \
            type(module) in qconfig_propagation_list:
        _insert_activation_post_process(module)


@_deprecated
def prepare(model, inplace: bool = False, allow_list=None, observer_non_leaf_module_list=None,
            prepare_custom_config_dict=None):
    """Attach observers (from each layer's ``qconfig``) that record the ranges a calibration
    run sees; a copy of ``model`` unless ``inplace``."""
    if not inplace:
        model = copy.deepcopy(model)
    propagate_qconfig_(model, qconfig_dict=None)
    if not any(hasattr(m, "qconfig") and m.qconfig for m in model.modules()):
        warnings.warn("None of the submodule got qconfig applied. Make sure you passed correct "
                      "configuration through `qconfig_dict` or by assigning the `.qconfig` "
                      "attribute directly on submodules", stacklevel=2)
    _add_observer_(model, allow_list or get_default_qconfig_propagation_list(),
                   observer_non_leaf_module_list)
    return model


def _remove_activation_post_process(module) -> None:
    if "activation_post_process" in module._modules and \
            isinstance(module._modules["activation_post_process"], _ObserverBase):
        del module._modules["activation_post_process"]
    ids = module.__dict__.pop("_observer_hook_ids", set())
    for hid in ids:
        module._forward_hooks.pop(hid, None)


def _remove_qconfig(module) -> None:
    for child in module.children():
        _remove_qconfig(child)
    if hasattr(module, "qconfig"):
        del module.qconfig
    _remove_activation_post_process(module)


def swap_module(mod, mapping, custom_module_class_mapping=None, use_precomputed_fake_quant=False):
    """The quantized module ``mapping`` gives for ``mod`` (``mod`` itself if none)."""
    new_mod = mod
    if getattr(mod, "qconfig", None) is not None and type(mod) in mapping:
        new_mod = mapping[type(mod)].from_float(mod)
        for hook in mod._forward_pre_hooks.values():
            new_mod.register_forward_pre_hook(hook)
        observer_ids = mod.__dict__.get("_observer_hook_ids", set())
        for hid, hook in mod._forward_hooks.items():
            if hid not in observer_ids:
                new_mod.register_forward_hook(hook)
    return new_mod


def _convert(module, mapping, inplace: bool = False):
    if not inplace:
        module = copy.deepcopy(module)
    reassign = {}
    for name, mod in module.named_children():
        if not isinstance(mod, _nni._FusedModule):     # (a fused module swaps as one unit)
            _convert(mod, mapping, True)
        reassign[name] = swap_module(mod, mapping)
    for key, value in reassign.items():
        module._modules[key] = value
    return module


@_deprecated
def convert(module, mapping=None, inplace: bool = False, remove_qconfig: bool = True,
            is_reference: bool = False, convert_custom_config_dict=None,
            use_precomputed_fake_quant: bool = False):
    """Swap each observed layer for its quantized form (``mapping``: float class ->
    quantized class); a copy of ``module`` unless ``inplace``."""
    if not inplace:
        module = copy.deepcopy(module)
    _convert(module, mapping if mapping is not None else
             get_default_static_quant_module_mappings(), inplace=True)
    if remove_qconfig:
        _remove_qconfig(module)
    return module


@_deprecated
def quantize(model, run_fn, run_args, mapping=None, inplace: bool = False):
    """Post-training static quantization: ``prepare``, calibrate with
    ``run_fn(model, *run_args)``, ``convert``."""
    if mapping is None:
        mapping = get_default_static_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    prepare(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, mapping, inplace=True)
    return model


@_deprecated
def quantize_dynamic(model, qconfig_spec=None, dtype=torch.qint8, mapping=None,
                     inplace: bool = False):
    """Post-training dynamic quantization: the layers ``qconfig_spec`` names (a set of
    classes or a dict of classes / qualified names to qconfigs; by default every
    ``nn.Linear``) get a qint8 weight and quantize their inputs on the fly."""
    if qconfig_spec is None:
        if dtype is torch.qint8:
            qconfig_spec = dict.fromkeys((nn.Linear, nn.LSTM, nn.GRU), default_dynamic_qconfig)
        elif dtype is torch.quint8:
            qconfig_spec = {nn.EmbeddingBag: float_qparams_weight_only_qconfig,
                            nn.Embedding: float_qparams_weight_only_qconfig}
        else:
            raise ValueError(f"Don't know how to quantize with default settings for {dtype}. "
                             "Provide full qconfig please")
    elif isinstance(qconfig_spec, set):
        if dtype is torch.qint8:
            default = default_dynamic_qconfig
        elif dtype is torch.quint8:
            default = float_qparams_weight_only_qconfig
        else:
            raise RuntimeError("Unknown dtype specified for quantize_dynamic: ", str(dtype))
        qconfig_spec = dict(zip(qconfig_spec, itertools.repeat(default)))
    if mapping is None:
        mapping = get_default_dynamic_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    propagate_qconfig_(model, qconfig_spec)
    convert(model, mapping, inplace=True)
    return model


def add_quant_dequant(module):
    """Wrap each leaf module that has a qconfig in a QuantWrapper."""
    from .stubs import QuantWrapper
    if not list(module.children()) and getattr(module, "qconfig", None):
        return QuantWrapper(module)
    for name, child in module.named_children():
        module._modules[name] = add_quant_dequant(child)
    return module


del annotations  # keep dir() to torch's names
