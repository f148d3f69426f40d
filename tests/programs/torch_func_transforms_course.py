# Models: a torch.func course notebook: grad and grad_and_value with has_aux and argnums, vjp and
# jvp, jacrev vs jacfwd, hessian, vmap with in_dims/out_dims/chunk_size and nested vmap for
# per-sample gradients, functional_call with stacked ensemble parameters, and vmap errors.
import copy

import torch
import torch.nn as nn
from torch.func import (
    functional_call,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    stack_module_state,
    vjp,
    vmap,
)

torch.manual_seed(54)


def f(x, y):
    return (x.sin() * y).sum() + (x**2).sum() * y.mean()


x = torch.randn(3)
y = torch.randn(3)
print("grad", grad(f)(x, y))
print("grad argnums=(0,1)", grad(f, argnums=(0, 1))(x, y))
g, val = grad_and_value(f)(x, y)
print("grad_and_value", val, g)


def with_aux(x):
    loss = (x**3).sum()
    return loss, {"norm": x.norm()}


g, aux = grad(with_aux, has_aux=True)(x)
print("has_aux", g, aux)
out, vjp_fn = vjp(torch.sin, x)
print("vjp", vjp_fn(torch.ones(3)))
print("jvp", jvp(torch.sin, (x,), (torch.ones(3),)))


def h(t):
    return torch.stack([t[0] * t[1], t[1].exp(), t.sum() ** 2])


print("jacrev == jacfwd", torch.allclose(jacrev(h)(x), jacfwd(h)(x)), jacrev(h)(x).shape)
print("hessian\n", hessian(lambda t: (t**3).sum() + t[0] * t[1])(x))
print("jacrev argnums", [j.shape for j in jacrev(f, argnums=(0, 1))(x, y)])
batch = torch.randn(5, 3)
print("vmap in_dims", vmap(torch.dot, in_dims=(0, None))(batch, y))
print("vmap out_dims", vmap(lambda t: t * 2, out_dims=1)(batch).shape)
print("vmap chunk_size", torch.equal(vmap(torch.sin, chunk_size=2)(batch), batch.sin()))
print(
    "nested vmap", vmap(vmap(lambda a, b: a * b))(torch.ones(2, 3), torch.arange(6.0).reshape(2, 3))
)
model = nn.Linear(3, 1)
params = {k: v.detach() for k, v in model.named_parameters()}


def loss_fn(p, xi, yi):
    pred = functional_call(model, p, (xi.unsqueeze(0),))
    return (pred.squeeze() - yi) ** 2


targets = torch.randn(5)
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, batch, targets)
print("per-sample grad shapes", {k: tuple(v.shape) for k, v in per_sample.items()})
full = grad(lambda p: vmap(loss_fn, in_dims=(None, 0, 0))(p, batch, targets).sum())(params)
print(
    "sum of per-sample == batch grad",
    all(torch.allclose(per_sample[k].sum(0), full[k], atol=1e-6) for k in full),
)
models = [nn.Linear(3, 2) for _ in range(4)]
stacked, buffers = stack_module_state(models)
base = copy.deepcopy(models[0])
ens = vmap(lambda p, b, xx: functional_call(base, (p, b), (xx,)), in_dims=(0, 0, None))(
    stacked, buffers, batch
)
print("ensemble output", ens.shape, torch.allclose(ens[2], models[2](batch)))
for bad in [
    lambda: vmap(torch.sin)(torch.tensor(1.0)),
    lambda: vmap(torch.add, in_dims=(0, 0))(torch.ones(2, 3), torch.ones(3, 3)),
    lambda: grad(lambda t: t * 2)(x),
    lambda: vmap(lambda t: t.item())(batch),
]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0][:150])
