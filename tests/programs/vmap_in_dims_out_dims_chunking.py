# Models: the torch.func.vmap documentation examples: in_dims per argument (None, ints, nested
# tuples/dicts), out_dims, chunk_size, vmap of vmap for pairwise functions, randomness modes,
# and the errors for mismatched batch sizes and non-tensor outputs.
import torch
from torch.func import vmap

torch.manual_seed(0)
x = torch.randn(3, 4)
y = torch.randn(4, 3)
print("dot", vmap(torch.dot, in_dims=(0, 1))(x, y))
print("None dim", vmap(lambda a, b: a * b, in_dims=(0, None))(x, torch.arange(4.0)))
print("out_dims 1", vmap(lambda a: a * 2, out_dims=1)(x).shape)
print("tuple out", [t.shape for t in vmap(lambda a: (a.sum(), a.max()), out_dims=(0, 0))(x)])
print("dict input", vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
    {"a": x, "b": torch.ones(4)}))
print("chunked", torch.equal(vmap(torch.sin, chunk_size=2)(x), torch.sin(x)))
pair = vmap(vmap(lambda a, b: (a - b).pow(2).sum(), in_dims=(None, 0)), in_dims=(0, None))
print("pairwise\n", pair(x, torch.randn(2, 4)))
print("matmul over batch", vmap(torch.mv, in_dims=(None, 0))(torch.eye(4), x))
print("same randomness", vmap(lambda t: torch.rand(()) + t * 0, randomness="same")(x[:, 0]))
print("different", vmap(lambda t: torch.rand(()) + t * 0, randomness="different")(x[:, 0]))
try:
    vmap(lambda t: torch.rand(()) + t)(x[:, 0])
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
try:
    vmap(torch.add)(x, torch.randn(2, 4))
except ValueError as e:
    print("ValueError:", str(e)[:160])
try:
    vmap(lambda t: 3)(x)
except ValueError as e:
    print("ValueError:", str(e)[:160])
