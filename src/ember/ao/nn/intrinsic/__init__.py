"""``torch.ao.nn.intrinsic``: fused float modules (what ``fuse_modules`` builds), each a
Sequential of the modules it fuses."""

from .... import nn as _nn

__all__ = ["ConvReLU2d", "LinearReLU", "BNReLU2d", "quantized"]


class _FusedModule(_nn.Sequential):
    """A sequence of modules fused for quantization."""


class ConvReLU2d(_FusedModule):
    """Conv2d followed by ReLU."""

    def __init__(self, conv, relu):
        if type(conv) is not _nn.Conv2d or type(relu) is not _nn.ReLU:
            raise AssertionError(f"Incorrect types for input modules{type(conv)}{type(relu)}")
        super().__init__(conv, relu)


class LinearReLU(_FusedModule):
    """Linear followed by ReLU."""

    def __init__(self, linear, relu):
        if type(linear) is not _nn.Linear or type(relu) is not _nn.ReLU:
            raise AssertionError(f"Incorrect types for input modules{type(linear)}{type(relu)}")
        super().__init__(linear, relu)


class BNReLU2d(_FusedModule):
    """BatchNorm2d followed by ReLU."""

    def __init__(self, batch_norm, relu):
        if type(batch_norm) is not _nn.BatchNorm2d or type(relu) is not _nn.ReLU:
            raise AssertionError("Incorrect types for input modules"
                                 f"{type(batch_norm)}{type(relu)}")
        super().__init__(batch_norm, relu)


from . import quantized  # noqa: E402  (its modules subclass the ones above)
