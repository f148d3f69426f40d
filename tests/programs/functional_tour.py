# Models: the torch.nn.functional cheat-sheet notebooks: pad modes, interpolate (nearest,
# bilinear with align_corners), unfold/fold patches, pixel_shuffle, one_hot, normalize,
# activations (gelu, silu, elu, leaky_relu, softplus, hardtanh, glu), pooling, pairwise
# distance and embedding lookups, affine_grid, linear and bilinear.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
img = torch.arange(16.0).view(1, 1, 4, 4)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(img, (1, 1, 1, 0), mode=mode)[0, 0, :2])
print(F.pad(torch.ones(2, 3), (0, 2), value=-1.0))
print(F.interpolate(img, scale_factor=2, mode="nearest")[0, 0, :2])
print(F.interpolate(img, size=(3, 5), mode="bilinear", align_corners=False))
print(F.interpolate(img, size=(3, 3), mode="bilinear", align_corners=True))
print(F.interpolate(torch.arange(4.0).view(1, 1, 4), scale_factor=1.5, mode="linear"))
patches = F.unfold(img, kernel_size=2, stride=2)
print(patches.shape, patches[0, :, 0])
print(torch.equal(F.fold(patches, (4, 4), kernel_size=2, stride=2), img))
print(F.pixel_shuffle(torch.arange(8.0).view(1, 4, 1, 2), 2))
print(F.pixel_unshuffle(img, 2).shape)
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4), F.one_hot(torch.tensor([[1], [0]])))
v = torch.randn(3, 4)
print(F.normalize(v, dim=1).norm(dim=1), F.normalize(v, p=1, dim=0).abs().sum(0))
x = torch.linspace(-3, 3, 7)
for name in ["relu", "relu6", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "softplus",
             "hardtanh", "hardsigmoid", "hardswish", "mish", "tanhshrink", "softsign",
             "logsigmoid", "sigmoid", "tanh"]:
    fn = getattr(F, name)
    print(f"{name:12s}", fn(x))
print(F.gelu(x, approximate="tanh"), F.leaky_relu(x, 0.2), F.elu(x, alpha=0.5))
print(F.softplus(x, beta=2, threshold=1), F.hardtanh(x, -2, 2), F.threshold(x, 1.0, -9.0))
print(F.glu(torch.arange(8.0).view(2, 4), dim=1), F.softmin(torch.tensor([1.0, 2.0, 3.0]), 0))
seq = torch.randn(1, 2, 7)
print(F.max_pool1d(seq, 3, stride=2), F.avg_pool1d(seq, 2, ceil_mode=True).shape)
print(F.max_pool2d(img, 2, return_indices=True), F.avg_pool2d(img, 3, stride=1, padding=1))
print(F.adaptive_avg_pool2d(img, (2, 3)), F.adaptive_max_pool1d(seq, 3))
print(F.pairwise_distance(v[:2], v[1:]))
print(F.cosine_similarity(v[0], v[1], dim=0), F.embedding(torch.tensor([[0, 2]]), v))
print(F.dropout(torch.ones(6), 0.5, training=True), F.dropout(torch.ones(3), 0.5, training=False))
print(F.log_softmax(v, dim=0), F.softmax(v / 0.5, dim=-1))
print(F.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 2, 2), align_corners=False))
print(F.linear(v, torch.ones(2, 4), torch.tensor([0.5, -0.5])))
print(F.bilinear(v, v, torch.ones(1, 4, 4)))
