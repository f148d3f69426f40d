# Models: the torch.func tutorial: grad and grad_and_value with has_aux, vjp and jvp on a small
# network via functional_call, jacrev vs jacfwd agreement, hessian of a loss, vmap over
# per-example gradients, and linearize.
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
    linearize,
    vjp,
    vmap,
)

torch.manual_seed(1)


def f(x):
    return (x.sin() * x ** 2).sum()


x = torch.randn(4)
print("grad", grad(f)(x))
print("check", 2 * x * x.sin() + x ** 2 * x.cos())


def loss_aux(w, xb):
    out = xb @ w
    return out.pow(2).mean(), out


g, (val, aux) = grad_and_value(loss_aux, has_aux=True)(torch.ones(4), torch.randn(3, 4))
print("g", g, "val", val, "aux", aux)
out, vjp_fn = vjp(torch.tanh, x)
print("vjp", vjp_fn(torch.ones(4)))
p, t = jvp(torch.exp, (x,), (torch.ones(4),))
print("jvp", p, t)
A = torch.randn(3, 4)


def h(v):
    return torch.tanh(A @ v)


print("jacrev\n", jacrev(h)(x))
print("agree", torch.allclose(jacrev(h)(x), jacfwd(h)(x)))
print("hessian\n", hessian(f)(x))
model = nn.Linear(4, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
xs, ys = torch.randn(5, 4), torch.randn(5, 1)


def compute_loss(params, xb, yb):
    pred = functional_call(model, params, (xb.unsqueeze(0),))
    return nn.functional.mse_loss(pred, yb.unsqueeze(0))


per_ex = vmap(grad(compute_loss), in_dims=(None, 0, 0))(params, xs, ys)
print({k: v.shape for k, v in per_ex.items()})
print("per-example bias grads", per_ex["bias"].flatten())
full = grad(lambda p: sum(compute_loss(p, xs[i], ys[i]) for i in range(5)) / 5)(params)
print("mean agrees", torch.allclose(per_ex["weight"].mean(0), full["weight"]))
y, jvp_fn = linearize(torch.sin, x)
print("linearize", y, jvp_fn(torch.ones(4)))
