"""``torch.quantization``: the older name of :mod:`ember.ao.quantization` (the names torch's
module keeps), and ``torch.quantization._numeric_suite``."""

from .. import _lazy
from ..ao.quantization import (DeQuantStub, HistogramObserver, MinMaxObserver,
                               MovingAverageMinMaxObserver,
                               MovingAveragePerChannelMinMaxObserver, NoopObserver, ObserverBase,
                               PerChannelMinMaxObserver, PlaceholderObserver, QConfig,
                               QConfigDynamic, QuantStub, QuantWrapper, RecordingObserver,
                               add_quant_dequant, convert, default_debug_observer,
                               default_debug_qconfig, default_dynamic_qconfig,
                               default_dynamic_quant_observer, default_eval_fn,
                               default_float_qparams_observer, default_histogram_observer,
                               default_observer, default_per_channel_qconfig,
                               default_per_channel_weight_observer, default_placeholder_observer,
                               default_qconfig, default_weight_observer, float16_dynamic_qconfig,
                               float16_static_qconfig, float_qparams_weight_only_qconfig,
                               fuse_modules, get_default_dynamic_quant_module_mappings,
                               get_default_qat_qconfig, get_default_qconfig,
                               get_default_qconfig_propagation_list,
                               get_default_static_quant_module_mappings, get_observer_state_dict,
                               load_observer_state_dict, per_channel_dynamic_qconfig, prepare,
                               propagate_qconfig_, qconfig_equals, quantize, quantize_dynamic,
                               swap_module)

# torch's __all__, less the names Ember does not implement (QAT, fake quantization, JIT)
__all__ = [
    "QuantWrapper", "QuantStub", "DeQuantStub", "quantize", "quantize_dynamic", "prepare",
    "convert", "get_default_static_quant_module_mappings",
    "get_default_dynamic_quant_module_mappings", "get_default_qconfig_propagation_list",
    "propagate_qconfig_", "add_quant_dequant", "swap_module", "default_eval_fn", "ObserverBase",
    "HistogramObserver", "default_observer", "default_weight_observer",
    "default_placeholder_observer", "default_per_channel_weight_observer", "QConfig",
    "default_qconfig", "default_dynamic_qconfig", "float16_dynamic_qconfig",
    "float_qparams_weight_only_qconfig", "fuse_modules",
]

_lazy.package(globals(), modules=("_numeric_suite",))
del _lazy
