# Models: the PyTorch "Forward-mode Automatic Differentiation" tutorial: dual tensors with
# torch.autograd.forward_ad (make_dual/unpack_dual inside dual_level), forward AD through a
# Module (swapping parameters for duals, and functional_call), a custom Function with a jvp
# staticmethod checked by gradcheck(check_forward_ad=True), and the torch.func API (jvp,
# linearize, jacfwd vs jacrev, hessian as jacfwd(jacrev)).
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, hessian, jacfwd, jacrev, jvp, linearize, vmap

torch.manual_seed(0)

primal = torch.randn(4, 4)
tangent = torch.randn(4, 4)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print("tangent is tangent:", fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print("transposed tangent copied:", fwAD.unpack_dual(dual_input_alt).tangent is not tangent)
    plain_tensor = torch.randn(4, 4)
    dual_output = fn(dual_input, plain_tensor)
    p, t = fwAD.unpack_dual(dual_output)
    print(type(fwAD.unpack_dual(dual_output)).__name__, fwAD.unpack_dual(dual_output)._fields)
    print("primal:", p)
    print("jvp:", t)
    print("jvp == 2*x*t:", torch.allclose(t, 2 * primal * tangent))
    print("plain tensor tangent:", fwAD.unpack_dual(plain_tensor).tangent)
print("outside dual_level:", fwAD.unpack_dual(dual_output).tangent)

# a chain of ops, checked against the closed form
x0 = torch.linspace(-1, 1, 5)
with fwAD.dual_level():
    x = fwAD.make_dual(x0, torch.ones(5))
    y = torch.sin(x) * torch.exp(x) + x.pow(3) / 3 - torch.tanh(x).sum()
    dy = fwAD.unpack_dual(y).tangent
print("chain jvp:", dy)
ref = torch.cos(x0) * torch.exp(x0) + torch.sin(x0) * torch.exp(x0) + x0**2
ref = ref - (1 - torch.tanh(x0) ** 2).sum()
print("matches closed form:", torch.allclose(dy, ref, atol=1e-6))

# Usage with Modules
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp_module = fwAD.unpack_dual(out).tangent
print("module jvp:", jvp_module.shape, jvp_module[:2].detach())

# Using the functional Module API
model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_functional = fwAD.unpack_dual(out).tangent
print("functional_call jvp equal:", torch.allclose(jvp_module, jvp_functional))
expected = input @ tangents["weight"].T + tangents["bias"]
print("closed form equal:", torch.allclose(jvp_functional, expected, atol=1e-6))


# Custom autograd Function (with both formulas, as the extending-autograd notes advise)
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        return gO

    @staticmethod
    def backward(ctx, gO):
        (result,) = ctx.saved_tensors
        return gO * result


fn = Fn.apply
primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp_out = fwAD.unpack_dual(dual_output).tangent
print("custom jvp:", jvp_out.detach())
print("custom jvp correct:", torch.allclose(jvp_out, tangent * primal.exp()))
print(
    "gradcheck forward AD:",
    torch.autograd.gradcheck(
        Fn.apply,
        (primal,),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    ),
)

# torch.func: jvp, linearize, jacfwd, hessian
x = torch.randn([])


def f(x):
    return x * torch.tensor([1.0, 2.0, 3.0])


value, grad = jvp(f, (x,), (torch.tensor(1.0),))
print("jvp value:", value)
print("jvp grad:", grad)

x = torch.randn(5)
jvp_out = jvp(torch.sin, (x,), (torch.ones(5),))
print("sin jvp:", jvp_out[1])
out, jvp_fn = linearize(torch.sin, x)
print("linearize:", torch.allclose(jvp_fn(torch.ones(5)), x.cos()), out.shape)


def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()


D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
jf = jacfwd(predict, argnums=2)(weight, bias, x)
jr = jacrev(predict, argnums=2)(weight, bias, x)
print("jacfwd:", jf)
print("jacfwd == jacrev:", torch.allclose(jf, jr, atol=1e-6))
jw, jb = jacfwd(predict, argnums=(0, 1))(weight, bias, x)
print("jacobian shapes:", jw.shape, jb.shape)
h = hessian(lambda v: (v.sin() * v).sum())(x)
h2 = jacfwd(jacrev(lambda v: (v.sin() * v).sum()))(x)
print("hessian:", h)
print("hessian == jacfwd(jacrev):", torch.allclose(h, h2))

# batched jvp: columns of the Jacobian by vmap over unit tangents
unit = torch.eye(D)
cols = vmap(lambda t: jvp(lambda v: predict(weight, bias, v), (x,), (t,))[1])(unit)
print("vmap(jvp) == jacfwd^T:", torch.allclose(cols.T, jf, atol=1e-6))

# errors
try:
    with fwAD.dual_level():
        fwAD.make_dual(torch.randn(3), torch.randn(4))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
try:
    fwAD.make_dual(torch.randn(3), torch.randn(3))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
