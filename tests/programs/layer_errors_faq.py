# Models: a forum FAQ of nn-layer error messages ("RuntimeError: ... what does it mean?"):
# each snippet is the common mistake, the message printed, then the fix -- channel and shape
# mismatches in conv/norm/pool layers, fold/unfold and pixel-shuffle sizes, attention
# head divisibility, losses with wrong targets, and parametrization misuse.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


def show(title, fn):
    try:
        out = fn()
        print(f"[ok] {title}:", tuple(out.shape) if torch.is_tensor(out) else out)
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


x4 = torch.randn(2, 3, 8, 8)
show("conv in_channels", lambda: nn.Conv2d(4, 8, 3)(x4))
show("conv fix", lambda: nn.Conv2d(3, 8, 3)(x4))
show("conv kernel too big", lambda: nn.Conv2d(3, 8, 9)(x4))
show("conv3d on 4-D", lambda: nn.Conv3d(3, 4, 3)(x4))
show("conv1d on 4-D", lambda: nn.Conv1d(3, 4, 3)(x4))
show("groups", lambda: nn.Conv2d(3, 6, 3, groups=2))
show("padding same + stride", lambda: nn.Conv2d(3, 6, 3, stride=2, padding="same"))
show("batchnorm1 value", lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)))
show("batchnorm channels", lambda: nn.BatchNorm2d(4)(x4))
show("batchnorm2d on 2-D", lambda: nn.BatchNorm2d(3)(torch.randn(5, 3)))
show("groupnorm divisibility", lambda: nn.GroupNorm(2, 3)(x4))
show("groupnorm channel mismatch", lambda: nn.GroupNorm(2, 4)(x4))
show("layernorm shape", lambda: nn.LayerNorm(4)(x4))
show("instancenorm channels", lambda: nn.InstanceNorm2d(4, affine=True)(x4))
show("maxpool too big", lambda: F.max_pool2d(x4, 10))
show("pool pad > half kernel", lambda: F.max_pool2d(x4, 2, padding=2))
show("avgpool pad", lambda: F.avg_pool2d(x4, 3, padding=2))
show("adaptive pool output", lambda: F.adaptive_avg_pool2d(x4, (2, 2, 2)))
show("pixel shuffle", lambda: nn.PixelShuffle(2)(x4))
show("pixel unshuffle", lambda: nn.PixelUnshuffle(3)(x4))
show("unfold 3-D input", lambda: F.unfold(torch.randn(3, 8), 2))
show("fold size", lambda: F.fold(torch.randn(1, 12, 10), output_size=5, kernel_size=2))
show("fold channels", lambda: F.fold(torch.randn(1, 10, 16), output_size=5, kernel_size=2))
show("mha heads", lambda: nn.MultiheadAttention(10, 3))
show(
    "mha query dim",
    lambda: nn.MultiheadAttention(8, 2)(
        torch.randn(3, 2, 6), torch.randn(3, 2, 8), torch.randn(3, 2, 8)
    ),
)
show("transformer layer heads", lambda: nn.TransformerEncoderLayer(10, 4))
show("embedding index", lambda: nn.Embedding(5, 3)(torch.tensor([1, 5])))
show("embedding float index", lambda: nn.Embedding(5, 3)(torch.tensor([1.0, 2.0])))
show("lstm input size", lambda: nn.LSTM(4, 8)(torch.randn(5, 2, 3)))
show("lstm 4-D", lambda: nn.LSTM(4, 8)(torch.randn(5, 2, 3, 4)))
show("gru hidden shape", lambda: nn.GRU(4, 8)(torch.randn(5, 2, 4), torch.randn(1, 3, 8)))
show("linear shapes", lambda: nn.Linear(5, 2)(torch.randn(3, 4)))
show("bilinear shapes", lambda: nn.Bilinear(3, 4, 2)(torch.randn(2, 3), torch.randn(2, 3)))
show("cross entropy target", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 4, 1])))
show(
    "cross entropy float target shape", lambda: F.cross_entropy(torch.randn(3, 4), torch.rand(3, 5))
)
show("nll 3 vs 2", lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([0, 1])))
show(
    "bce range", lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0]))
)
show("bce size", lambda: F.binary_cross_entropy(torch.rand(3), torch.rand(3, 1)))
show(
    "kl_div log_target",
    lambda: F.kl_div(torch.randn(3).log_softmax(0), torch.rand(3), reduction="batchmean").shape,
)
show("ctc reduction", lambda: nn.CTCLoss(reduction="avg"))
show(
    "margin ranking size",
    lambda: F.margin_ranking_loss(torch.randn(3), torch.randn(4), torch.ones(3)),
)
show(
    "triplet dims",
    lambda: F.triplet_margin_loss(torch.randn(3, 4), torch.randn(3, 5), torch.randn(3, 4)),
)
show(
    "cosine embedding target",
    lambda: F.cosine_embedding_loss(torch.randn(3, 4), torch.randn(3, 4), torch.ones(2)),
)
show(
    "gaussian nll var shape",
    lambda: F.gaussian_nll_loss(torch.randn(3, 2), torch.randn(3, 2), torch.ones(3, 3)),
)
show(
    "gaussian nll negative var",
    lambda: F.gaussian_nll_loss(torch.randn(3), torch.randn(3), -torch.ones(3)),
)
show("adaptive softmax cutoffs", lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[5, 3]))
show(
    "max_unpool indices",
    lambda: F.max_unpool2d(torch.randn(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 40]]]]), 2),
)
show("interpolate size+scale", lambda: F.interpolate(x4, size=4, scale_factor=2))
show(
    "interpolate align_corners nearest",
    lambda: F.interpolate(x4, scale_factor=2, mode="nearest", align_corners=True),
)
show("dropout p", lambda: nn.Dropout(1.5))
show("softmax no dim (warns)", lambda: F.softmax(torch.randn(2, 3), dim=None).shape)
show("one_hot negative", lambda: F.one_hot(torch.tensor([-1, 0])))
show("spectral norm twice", lambda: nn.utils.spectral_norm(nn.utils.spectral_norm(nn.Linear(2, 2))))
show("prune amount", lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5))
show("prune amount int", lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5))
show(
    "clip_grad_norm_ nonfinite",
    lambda: nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(1))], 1.0, error_if_nonfinite=True),
)
