# Models: a mixed-precision sanity script: the same computations in float16 and bfloat16 as
# in float32 (casting, reductions over each dim, cumulative sums, softmax, norms,
# activations, losses and an optimizer step), printing full-precision results to compare
# precisions the way AMP debugging notebooks do.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x32 = torch.randn(33, 47)
y32 = torch.randn(47, 29)
for dt in (torch.float16, torch.bfloat16):
    x, y = x32.to(dt), y32.to(dt)
    res = {
        "cast_back": x.float().sum(),
        "sum_all": x.sum(),
        "sum_d0": x.sum(0).float().sum(),
        "sum_d1": x.sum(1).float().sum(),
        "mean_d1": x.mean(1).float().sum(),
        "sum_f32": x.sum(dtype=torch.float32),
        "var": x.var(),
        "std_d0": x.std(0).float().sum(),
        "norm": x.norm(),
        "norm_d1": torch.linalg.vector_norm(x, dim=1).float().sum(),
        "amax": x.amax(1).float().sum(),
        "cumsum": x.cumsum(1)[:, -1].float().sum(),
        "cumprod": (1 + x * 0.01).cumprod(0)[-1].float().sum(),
        "logsumexp": torch.logsumexp(x, 1).float().sum(),
        "softmax": F.softmax(x, 1)[:, 0].float().sum(),
        "log_softmax": F.log_softmax(x, 0).float().sum(),
        "layer_norm": F.layer_norm(x, (47,)).float().pow(2).sum(),
        "gelu": F.gelu(x).float().sum(),
        "silu": F.silu(x).float().sum(),
        "tanh": torch.tanh(x).float().sum(),
        "exp": torch.exp(x).float().sum(),
        "sigmoid": torch.sigmoid(x).float().sum(),
        "mul_add": (x * 1.1 + 0.3).float().sum(),
        "div": (x / 3).float().sum(),
        "pow": x.abs().pow(1.5).float().sum(),
        "sqrt": x.abs().sqrt().float().sum(),
        "mse": F.mse_loss(x, x.flip(0)),
        "ce": F.cross_entropy(x[:, :10], torch.arange(33) % 10),
        "linear": F.linear(x, y.t()[:5], torch.ones(5, dtype=dt)).float().sum(),
    }
    for k, v in res.items():
        print(f"{str(dt):15s} {k:12s} {v.item()!r}")
    w = torch.zeros(47, dtype=dt, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(3):
        loss = ((x @ w - 1.0) ** 2).float().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(dt, "sgd", loss.item(), w.float().sum().item())
