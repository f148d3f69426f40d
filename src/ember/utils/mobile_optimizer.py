"""``ember.utils.mobile_optimizer``: torch's mobile optimization of TorchScript modules.

torch rewrites the module's graph for XNNPACK (CPU), Vulkan or Metal kernels. Its CPU build
has none of them compiled in, so on the CPU ``optimize_for_mobile`` raises torch's XNNPACK
error (after torch's argument checks), as torch does; Ember does the same.
"""

from __future__ import annotations

import enum as _enum

__all__ = ["LintCode", "MobileOptimizerType", "generate_mobile_module_lints",
           "optimize_for_mobile"]


class LintCode(_enum.Enum):
    """What ``generate_mobile_module_lints`` reports."""

    BUNDLED_INPUT = 1
    REQUIRES_GRAD = 2
    DROPOUT = 3
    BATCHNORM = 4


class _MobileOptimizerType(_enum.IntEnum):
    """The rewrites ``optimization_blocklist`` can leave out."""

    CONV_BN_FUSION = 0
    INSERT_FOLD_PREPACK_OPS = 1
    REMOVE_DROPOUT = 2
    FUSE_ADD_RELU = 3
    HOIST_CONV_PACKED_PARAMS = 4
    VULKAN_AUTOMATIC_GPU_TRANSFER = 6


MobileOptimizerType = _MobileOptimizerType


def _script_module(script_module) -> None:
    from ..jit import ScriptModule
    if not isinstance(script_module, ScriptModule):
        raise TypeError(f"Got {type(script_module)}, but ScriptModule is expected.")


def optimize_for_mobile(script_module, optimization_blocklist=None, preserved_methods=None,
                        backend: str = "CPU"):
    """Optimize a TorchScript module for mobile deployment: torch's argument checks, then
    torch's error for a build without XNNPACK (CPU), Vulkan or Metal."""
    _script_module(script_module)
    methods = list({str(m) for m in preserved_methods or []})    # (a set in torch too)
    missing = [m for m in methods if not hasattr(script_module, m)]
    if missing:
        raise AttributeError("The following methods to preserve do not exist in script_module: "
                             f"{', '.join(missing)}")
    backend = backend.lower()
    if backend == "cpu":
        raise RuntimeError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/jit/passes/'
            'xnnpack_rewrite.cpp":506, please report a bug to PyTorch. Mobile optimization only '
            "available with XNNPACK at the moment. XNNPACK is not enabled. Please build with "
            "USE_XNNPACK=1")
    if backend == "vulkan":
        raise RuntimeError("\nUnknown custom class type vulkan.LayernormPackedContext. Please "
                           "ensure it is registered.")
    if backend == "metal":
        raise RuntimeError("We don't have an op for metal_prepack::linear_prepack")
    raise TypeError("Unknown backend, must be one of 'CPU', 'Vulkan' or 'Metal'")


def generate_mobile_module_lints(script_module) -> list:
    """torch's lints of a module meant for mobile: no bundled inputs, parameters that
    require grad (not the dropout and batch-norm lints torch finds among the module's
    TorchScript op names: Ember's script modules hold no TorchScript graph)."""
    _script_module(script_module)
    lints = []
    if not hasattr(script_module, "_generate_bundled_inputs_for_forward"):
        lints.append({"name": LintCode.BUNDLED_INPUT.name, "message": (
            "No bundled input for forward, please add bundled inputs before saving the module "
            "using torch.utils.bundled_inputs.augment_model_with_bundled_inputs.")})
    for name, param in script_module.named_parameters():
        if param.requires_grad:
            lints.append({"name": LintCode.REQUIRES_GRAD.name, "message": (
                f"Param {name} requires grad, please set torch.no_grad() to reduce memory usage "
                "and improve computation speed during inference phase.")})
    return lints


del annotations  # keep dir() to torch's names
