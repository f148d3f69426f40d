"""The layer classes of ``ember.nn``."""

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
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d  # noqa: F401
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d  # noqa: F401
from .fold import Fold, Unfold  # noqa: F401
from .linear import Bilinear, Flatten, Identity, Linear, Unflatten  # noqa: F401
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
from .normalization import (  # noqa: F401
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    LayerNorm,
)
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
from .rnn import GRU, LSTM, RNN, RNNBase  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .transformer import (  # noqa: F401
    MultiheadAttention,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401
