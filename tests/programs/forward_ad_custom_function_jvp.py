# Models: the forward-mode AD tutorial extended to custom Functions: fwAD.dual_level with
# make_dual/unpack_dual, a Function with a jvp staticmethod (save_for_forward), tangents through
# nn.Linear with functional_call, jacobian(strategy="forward-mode", vectorize=True), and
# torch.func.jvp vs torch.autograd.forward_ad agreement.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is tangent.T)
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(torch.allclose(jvp, 2 * primal * tangent))
    print(type(fwAD.unpack_dual(dual_output)).__name__, fwAD.unpack_dual(dual_output)._fields)
print(fwAD.unpack_dual(dual_output).tangent)

model = nn.Linear(5, 5)
inp = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(model, dual_params, inp)
    jvp = fwAD.unpack_dual(out).tangent
# whether torch's tangent requires grad depends on each op's forward formula (here it does,
# through the Parameters); the values are what the tutorial looks at
print("module jvp", jvp.shape, jvp[0].detach())


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn2 = Fn.apply
p = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
t = torch.randn(10, 10, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(p, t)
    dual_output = fn2(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, t * p.exp()), jvp[0, :3])
print(
    torch.autograd.gradcheck(
        Fn.apply,
        (p[:2, :2].detach().requires_grad_(),),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    )
)


class ScaleShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_forward(x, w)
        ctx.save_for_backward(x, w)
        return x * w + 1

    @staticmethod
    def jvp(ctx, x_t, w_t):
        x, w = ctx.saved_tensors
        return x_t * w + x * w_t

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g * w, g * x


x = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.5, -1.0, 2.0])
with fwAD.dual_level():
    y = ScaleShift.apply(fwAD.make_dual(x, torch.ones(3)), fwAD.make_dual(w, torch.zeros(3)))
    print("jvp wrt x", fwAD.unpack_dual(y).tangent)
try:
    print(torch.func.jvp(lambda a: ScaleShift.apply(a, w), (x,), (torch.ones(3),)))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])


def f(a, b):
    return torch.stack([a.sin() * b, a.cos() + b.pow(2)])


a = torch.tensor([0.1, 0.2])
b = torch.tensor([1.5, -0.5])
Jr = torch.autograd.functional.jacobian(f, (a, b))
Jf = torch.autograd.functional.jacobian(f, (a, b), vectorize=True, strategy="forward-mode")
print([j.shape for j in Jr], all(torch.allclose(x, y) for x, y in zip(Jr, Jf)))
print(Jf[0])
H = torch.autograd.functional.hessian(
    lambda z: (z**3).sum() * z[0],
    torch.tensor([1.0, 2.0]),
    vectorize=True,
    outer_jacobian_strategy="forward-mode",
)
print(H)
v, hv = torch.autograd.functional.hvp(
    lambda z: (z.exp() * z).sum(), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0])
)
print(v, hv)
v, vh = torch.autograd.functional.vhp(
    lambda z: (z.exp() * z).sum(), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])
)
print(vh)
try:
    with fwAD.dual_level():
        fwAD.make_dual(torch.ones(3), torch.ones(4))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
