# Models: migrating from the old torch.nn.utils.weight_norm / spectral_norm hooks to
# torch.nn.utils.parametrizations: parameter names (weight_g/weight_v vs
# parametrizations.weight.original0/1), dims, the power-iteration buffers, eval vs train
# behaviour, remove_weight_norm / remove_parametrizations, and a few training steps.
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm, weight_norm

torch.manual_seed(0)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    old = torch.nn.utils.weight_norm(nn.Linear(4, 3), name="weight")
    print("warnings:", [str(x.category.__name__) for x in w])
print(sorted(n for n, _ in old.named_parameters()))
print("g", old.weight_g.shape, "v", old.weight_v.shape)
print(
    torch.allclose(old.weight, old.weight_g * old.weight_v / old.weight_v.norm(dim=1, keepdim=True))
)

new = weight_norm(nn.Linear(4, 3))
print(sorted(n for n, _ in new.named_parameters()))
print(new.parametrizations.weight.original0.shape, new.parametrizations.weight.original1.shape)
print(new)
conv = weight_norm(nn.Conv1d(2, 5, 3), dim=None)
print(
    "dim=None g:",
    conv.parametrizations.weight.original0.shape,
    conv.parametrizations.weight.original0,
)

sn = spectral_norm(nn.Linear(6, 4), n_power_iterations=3)
print(sorted(sn.state_dict().keys()))
W = sn.weight
print("sigma approx 1:", round(torch.linalg.matrix_norm(W, 2).item(), 3))
u0 = sn.parametrizations.weight[0]._u.clone()
sn(torch.randn(2, 6))
print("u updated in train:", not torch.equal(u0, sn.parametrizations.weight[0]._u))
sn.eval()
u1 = sn.parametrizations.weight[0]._u.clone()
sn(torch.randn(2, 6))
print("u frozen in eval:", torch.equal(u1, sn.parametrizations.weight[0]._u))

old_sn = torch.nn.utils.spectral_norm(nn.Linear(6, 4))
print(sorted(old_sn.state_dict().keys()))
print(sorted(n for n, _ in old_sn.named_parameters()))

# train a weight-normed MLP
model = nn.Sequential(weight_norm(nn.Linear(2, 8)), nn.ReLU(), weight_norm(nn.Linear(8, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(32, 2)
y = (X[:, :1] * 2 - X[:, 1:]).tanh()
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.5f}")
g = model[0].parametrizations.weight.original0
print("g grad shape", g.grad.shape)
parametrize.remove_parametrizations(model[0], "weight")
print(sorted(n for n, _ in model[0].named_parameters()))
torch.nn.utils.remove_weight_norm(old)
print(sorted(n for n, _ in old.named_parameters()))
print(parametrize.is_parametrized(model[2]), parametrize.is_parametrized(model[0]))
