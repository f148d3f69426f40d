"""``torch.ao.quantization``: eager-mode post-training quantization on fbgemm's arithmetic.

Observers (:mod:`.observer`) record ranges, a :class:`QConfig` says which observers a layer
gets, ``prepare`` / ``convert`` / ``quantize`` turn a float model into one that computes on
quantized tensors (:mod:`._tensor`), and ``quantize_dynamic`` gives linear layers a qint8
weight whose inputs are quantized per call.
"""

from .fuse_modules import fuse_modules
from .observer import (HistogramObserver, MinMaxObserver, MovingAverageMinMaxObserver,
                       MovingAveragePerChannelMinMaxObserver, NoopObserver, ObserverBase,
                       PerChannelMinMaxObserver, PlaceholderObserver, RecordingObserver,
                       UniformQuantizationObserverBase, default_debug_observer,
                       default_dynamic_quant_observer, default_float_qparams_observer,
                       default_histogram_observer, default_observer,
                       default_per_channel_weight_observer, default_placeholder_observer,
                       default_weight_observer, get_observer_state_dict,
                       load_observer_state_dict)
from .qconfig import (QConfig, QConfigDynamic, default_debug_qconfig, default_dynamic_qconfig,
                      default_per_channel_qconfig, default_qconfig, float16_dynamic_qconfig,
                      float16_static_qconfig, float_qparams_weight_only_qconfig,
                      float_qparams_weight_only_qconfig_4bit, get_default_qat_qconfig,
                      get_default_qconfig, per_channel_dynamic_qconfig, qconfig_equals)
from .qconfig_mapping import QConfigMapping, get_default_qconfig_mapping
from .quantize import (add_quant_dequant, convert,
                       get_default_dynamic_quant_module_mappings,
                       get_default_qconfig_propagation_list,
                       get_default_static_quant_module_mappings, prepare, propagate_qconfig_,
                       quantize, quantize_dynamic, swap_module)
from .stubs import DeQuantStub, QuantStub, QuantWrapper


def default_eval_fn(model, calib_data):
    """Run ``model`` on each ``(data, target)`` of ``calib_data`` (a calibration pass)."""
    for data, _target in calib_data:
        model(data)


__all__ = [
    "DeQuantStub", "HistogramObserver", "MinMaxObserver", "MovingAverageMinMaxObserver",
    "MovingAveragePerChannelMinMaxObserver", "NoopObserver", "ObserverBase",
    "PerChannelMinMaxObserver", "PlaceholderObserver", "QConfig", "QConfigDynamic",
    "QConfigMapping", "QuantStub", "QuantWrapper", "RecordingObserver",
    "UniformQuantizationObserverBase", "add_quant_dequant", "convert", "default_debug_observer",
    "default_debug_qconfig", "default_dynamic_qconfig", "default_dynamic_quant_observer",
    "default_eval_fn", "default_float_qparams_observer", "default_histogram_observer",
    "default_observer", "default_per_channel_qconfig", "default_per_channel_weight_observer",
    "default_placeholder_observer", "default_qconfig", "default_weight_observer",
    "float16_dynamic_qconfig", "float16_static_qconfig", "float_qparams_weight_only_qconfig",
    "float_qparams_weight_only_qconfig_4bit", "fuse_modules",
    "get_default_dynamic_quant_module_mappings",
    "get_default_qat_qconfig", "get_default_qconfig", "get_default_qconfig_mapping",
    "get_default_qconfig_propagation_list", "get_default_static_quant_module_mappings",
    "get_observer_state_dict", "load_observer_state_dict", "per_channel_dynamic_qconfig",
    "prepare", "propagate_qconfig_", "qconfig_equals", "quantize", "quantize_dynamic",
    "swap_module",
]
