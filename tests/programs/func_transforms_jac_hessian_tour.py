# Models: the torch.func (functorch) "Jacobians, Hessians, hvp, vhp, and more" tutorial:
# jacrev vs jacfwd with argnums, vmap over batched Jacobians, hessian of a small MLP's loss,
# jvp/vjp/linearize, has_aux, and functional_call with a dict of parameters.
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
    vjp,
    vmap,
)

torch.manual_seed(0)
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)


def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()


jac_x = jacrev(predict, argnums=2)(weight, bias, x)
print("jacrev wrt x", jac_x.shape)
print(jac_x)
jac_x_fwd = jacfwd(predict, argnums=2)(weight, bias, x)
print("jacfwd matches:", torch.allclose(jac_x, jac_x_fwd, atol=1e-6))
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print("wrt weight, bias:", jw.shape, jb.shape)
print(jb)

# batched jacobians with vmap
xs = torch.randn(3, D)
batched = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xs)
print("batched jacobians", batched.shape)
print(batched[1].diagonal())


# hessian of a scalar function
def f(x):
    return x.sin().sum() + (x**3).prod()


h = hessian(f)(torch.tensor([0.5, -1.0, 2.0]))
print("hessian\n", h)
print("jacfwd(jacrev) equal:", torch.allclose(h, jacfwd(jacrev(f))(torch.tensor([0.5, -1.0, 2.0]))))

# jvp, vjp
primal = torch.randn(D)
tangent = torch.randn(D)
out, jvp_out = jvp(lambda v: predict(weight, bias, v), (primal,), (tangent,))
print("jvp", jvp_out)
out2, vjp_fn = vjp(lambda v: predict(weight, bias, v), primal)
(ct,) = vjp_fn(torch.ones(D))
print("vjp", ct)
print(
    "jvp == J @ t:",
    torch.allclose(
        jvp_out, jacrev(lambda v: predict(weight, bias, v))(primal) @ tangent, atol=1e-6
    ),
)


# has_aux
def loss_with_aux(x):
    y = x.exp()
    return y.sum(), {"max": y.max(), "argmax": y.argmax()}


g, aux = grad(loss_with_aux, has_aux=True)(torch.tensor([0.1, 0.7, -0.3]))
print("grad", g, "aux", aux)
(gv, val) = grad_and_value(lambda x: (x**2).sum())(torch.tensor([1.0, 2.0, 3.0]))
print("grad_and_value", gv, val)

# functional_call and hessian of a model's loss wrt its parameters
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
inp = torch.randn(5, 3)
tgt = torch.randn(5, 1)


def loss_fn(params, inp, tgt):
    pred = functional_call(model, params, (inp,))
    return nn.functional.mse_loss(pred, tgt)


print("loss", loss_fn(params, inp, tgt))
grads = grad(loss_fn)(params, inp, tgt)
for k, v in grads.items():
    print(k, tuple(v.shape), v.norm().item())
H = hessian(loss_fn)(params, inp, tgt)
print("hessian blocks", sorted(H.keys()))
print("H[2.bias][2.bias]", H["2.bias"]["2.bias"])
print("H[2.weight][2.bias] shape", H["2.weight"]["2.bias"].shape)


# per-sample gradients with vmap
def sample_loss(params, x, y):
    return loss_fn(params, x.unsqueeze(0), y.unsqueeze(0))


ps = vmap(grad(sample_loss), in_dims=(None, 0, 0))(params, inp, tgt)
print({k: tuple(v.shape) for k, v in ps.items()})
print(
    "mean of per-sample == batch grad:",
    all(torch.allclose(ps[k].mean(0), grads[k], atol=1e-6) for k in grads),
)
