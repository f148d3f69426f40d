"""The layer classes of ``ember.nn``."""

from types import ModuleType as _ModuleType

from .activation import (  # noqa: F401
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .batchnorm import (  # noqa: F401
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    SyncBatchNorm,
)
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d  # noqa: F401
from .conv import (  # noqa: F401
    ConvTranspose3d,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
    LazyConvTranspose1d,
    LazyConvTranspose2d,
    LazyConvTranspose3d,
)
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d  # noqa: F401
from .fold import Fold, Unfold  # noqa: F401
from .instancenorm import (  # noqa: F401
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
)
from .flatten import Flatten, Unflatten  # noqa: F401
from .linear import Bilinear, Identity, LazyLinear, Linear  # noqa: F401
from .loss import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module  # noqa: F401
from .normalization import GroupNorm, LayerNorm, RMSNorm  # noqa: F401
from .padding import (  # noqa: F401
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .pixelshuffle import PixelShuffle, PixelUnshuffle  # noqa: F401
from .pooling import (  # noqa: F401
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
)
from .sparse import Embedding, EmbeddingBag  # noqa: F401
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401

from . import adaptive, channelshuffle, distance  # noqa: E402,F401  (torch's module paths)
from .activation import RReLU, Hardshrink, Softmax2d, Softshrink  # noqa: E402,F401
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: E402,F401
from .channelshuffle import ChannelShuffle  # noqa: E402,F401
from .container import Container  # noqa: E402,F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: E402,F401
from .dropout import AlphaDropout, FeatureAlphaDropout  # noqa: E402,F401
from .loss import (  # noqa: E402,F401
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss2d,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .normalization import CrossMapLRN2d, LocalResponseNorm  # noqa: E402,F401
from .pooling import (  # noqa: E402,F401
    AdaptiveMaxPool3d,
    AvgPool3d,
    FractionalMaxPool2d,
    FractionalMaxPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)

# what ``from .modules import *`` gives ``ember.nn``: the layers, not the submodules' names
from ... import _lazy  # noqa: E402

# the recurrent, attention and transformer layers load on first use
_DEFERRED = {**dict.fromkeys(("GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell",
                              "RNNCellBase"), "rnn"),
             **dict.fromkeys(("MultiheadAttention", "Transformer", "TransformerDecoder",
                              "TransformerDecoderLayer", "TransformerEncoder",
                              "TransformerEncoderLayer"), "transformer")}
_lazy.package(globals(), modules=("rnn", "transformer"), names=_DEFERRED)
__all__ = [n for n, v in globals().items() if n[0] != "_" and not isinstance(v, _ModuleType)]
__all__ += _DEFERRED
del _lazy, _DEFERRED
