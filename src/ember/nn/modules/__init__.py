"""The layer classes of ``ember.nn``: each family's module loads on the first use of one of its
classes (``nn.Conv2d`` loads ``conv``), so that ``import ember.nn`` stays quick."""

from ... import _lazy
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa
from .container import Container  # noqa: F401
from .module import Module  # noqa: F401

# the classes of each module loaded on first use
_LAYERS = {
    "activation": ("CELU", "ELU", "GELU", "GLU", "SELU", "Hardsigmoid", "Hardswish", "Hardtanh",
        "LeakyReLU", "LogSigmoid", "LogSoftmax", "Mish", "PReLU", "ReLU", "ReLU6", "Sigmoid",
        "SiLU", "Softmax", "Softmin", "Softplus", "Softsign", "Tanh", "Tanhshrink", "Threshold",
        "RReLU", "Hardshrink", "Softmax2d", "Softshrink"),
    "batchnorm": ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d",
        "LazyBatchNorm2d", "LazyBatchNorm3d", "SyncBatchNorm"),
    "conv": ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
        "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
        "LazyConvTranspose2d", "LazyConvTranspose3d"),
    "dropout": ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
        "FeatureAlphaDropout"),
    "fold": ("Fold", "Unfold"),
    "instancenorm": ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d",
        "LazyInstanceNorm2d", "LazyInstanceNorm3d"),
    "flatten": ("Flatten", "Unflatten"),
    "linear": ("Bilinear", "Identity", "LazyLinear", "Linear"),
    "loss": ("BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "CrossEntropyLoss",
        "HuberLoss", "KLDivLoss", "L1Loss", "MarginRankingLoss", "MSELoss", "NLLLoss",
        "SmoothL1Loss", "CTCLoss", "GaussianNLLLoss", "HingeEmbeddingLoss",
        "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss2d",
        "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"),
    "normalization": ("GroupNorm", "LayerNorm", "RMSNorm", "CrossMapLRN2d", "LocalResponseNorm"),
    "padding": ("CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
        "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
        "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
        "ZeroPad3d"),
    "pixelshuffle": ("PixelShuffle", "PixelUnshuffle"),
    "pooling": ("AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
        "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "AvgPool2d", "MaxPool1d",
        "MaxPool2d", "MaxPool3d", "AdaptiveMaxPool3d", "AvgPool3d", "FractionalMaxPool2d",
        "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "MaxUnpool1d", "MaxUnpool2d",
        "MaxUnpool3d"),
    "sparse": ("Embedding", "EmbeddingBag"),
    "upsampling": ("Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"),
    "adaptive": ("AdaptiveLogSoftmaxWithLoss",),
    "channelshuffle": ("ChannelShuffle",),
    "distance": ("CosineSimilarity", "PairwiseDistance"),
    "rnn": ("GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"),
    "transformer": ("MultiheadAttention", "Transformer", "TransformerDecoder",
                    "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer"),
}
_DEFERRED = {name: module for module, names in _LAYERS.items() for name in names}
_lazy.package(globals(), modules=("_functions", "lazy", "utils", *_LAYERS), names=_DEFERRED)

# what ``from .modules import *`` gives ``ember.nn``: the layers, not the submodules' names
__all__ = ["Module", "ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential",
           "Container", *_DEFERRED]
del _lazy, _LAYERS, _DEFERRED
