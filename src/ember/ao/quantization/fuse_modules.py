"""``fuse_modules``: merge conv/linear layers with the BatchNorm and ReLU after them, so that
quantization treats each group as one layer (BatchNorm folded into the weights in eval)."""

from __future__ import annotations

import copy

from ... import nn
from ...nn.utils.fusion import fuse_conv_bn_eval as _fuse_conv_bn_eval
from ...nn.utils.fusion import fuse_linear_bn_eval as _fuse_linear_bn_eval
from ..nn import intrinsic as _nni

__all__ = ["fuse_modules", "fuse_known_modules", "get_fuser_method"]


def _check_modes(*mods, message="Conv and BN both must be in the same mode (train or eval).")\
        -> None:
    if len({m.training for m in mods}) != 1:
        raise AssertionError(message)


def _conv_bn(is_qat, conv, bn):
    _check_modes(conv, bn)
    if is_qat:
        raise NotImplementedError("quantization-aware training fusion is not supported")
    return _fuse_conv_bn_eval(conv, bn)


def _conv_bn_relu(is_qat, conv, bn, relu):
    _check_modes(conv, bn, relu)
    if is_qat:
        raise NotImplementedError("quantization-aware training fusion is not supported")
    return _nni.ConvReLU2d(_fuse_conv_bn_eval(conv, bn), relu)


def _linear_bn(is_qat, linear, bn):
    _check_modes(linear, bn, message="Linear and BN both must be in the same mode (train or "
                                     "eval).")
    if is_qat:
        raise NotImplementedError("quantization-aware training fusion is not supported")
    return _fuse_linear_bn_eval(linear, bn)


_FUSERS = {
    (nn.Conv2d, nn.BatchNorm2d): _conv_bn,
    (nn.Conv2d, nn.BatchNorm2d, nn.ReLU): _conv_bn_relu,
    (nn.Conv2d, nn.ReLU): lambda is_qat, conv, relu: _nni.ConvReLU2d(conv, relu),
    (nn.Linear, nn.BatchNorm1d): _linear_bn,
    (nn.Linear, nn.ReLU): lambda is_qat, linear, relu: _nni.LinearReLU(linear, relu),
    (nn.BatchNorm2d, nn.ReLU): lambda is_qat, bn, relu: _nni.BNReLU2d(bn, relu),
}


def get_fuser_method(op_list, additional_fuser_method_mapping=None):
    """The function fusing the module types ``op_list`` (None if there is none)."""
    mapping = {**_FUSERS, **(additional_fuser_method_mapping or {})}
    fuser = mapping.get(tuple(op_list))
    if fuser is None:
        raise AssertionError(f"did not find fuser method for: {tuple(op_list)} ")
    return fuser


def fuse_known_modules(mod_list, is_qat, additional_fuser_method_mapping=None):
    """The fused module for ``mod_list`` followed by an ``nn.Identity`` for each of the
    others; hooks move to the fused module."""
    types = tuple(type(m) for m in mod_list)
    fuser = get_fuser_method(types, additional_fuser_method_mapping)
    fused = fuser(is_qat, *mod_list)
    for hook in mod_list[0]._forward_pre_hooks.values():
        fused.register_forward_pre_hook(hook)
    mod_list[0]._forward_pre_hooks.clear()
    for hook in mod_list[-1]._forward_hooks.values():
        fused.register_forward_hook(hook)
    mod_list[-1]._forward_hooks.clear()
    new_mods = [fused]
    for _ in mod_list[1:]:
        identity = nn.Identity()
        identity.training = mod_list[0].training
        new_mods.append(identity)
    return new_mods


def _get_module(model, name: str):
    for part in name.split("."):
        model = getattr(model, part)
    return model


def _set_module(model, name: str, new) -> None:
    *parents, last = name.split(".")
    for part in parents:
        model = getattr(model, part)
    setattr(model, last, new)


def _fuse_group(model, names, is_qat, fuser_func, fuse_custom_config_dict):
    extra = (fuse_custom_config_dict or {}).get("additional_fuser_method_mapping", {})
    new_mods = fuser_func([_get_module(model, n) for n in names], is_qat, extra)
    for name, mod in zip(names, new_mods):
        _set_module(model, name, mod)


def fuse_modules(model, modules_to_fuse, inplace: bool = False, fuser_func=fuse_known_modules,
                 fuse_custom_config_dict=None):
    """Fuse each list of submodule names in ``modules_to_fuse`` (or the one list) into one
    module: conv+bn, conv+bn+relu, conv+relu, linear+bn, linear+relu, bn+relu."""
    if not inplace:
        model = copy.deepcopy(model)
    groups = [modules_to_fuse] if all(isinstance(m, str) for m in modules_to_fuse) \
        else modules_to_fuse
    for names in groups:
        _fuse_group(model, names, False, fuser_func, fuse_custom_config_dict)
    return model


del annotations  # keep dir() to torch's names
