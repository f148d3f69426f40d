# Models: a "why does my layer crash?" troubleshooting page: common nn layer misuse caught with
# try/except (BatchNorm with one sample in training, LSTM/GRU input ranks and sizes, Conv padding
# modes and 'same' with stride, pooling larger than the input, Embedding padding_idx out of range,
# MultiheadAttention dims, LayerNorm shapes, Flatten/Unflatten, F.interpolate arguments, and
# loss shape mismatches). (A bad padding_mode is left out: torch's message prints a Python set,
# whose order changes from run to run with the string hash seed.)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(55)


def check(title, fn):
    try:
        out = fn()
        print(f"[ok] {title}:", tuple(out.shape) if torch.is_tensor(out) else out)
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {str(e).strip().splitlines()[0]}")


check("BatchNorm1d one sample in train", lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
check("BatchNorm1d one sample in eval", lambda: nn.BatchNorm1d(3).eval()(torch.randn(1, 3)))
check("BatchNorm2d on 3-d input", lambda: nn.BatchNorm2d(3)(torch.randn(3, 4, 4)))
check("BatchNorm wrong channels", lambda: nn.BatchNorm1d(4)(torch.randn(2, 3)))
check("LSTM 1-d input", lambda: nn.LSTM(4, 5)(torch.randn(4)))
check("LSTM wrong feature size", lambda: nn.LSTM(4, 5)(torch.randn(3, 2, 6)))
check("LSTM unbatched", lambda: nn.LSTM(4, 5)(torch.randn(3, 4))[0])
check("GRU bad h0", lambda: nn.GRU(4, 5)(torch.randn(3, 2, 4), torch.zeros(1, 3, 5)))
check("RNN nonlinearity", lambda: nn.RNN(4, 5, nonlinearity="sigmoid"))
check("Conv2d padding same with stride", lambda: nn.Conv2d(1, 1, 3, stride=2, padding="same"))
check("Conv2d padding valid", lambda: nn.Conv2d(1, 1, 3, padding="valid")(torch.randn(1, 1, 5, 5)))
check("Conv2d groups", lambda: nn.Conv2d(3, 4, 3, groups=2))
check("Conv1d on 4-d", lambda: nn.Conv1d(1, 1, 3)(torch.randn(1, 1, 5, 5)))
check(
    "ConvTranspose output_padding",
    lambda: nn.ConvTranspose2d(1, 1, 3, stride=1, output_padding=1)(torch.randn(1, 1, 4, 4)),
)
check("MaxPool kernel larger than input", lambda: nn.MaxPool2d(5)(torch.randn(1, 1, 3, 3)))
check("MaxPool pad too big", lambda: nn.MaxPool2d(2, padding=2)(torch.randn(1, 1, 6, 6)))
check("AvgPool ceil_mode", lambda: nn.AvgPool2d(2, ceil_mode=True)(torch.randn(1, 1, 5, 5)))
check("AdaptiveAvgPool to bigger", lambda: nn.AdaptiveAvgPool2d((8, 8))(torch.randn(1, 1, 3, 3)))
check("Embedding padding_idx out of range", lambda: nn.Embedding(5, 2, padding_idx=7))
check("Embedding negative padding_idx", lambda: nn.Embedding(5, 2, padding_idx=-1).padding_idx)
check("MHA embed_dim not divisible", lambda: nn.MultiheadAttention(10, 3))
check(
    "MHA wrong query dims",
    lambda: nn.MultiheadAttention(8, 2)(
        torch.randn(2, 3, 6), torch.randn(2, 3, 6), torch.randn(2, 3, 6)
    ),
)
check("LayerNorm wrong last dim", lambda: nn.LayerNorm(5)(torch.randn(2, 4)))
check("GroupNorm groups", lambda: nn.GroupNorm(3, 4))
check("Flatten then Unflatten", lambda: nn.Unflatten(1, (2, 3))(nn.Flatten()(torch.randn(2, 3, 2))))
check("Unflatten wrong sizes", lambda: nn.Unflatten(1, (2, 2))(torch.randn(2, 6)))
check(
    "interpolate size and scale",
    lambda: F.interpolate(torch.randn(1, 1, 4, 4), size=8, scale_factor=2),
)
check(
    "interpolate bad mode",
    lambda: F.interpolate(torch.randn(1, 1, 4, 4), scale_factor=2, mode="cubic"),
)
check(
    "interpolate bicubic on 3-d",
    lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2, mode="bicubic"),
)
check(
    "interpolate align_corners with nearest",
    lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2, align_corners=True),
)
check("Linear in_features=0", lambda: nn.Linear(0, 3)(torch.randn(2, 0)))
check("Dropout p=1.5", lambda: nn.Dropout(1.5))
check("Softmax dim None", lambda: nn.Softmax()(torch.randn(2, 3)))
check(
    "CrossEntropy probs target shape", lambda: F.cross_entropy(torch.randn(3, 4), torch.rand(3, 5))
)
check(
    "CrossEntropy label_smoothing",
    lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 2]), label_smoothing=1.5),
)
check(
    "NLL 3-d target mismatch",
    lambda: F.nll_loss(torch.randn(2, 3, 4), torch.zeros(2, 5, dtype=torch.long)),
)
check(
    "KLDiv reduction mean warns",
    lambda: F.kl_div(torch.randn(2, 3).log_softmax(1), torch.rand(2, 3)).shape,
)
check("L1 broadcast warns", lambda: F.l1_loss(torch.randn(3), torch.randn(2, 3)).shape)
check(
    "CTC loss lengths",
    lambda: F.ctc_loss(
        torch.randn(5, 2, 4).log_softmax(2),
        torch.tensor([[1, 2], [1, 1]]),
        torch.tensor([5, 5]),
        torch.tensor([3, 2]),
    ),
)
check("pad too large reflect", lambda: F.pad(torch.randn(1, 1, 3), (3, 3), mode="reflect"))
check("pad odd length", lambda: F.pad(torch.randn(1, 3), (1,)))
check("one_hot negative", lambda: F.one_hot(torch.tensor([-1, 2])))
check("one_hot num_classes too small", lambda: F.one_hot(torch.tensor([3]), num_classes=2))
check("PixelShuffle channels", lambda: nn.PixelShuffle(2)(torch.randn(1, 3, 2, 2)))
check("Fold sizes", lambda: nn.Fold(output_size=(4, 4), kernel_size=2)(torch.randn(1, 4, 5)))
check("TransformerEncoderLayer nhead", lambda: nn.TransformerEncoderLayer(d_model=6, nhead=4))
