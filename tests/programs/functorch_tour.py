# Models: the torch.func tutorials ("per-sample gradients", "model ensembling", "jacobians and
# hessians"): functional_call, vmap over grad, jacrev/jacfwd/hessian, stack_module_state,
# and torch.autograd.functional.jacobian/hessian/vjp/jvp for comparison.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, stack_module_state, vmap

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 3)
y = torch.randint(0, 2, (5,))


def loss_fn(p, xb, yb):
    out = functional_call(model, p, (xb.unsqueeze(0),))
    return F.cross_entropy(out, yb.unsqueeze(0))


per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
for k, g in per_sample.items():
    print(k, tuple(g.shape), g.sum().item())
full = torch.autograd.grad(F.cross_entropy(model(x), y), list(model.parameters()))
print("mean of per-sample == batch grad:",
      all(torch.allclose(per_sample[k].mean(0), g, atol=1e-6) for k, g in zip(params, full)))


def f(v):
    return torch.stack([v[0] ** 2 * v[1], torch.sin(v[1]) * v[2], v.exp().sum()])


v = torch.tensor([0.5, -1.0, 2.0])
print(jacrev(f)(v))
print(jacfwd(f)(v))
print(hessian(lambda u: (u ** 3).sum() + u[0] * u[2])(v))
print(torch.autograd.functional.jacobian(f, v))
print(torch.autograd.functional.hessian(lambda u: (u.sin() * u).sum(), v))
print(torch.autograd.functional.vjp(f, v, torch.ones(3)))
print(torch.autograd.functional.jvp(f, v, torch.tensor([1.0, 0.0, 0.0])))
models = [nn.Linear(3, 2) for _ in range(4)]
p, b = stack_module_state(models)
base = models[0]


def fmodel(pp, bb, xx):
    return functional_call(base, (pp, bb), (xx,))


ens = vmap(fmodel, in_dims=(0, 0, None))(p, b, x)
print(ens.shape, torch.allclose(ens[2], models[2](x)))
print(vmap(torch.dot)(torch.randn(3, 4), torch.randn(3, 4)))
print(vmap(lambda r: r.sum(0), in_dims=1)(torch.arange(12.).view(3, 4)))
