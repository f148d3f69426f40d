# Models: a "nn.functional cheat sheet" notebook: activations, similarity, normalisation,
# sampling helpers (gumbel softmax, dropout variants) and geometric transforms.
import torch
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(4, 6, requires_grad=True)
acts = [
    F.glu(x, dim=1),
    F.hardtanh(x, -0.5, 0.5),
    F.softsign(x),
    F.tanhshrink(x),
    F.softmin(x, dim=1),
    F.hardswish(x),
    F.hardsigmoid(x),
    F.relu6(x * 4),
    F.logsigmoid(x),
    F.softshrink(x, 0.3),
    F.hardshrink(x, 0.3),
    F.leaky_relu(x, 0.2),
    F.rrelu(x, training=False),
    F.threshold(x, 0.1, -1.0),
    F.silu(x),
    F.mish(x),
    F.elu(x, 0.7),
    F.celu(x, 1.3),
    F.selu(x),
    F.gelu(x, approximate="tanh"),
    F.softplus(x, beta=2, threshold=5),
    F.prelu(x, torch.tensor([0.25])),
]
for a in acts:
    print(a.grad_fn.__class__.__name__, round(a.sum().item(), 5))
total = sum(a.sum() for a in acts)
total.backward()
print(x.grad)
y = torch.randn(4, 6)
print(F.cosine_similarity(x, y), F.pairwise_distance(x, y, p=1.5), F.normalize(y, p=1, dim=0)[0])
print(F.gumbel_softmax(x, tau=0.5), F.gumbel_softmax(x, hard=True).sum(1))
print(F.dropout(y, 0.3), F.alpha_dropout(y, 0.2, training=True), F.dropout1d(y.unsqueeze(0), 0.5))
img = torch.randn(2, 3, 5, 5)
print(
    F.local_response_norm(img, 2).sum(),
    F.dropout2d(img, 0.5).abs().sum(),
    F.feature_alpha_dropout(img, 0.3).sum(),
)
theta = torch.tensor([[[1.0, 0.2, 0.1], [-0.2, 1.0, 0.0]]]).repeat(2, 1, 1)
grid = F.affine_grid(theta, (2, 3, 4, 4), align_corners=False)
print(
    grid[0, 0],
    F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=False).sum(),
)
print(F.layer_norm(y, (6,)), F.group_norm(img, 3).std(), F.instance_norm(img).mean())
print(
    F.embedding(torch.tensor([[0, 2], [1, 1]]), y),
    F.one_hot(torch.tensor([2, 0]), 3).float() @ y[:3],
)
print(F.log_softmax(y, -1).exp().sum(-1), F.softmax(y, 0, dtype=torch.float64).dtype)
pooled, idx = F.max_pool2d(img, 2, return_indices=True)
print(idx[0, 0], F.max_unpool2d(pooled, idx, 2, output_size=img.shape[-2:]).sum())
print(
    F.lp_pool1d(y.unsqueeze(0), 2, 2),
    F.channel_shuffle(img, 3).shape if hasattr(F, "channel_shuffle") else None,
)
