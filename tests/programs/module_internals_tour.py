# Models: a "what nn.Module really does" deep-dive notebook: tied weights and
# named_parameters(remove_duplicate=False), named_modules with memo, persistent vs
# non-persistent buffers in state_dict, lazy modules (LazyLinear/LazyConv2d with
# UninitializedParameter) materialising on first call, get_extra_state/set_extra_state,
# state_dict pre/post hooks, Module.to(dtype)/half()/double(), requires_grad_ and
# zero_grad(set_to_none=False), extra_repr, and small layers (Unflatten, CosineSimilarity,
# PairwiseDistance, Softmax2d, Softmin, Identity).
import torch
import torch.nn as nn

torch.manual_seed(0)


class TiedAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 3, bias=False)
        self.dec = nn.Linear(3, 6, bias=False)
        self.dec.weight = nn.Parameter(self.enc.weight.T.clone())
        self.shared = self.enc
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("scratch", torch.ones(2), persistent=False)
        self.version = 3

    def forward(self, x):
        self.steps += 1
        return self.dec(torch.tanh(self.enc(x)))

    def extra_repr(self):
        return f"version={self.version}"

    def get_extra_state(self):
        return {"version": self.version}

    def set_extra_state(self, state):
        self.version = state["version"]


m = TiedAutoencoder()
print(m)
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print([n for n, _ in m.named_modules()], [n for n, _ in m.named_modules(remove_duplicate=False)])
print([n for n, _ in m.named_buffers()], list(m.state_dict().keys()))
m(torch.randn(4, 6))
sd = m.state_dict()
print("steps", sd["steps"], "extra", sd["_extra_state"])
m2 = TiedAutoencoder()
m2.version = 1
print(m2.load_state_dict(sd), m2.version, m2.steps)

calls = []
h1 = m.register_state_dict_post_hook(
    lambda mod, sd, prefix, local: calls.append(("post", prefix, len(sd)))
)
h2 = m.register_load_state_dict_pre_hook(
    lambda mod, sd, prefix, *args: calls.append(("load-pre", prefix))
)
m.state_dict(prefix="model.")
m.load_state_dict(m.state_dict())
print(calls)
h1.remove()
h2.remove()

lazy = nn.Sequential(nn.LazyConv2d(4, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))
print(lazy)
print(
    type(lazy[0].weight).__name__, isinstance(lazy[3].weight, nn.parameter.UninitializedParameter)
)
out = lazy(torch.randn(2, 3, 5, 5))
print(
    "after first call",
    tuple(lazy[0].weight.shape),
    tuple(lazy[3].weight.shape),
    type(lazy[3].weight).__name__,
)
print(lazy[3], out.shape)

d = nn.Linear(2, 2).double()
print(d.weight.dtype, d(torch.ones(1, 2, dtype=torch.float64)).dtype)
h = nn.Linear(2, 2).to(torch.float16)
print(h.weight.dtype, nn.Linear(2, 2).half().bias.dtype, nn.Linear(2, 2).bfloat16().weight.dtype)
frozen = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
frozen[0].requires_grad_(False)
print([p.requires_grad for p in frozen.parameters()])
frozen(torch.ones(1, 2)).sum().backward()
print([p.grad is None for p in frozen.parameters()])
frozen.zero_grad(set_to_none=False)
print([None if p.grad is None else p.grad.tolist() for p in frozen.parameters()])
frozen.zero_grad()
print([p.grad for p in frozen.parameters()])

unflat = nn.Unflatten(1, (2, 3))
print(unflat, unflat(torch.arange(12.0).view(2, 6)).shape)
a = torch.tensor([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]])
b = torch.tensor([[1.0, 1.0, 1.0], [0.0, -1.0, 0.0]])
print(nn.CosineSimilarity(dim=1)(a, b), nn.CosineSimilarity(dim=0, eps=1e-3)(a, b))
print(
    nn.PairwiseDistance(p=1.0)(a, b),
    nn.PairwiseDistance(keepdim=True)(a, b),
    nn.PairwiseDistance(p=float("inf"))(a, b),
)
print(nn.Softmax2d()(torch.arange(8.0).view(1, 2, 2, 2))[0, :, 0, 0])
print(
    nn.Softmin(dim=0)(torch.tensor([1.0, 2.0, 3.0])),
    nn.LogSoftmax(dim=-1)(torch.tensor([1.0, 2.0])),
)
ident = nn.Identity(54, unused="x")
print(ident, ident(torch.ones(2)))
print(
    nn.Flatten(0, -1)(torch.ones(2, 3, 4)).shape,
    nn.Flatten(start_dim=2)(torch.ones(2, 3, 4, 5)).shape,
)
fwd = []
handle = nn.modules.module.register_module_forward_hook(
    lambda mod, inp, out: fwd.append(type(mod).__name__)
)
nn.Sequential(nn.Linear(2, 2), nn.Tanh())(torch.ones(1, 2))
handle.remove()
print("global forward hook saw", fwd)
print(sum(p.numel() for p in m.parameters()), m.training, m.eval().training, m.shared is m.enc)
print(m.get_submodule("shared"), m.get_parameter("dec.weight").shape, m.get_buffer("steps"))
