# Models: the torch.func "model ensembling" tutorial taken further into a deep-ensemble
# uncertainty notebook: stack_module_state + functional_call + vmap to train five MLPs in one
# vectorised step (grad_and_value with has_aux), vmap randomness="different"/"same" for
# dropout, jacrev/hessian of a small loss, functional_call with strict and tied buffers,
# and predictive mean/variance with disagreement on out-of-distribution inputs.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad_and_value, hessian, jacrev, stack_module_state, vmap

torch.manual_seed(0)
x_train = torch.linspace(-2, 2, 40).unsqueeze(1)
y_train = torch.sin(2 * x_train) + 0.1 * torch.randn_like(x_train)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1, 32)
        self.fc2 = nn.Linear(32, 1)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc2(self.drop(torch.tanh(self.fc1(x))))


models = [MLP() for _ in range(5)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base = copy.deepcopy(models[0]).to("meta")  # as the tutorial: the base holds no data


def loss_fn(p, b, x, y):
    pred = functional_call(base, (p, b), (x,))
    return F.mse_loss(pred, y), pred


step = vmap(
    grad_and_value(loss_fn, has_aux=True), in_dims=(0, 0, None, None), randomness="different"
)
lr = 0.1
for it in range(60):
    grads, (losses, preds) = step(params, buffers, x_train, y_train)
    params = {k: v - lr * grads[k] for k, v in params.items()}
    if it % 20 == 19:
        print(f"iter {it + 1} losses", [round(v, 4) for v in losses.tolist()])
print("preds shape", tuple(preds.shape))

for m in models:
    m.eval()
base.eval()
x_test = torch.tensor([[-1.0], [0.0], [1.0], [4.0]])
ens = vmap(lambda p, b: functional_call(base, (p, b), (x_test,)))(params, buffers)
mean, std = ens.mean(0).squeeze(1), ens.std(0).squeeze(1)
print("mean", mean)
print("std ", std)
print("ood most uncertain", bool(std[-1] > std[:3].max()))

base.train()
rand_diff = vmap(
    lambda p, b: functional_call(base, (p, b), (torch.ones(1, 1),)), randomness="different"
)(params, buffers)
rand_same = vmap(lambda x: F.dropout(x, 0.5), randomness="same")(torch.ones(3, 6))
print("different-dropout ensemble", tuple(rand_diff.shape))
print("same mask across batch", bool((rand_same == rand_same[0]).all()), rand_same[0])
try:
    vmap(lambda x: F.dropout(x, 0.5))(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])

# single-model functional tricks
m = models[0].eval()
p0 = {k: v.detach() for k, v in m.named_parameters()}
w = p0["fc2.weight"]


def small_loss(w2):
    return F.mse_loss(functional_call(m, {**p0, "fc2.weight": w2}, (x_train,)), y_train)


print("jacrev", jacrev(small_loss)(w).shape, "hessian", hessian(small_loss)(w).shape)
H = hessian(small_loss)(w).reshape(32, 32)
print("hessian symmetric", torch.allclose(H, H.T, atol=1e-6), f"trace {H.trace().item():.4f}")
try:
    functional_call(
        m, {"fc1.weight": p0["fc1.weight"], "nope": torch.ones(1)}, (x_train,), strict=True
    )
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
out = functional_call(m, {"fc1.bias": torch.zeros(32)}, (torch.zeros(1, 1),))
print("override fc1.bias", out, m.fc2.bias)
bn = nn.BatchNorm1d(2)
o = functional_call(bn, {"running_mean": torch.ones(2)}, (torch.randn(4, 2),))
print("buffer override leaves module buffer", bn.running_mean, tuple(o.shape))
