# Models: model-ensembling with torch.func as the official tutorial does (stack_module_state,
# functional_call over a copy of one model as the base (on "meta", as the tutorial), vmap
# over the stacked weights) plus the vmap options real code reaches for: in_dims tuples with
# None, out_dims, chunk_size, nested vmap for pairwise kernels, and per-model predictions and
# agreement.
import copy

import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(90)
n_models = 4


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(5, 16), nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


models = [MLP() for _ in range(n_models)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
base = copy.deepcopy(models[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.randn(10, 5)
same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x).detach()
print(same.shape, same[:, 0])
loop = torch.stack([m(x) for m in models]).detach()
print("vmap == loop", torch.allclose(same, loop, atol=1e-6))
xs = torch.randn(n_models, 10, 5)
diff = vmap(fmodel)(params, buffers, xs).detach()
print(diff.shape, diff[2, :2])
chunked = vmap(fmodel, in_dims=(0, 0, None), chunk_size=3)(params, buffers, x).detach()
print("chunked equal", torch.equal(chunked, same))
moved = vmap(fmodel, in_dims=(0, 0, None), out_dims=1)(params, buffers, x).detach()
print(moved.shape, torch.equal(moved.transpose(0, 1), same))
preds = same.argmax(-1)
agree = (preds == preds.mode(0).values).float().mean(0)
print(preds, agree)
probs = same.softmax(-1)
mean_p = probs.mean(0)
entropy = -(mean_p * mean_p.log()).sum(-1)
mutual = entropy + (probs * probs.log()).sum(-1).mean(0)
print(entropy, mutual)


def rbf(a, b, ls=1.5):
    return torch.exp(-((a - b) ** 2).sum() / (2 * ls ** 2))


K = vmap(vmap(rbf, in_dims=(None, 0)), in_dims=(0, None))(x[:4], x[:6])
print(K)
batched_dot = vmap(torch.dot)
print(batched_dot(torch.randn(3, 4), torch.randn(3, 4)))
print(vmap(lambda a, s: a * s, in_dims=(1, None))(torch.arange(6.0).view(2, 3), 10.0))
print(vmap(torch.trace)(torch.randn(3, 2, 2)), vmap(lambda m: m.sum(0), in_dims=2)(
    torch.ones(2, 3, 4)).shape)
out_a, out_b = vmap(lambda t: (t.sum(), t.max()), out_dims=(0, 0))(torch.randn(3, 5))
print(out_a, out_b)
try:
    vmap(fmodel, in_dims=(0, 0, 0))(params, buffers, torch.randn(3, 10, 5))
except ValueError as e:
    print("ValueError:", str(e)[:120])
