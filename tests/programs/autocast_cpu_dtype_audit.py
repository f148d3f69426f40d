# Models: the "which dtype does each op produce under CPU autocast" audit people run before
# switching a model to torch.autocast("cpu", dtype=torch.bfloat16): forward hooks recording
# module output dtypes, functional ops from autocast's lower-precision and float32 lists,
# promote ops with mixed inputs, nested autocast(enabled=False), custom_fwd/custom_bwd, and
# gradient dtypes after backward through bf16 activations.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv1d(4, 6, 3, padding=1), nn.BatchNorm1d(6), nn.GELU(), nn.Flatten(),
    nn.Linear(48, 16), nn.LayerNorm(16), nn.Dropout(0.0), nn.Linear(16, 5))
records = []
for name, mod in model.named_modules():
    if name:
        mod.register_forward_hook(
            lambda m, i, o, name=name: records.append((name, type(m).__name__, o.dtype)))
x = torch.randn(3, 4, 8)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = model(x)
    loss = F.cross_entropy(out, torch.tensor([0, 1, 2]))
for r in records:
    print(r)
print("out", out.dtype, "loss", loss.dtype)
loss.backward()
print({n: p.grad.dtype for n, p in model.named_parameters()})

a = torch.randn(2, 3, 4)
b = torch.randn(2, 4, 5)
m = torch.randn(4, 4)
v = torch.randn(4)
ops = {
    "matmul": lambda: a @ b, "bmm": lambda: torch.bmm(a, b), "mm": lambda: m @ m,
    "addmm": lambda: torch.addmm(m, m, m),
    "baddbmm": lambda: torch.baddbmm(torch.zeros(2, 3, 5), a, b),
    "addbmm": lambda: torch.addbmm(torch.zeros(3, 5), a, b), "mv": lambda: m @ v,
    "einsum": lambda: torch.einsum("bij,bjk->bik", a, b), "linear": lambda: F.linear(v, m),
    "conv2d": lambda: F.conv2d(torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3)),
    "conv_transpose1d": lambda: F.conv_transpose1d(torch.randn(1, 2, 5), torch.randn(2, 3, 3)),
    "prelu": lambda: F.prelu(m, torch.tensor([0.1])),
    "softmax": lambda: F.softmax(m, -1), "log_softmax": lambda: F.log_softmax(m, -1),
    "layer_norm": lambda: F.layer_norm(m, (4,)), "group_norm": lambda: F.group_norm(a, 1),
    "cdist": lambda: torch.cdist(m, m), "exp": lambda: m.exp(), "sum": lambda: m.sum(),
    "mse": lambda: F.mse_loss(m, m.flip(0)),
    "bce_logits": lambda: F.binary_cross_entropy_with_logits(m, m.sigmoid()),
    "cat_mixed": lambda: torch.cat([m, m.bfloat16()]),
    "stack_mixed": lambda: torch.stack([v, v.bfloat16()]),
    "add_mixed": lambda: m + m.bfloat16(), "addcmul": lambda: torch.addcmul(m, m.bfloat16(), m),
    "index_put": lambda: m.index_put((torch.tensor([0]),), torch.ones(1, 4)),
    "scatter_add": lambda: torch.zeros(4).scatter_add(0, torch.tensor([0, 1]), v[:2]),
    "interpolate": lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2.0, mode="linear"),
    "avg_pool": lambda: F.avg_pool1d(torch.randn(1, 2, 6), 2), "topk": lambda: m.topk(2).values,
    "norm": lambda: torch.linalg.vector_norm(m), "cumsum": lambda: m.cumsum(0),
    "embedding_bag": lambda: F.embedding_bag(torch.tensor([0, 1, 2]), m, torch.tensor([0, 1])),
    "lstm_cell": lambda: nn.LSTMCell(4, 3)(m)[0], "gru": lambda: nn.GRU(4, 3)(m[None])[0],
    "mha": lambda: nn.MultiheadAttention(4, 2)(m[None], m[None], m[None])[0],
    "sdpa": lambda: F.scaled_dot_product_attention(a, a, a), "polar": lambda: torch.pow(m, 2),
}
with torch.autocast("cpu", dtype=torch.bfloat16):
    for name, fn in ops.items():
        try:
            print(f"{name:18s}", fn().dtype)
        except RuntimeError as e:
            print(f"{name:18s} RuntimeError: {str(e)[:80]}")
    with torch.autocast("cpu", enabled=False):
        print("disabled inner:", (m @ m).dtype, torch.is_autocast_enabled("cpu"))
    print("enabled:", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu", dtype=torch.float16):
    print("float16 autocast:", (m @ m).dtype, F.softmax(m, -1).dtype,
          F.conv1d(x, torch.randn(2, 4, 3)).dtype)


class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print("bwd dtypes:", grad.dtype, a.dtype, torch.is_autocast_enabled("cpu"))
        return grad.mm(b.t()), a.t().mm(grad)


p = torch.randn(3, 3, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    q = p @ p
    r = MyMM.apply(q, p)
    print("custom_fwd:", q.dtype, r.dtype)
r.sum().backward()
print(p.grad.dtype, p.grad.abs().sum().item() > 0)
