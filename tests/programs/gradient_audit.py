# Models: a gradient regression script of the kind autograd maintainers keep: for a list of
# functions it backpropagates a fixed random cotangent through float32 inputs and prints the
# sum of the input gradient at full precision.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x0 = torch.randn(19, 37)
u0 = torch.rand(19, 37) * 0.98 + 0.01
w0 = torch.randn(23, 37)
fns = {
    "sigmoid": torch.sigmoid, "tanh": torch.tanh, "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"), "silu": F.silu, "mish": F.mish,
    "elu": F.elu, "selu": F.selu, "softplus": F.softplus, "logsigmoid": F.logsigmoid,
    "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid,
    "leaky": lambda t: F.leaky_relu(t, 0.1),
    "softmax0": lambda t: F.softmax(t, 0), "softmax1": lambda t: F.softmax(t, 1),
    "log_softmax1": lambda t: F.log_softmax(t, 1),
    "layer_norm": lambda t: F.layer_norm(t, (37,)),
    "normalize": lambda t: F.normalize(t, dim=1), "exp": torch.exp, "sin": torch.sin,
    "atan": torch.atan, "erf": torch.erf, "pow3": lambda t: t ** 3, "abs": torch.abs,
    "linear": lambda t: F.linear(t, w0), "cumsum": lambda t: t.cumsum(1),
    "cumprod": lambda t: (1 + 0.1 * t).cumprod(1),
    "logcumsumexp": lambda t: t.logcumsumexp(1),
    "norm": lambda t: t.norm(dim=1, keepdim=True) * t,
    "std": lambda t: t.std(1, keepdim=True) * t,
    "var0": lambda t: t.var(0, keepdim=True) + t,
    "prod": lambda t: (1 + 0.05 * t).prod(1, keepdim=True) * t,
    "max1": lambda t: t.max(1, keepdim=True).values * t,
    "logsumexp": lambda t: t.logsumexp(1, keepdim=True) * t,
    "topk": lambda t: t.topk(5, dim=1).values.sum(1, keepdim=True) * t,
    "sort": lambda t: t.sort(1).values,
    "cdist": lambda t: torch.cdist(t, w0[:5]),
    "einsum": lambda t: torch.einsum("ij,kj->ik", t, w0),
    "conv1d": lambda t: F.conv1d(t.unsqueeze(0),
                                 w0[:4, :19].unsqueeze(-1).expand(4, 19, 3).contiguous()),
    "max_pool": lambda t: F.max_pool1d(t.unsqueeze(0), 3, 2),
    "avg_pool": lambda t: F.avg_pool1d(t.unsqueeze(0), 4, 3),
    "interp": lambda t: F.interpolate(t.unsqueeze(0), size=50, mode="linear"),
    "pad_reflect": lambda t: F.pad(t.unsqueeze(0), (3, 2), mode="reflect"),
    "dropout_eval": lambda t: F.dropout(t, 0.5, training=False),
    "where": lambda t: torch.where(t > 0, t, t * t), "clamp": lambda t: t.clamp(-0.5, 0.7),
    "smooth_l1": lambda t: F.smooth_l1_loss(t, t.flip(1) * 0.5, reduction="none"),
    "huber": lambda t: F.huber_loss(t, torch.zeros_like(t), reduction="none", delta=0.5),
}
unit_fns = {"log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "logit": torch.logit,
            "asin": torch.asin, "acos": torch.acos, "atanh": torch.atanh, "erfinv": torch.erfinv,
            "digamma": torch.digamma, "lgamma": torch.lgamma,
            "bce": lambda t: F.binary_cross_entropy(t, torch.ones_like(t) * 0.3, reduction="none"),
            "reciprocal": torch.reciprocal}
for group, base in (("x", x0), ("u", u0)):
    table = fns if group == "x" else unit_fns
    for name, fn in table.items():
        inp = base.clone().requires_grad_()
        out = fn(inp)
        torch.manual_seed(1)
        cot = torch.randn(out.shape)
        (g,) = torch.autograd.grad(out, inp, cot)
        print(f"{name:14s} {g.sum().item()!r} {g.abs().max().item()!r}")
