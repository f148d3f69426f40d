"""``QConfig``: which observers a layer's activations and weight get, and the default ones."""

from __future__ import annotations

import sys as _sys_
import warnings
from collections import namedtuple

from ._tensor import per_channel_affine_float_qparams as _per_channel_affine_float_qparams
from .observer import (
    HistogramObserver,
    MinMaxObserver,
    NoopObserver,
    PlaceholderObserver,
    _PartialWrapper,
    default_debug_observer,
    default_dynamic_quant_observer,
    default_float_qparams_observer,
    default_observer,
    default_per_channel_weight_observer,
    default_placeholder_observer,
    default_weight_observer,
)

torch = _sys_.modules[__name__.split(".")[0]]   # the package (torch)

__all__ = ["QConfig", "QConfigDynamic", "default_qconfig", "default_debug_qconfig",
           "default_per_channel_qconfig", "default_dynamic_qconfig", "float16_dynamic_qconfig",
           "float16_static_qconfig", "per_channel_dynamic_qconfig",
           "float_qparams_weight_only_qconfig", "float_qparams_weight_only_qconfig_4bit",
           "get_default_qconfig", "get_default_qat_qconfig", "qconfig_equals"]


class QConfig(namedtuple("QConfig", ["activation", "weight"])):
    """The observer constructors for a layer's output (``activation``) and ``weight``: classes
    or ``Observer.with_args(...)`` factories, not instances."""

    __slots__ = ()

    def __new__(cls, activation, weight):
        if isinstance(activation, torch.nn.Module) or isinstance(weight, torch.nn.Module):
            raise ValueError("QConfig received observer instance, please pass observer class "
                             "instead. Use MyObserver.with_args(x=1) to override arguments to "
                             "constructor if needed")
        return super().__new__(cls, activation, weight)


class QConfigDynamic(namedtuple("QConfigDynamic", ["activation", "weight"])):
    """The deprecated qconfig of dynamic quantization (use :class:`QConfig`)."""

    __slots__ = ()

    def __new__(cls, activation=torch.nn.Identity, weight=torch.nn.Identity):
        if isinstance(weight, torch.nn.Module):
            raise ValueError("QConfigDynamic received observer instance, please pass observer "
                             "class instead. Use MyObserver.with_args(x=1) to override "
                             "arguments to constructor if needed")
        warnings.warn("QConfigDynamic is going to be deprecated in PyTorch 1.12, please use "
                      "QConfig instead", stacklevel=2)
        return super().__new__(cls, activation, weight)


default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)
default_debug_qconfig = QConfig(weight=default_weight_observer,
                                activation=default_debug_observer)
default_per_channel_qconfig = QConfig(activation=default_observer,
                                      weight=default_per_channel_weight_observer)
default_dynamic_qconfig = QConfig(activation=default_dynamic_quant_observer,
                                  weight=default_weight_observer)
float16_dynamic_qconfig = QConfig(
    activation=PlaceholderObserver.with_args(dtype=torch.float16, is_dynamic=True),
    weight=PlaceholderObserver.with_args(dtype=torch.float16))
float16_static_qconfig = QConfig(activation=PlaceholderObserver.with_args(dtype=torch.float16),
                                 weight=PlaceholderObserver.with_args(dtype=torch.float16))
per_channel_dynamic_qconfig = QConfig(activation=default_dynamic_quant_observer,
                                      weight=default_per_channel_weight_observer)
float_qparams_weight_only_qconfig = QConfig(activation=default_placeholder_observer,
                                            weight=default_float_qparams_observer)
float_qparams_weight_only_qconfig_4bit = QConfig(
    activation=default_placeholder_observer,
    weight=default_float_qparams_observer.with_args(dtype=torch.quint4x2))
default_embedding_qat_qconfig = None
_ = (NoopObserver, _per_channel_affine_float_qparams, MinMaxObserver)


def get_default_qconfig(backend: str = "x86", version: int = 0) -> QConfig:
    """The post-training static quantization qconfig torch recommends for ``backend``
    (``'x86'``, ``'fbgemm'``, ``'qnnpack'``, ``'onednn'``)."""
    supported = ["x86", "fbgemm", "qnnpack", "onednn"]
    if backend not in supported:
        raise AssertionError(f"backend: {backend} not supported. backend must be one of "
                             f"{supported}")
    if version != 0:
        raise AssertionError(f"Version number: {version} in get_default_qconfig is not "
                             "supported. Version number must be 0")
    if backend in ("fbgemm", "x86"):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == "qnnpack":
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_weight_observer)
    return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                   weight=default_per_channel_weight_observer)


def get_default_qat_qconfig(backend: str = "x86", version: int = 1):
    """Quantization-aware training qconfigs are not available in ember."""
    raise NotImplementedError("quantization-aware training is not supported by ember")


def _partial_wrapper_equals(a, b) -> bool:
    if isinstance(a, _PartialWrapper) and isinstance(b, _PartialWrapper):
        return (a.p.func is b.p.func and a.p.args == b.p.args
                and a.p.keywords == b.p.keywords and a.callable_args == b.callable_args)
    return a == b


def qconfig_equals(q1, q2) -> bool:
    """Whether two qconfigs build the same observers."""
    if q1 is None or q2 is None:
        return q1 == q2
    return (_partial_wrapper_equals(q1.activation, q2.activation)
            and _partial_wrapper_equals(q1.weight, q2.weight))


del annotations  # keep dir() to torch's names
