# Models: the PyTorch "Double Backward with Custom Functions" tutorial (Square saving inputs,
# Exp saving outputs, Sinh saving intermediates as extra outputs, the SinhBad anti-pattern that
# gradgradcheck rejects, MyCube whose backward is itself a tracked computation), with
# gradcheck/gradgradcheck on each, plus setup_context-style Functions, once_differentiable and
# ctx.needs_input_grad from the "Extending torch.autograd" notes.
import torch
from torch.autograd.function import once_differentiable
from torch.autograd.gradcheck import GradcheckError

torch.manual_seed(0)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print("Square gradcheck:", torch.autograd.gradcheck(Square.apply, x))
print("Square gradgradcheck:", torch.autograd.gradgradcheck(Square.apply, x))
y = Square.apply(x)
print(y.grad_fn.name() if hasattr(y.grad_fn, "name") else None, type(y.grad_fn).__name__)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("first grad grad_fn:", type(g.grad_fn).__name__)
(gg,) = torch.autograd.grad(g.sum(), x)
print("second derivative:", gg)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        (result,) = ctx.saved_tensors
        return result * grad_out


x = torch.tensor(1.0, requires_grad=True, dtype=torch.double).clone()
print("Exp gradcheck:", torch.autograd.gradcheck(Exp.apply, x))
print("Exp gradgradcheck:", torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
(d1,) = torch.autograd.grad(out, x, create_graph=True)
(d2,) = torch.autograd.grad(d1, x, create_graph=True)
(d3,) = torch.autograd.grad(d2, x)
print("e, e, e:", d1.item(), d2.item(), d3.item())


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print("Sinh gradcheck:", torch.autograd.gradcheck(sinh, x))
print("Sinh gradgradcheck:", torch.autograd.gradgradcheck(sinh, x))
out = sinh(x)
print(torch.allclose(out, torch.sinh(x)))
(g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print("d2 sinh == sinh:", torch.allclose(gg, torch.sinh(x)))


class SinhBad(torch.autograd.Function):
    # This is an example of what NOT to do!
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print("SinhBad gradcheck:", torch.autograd.gradcheck(SinhBad.apply, x))
try:
    torch.autograd.gradgradcheck(SinhBad.apply, x)
except GradcheckError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), str(e).splitlines()[0])
print(
    "raise_exception=False:", torch.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False)
)


def cube_forward(x):
    return x**3


def cube_backward(grad_out, x):
    return grad_out * 3 * x**2


def cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x


def cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x**2


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return cube_forward(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)


class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return cube_backward(grad_out, x)

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx


x = torch.tensor(2.0, requires_grad=True, dtype=torch.double)
print("Cube gradcheck:", torch.autograd.gradcheck(Cube.apply, x))
print("Cube gradgradcheck:", torch.autograd.gradgradcheck(Cube.apply, x))
out = Cube.apply(x)
(g,) = torch.autograd.grad(out, x, create_graph=True)
print("d/dx x^3 at 2:", g.item(), type(g.grad_fn).__name__)
(gg,) = torch.autograd.grad(g, x)
print("d2/dx2 x^3 at 2:", gg.item())


# the newer style: forward without ctx, setup_context separately
class LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print("  needs_input_grad:", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


inp = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
w = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
b = torch.randn(2, dtype=torch.double, requires_grad=True)
print(
    "LinearFn gradcheck:",
    torch.autograd.gradcheck(LinearFn.apply, (inp, w, b), eps=1e-6, atol=1e-4),
)
out = LinearFn.apply(inp.detach(), w, b)
out.pow(2).sum().backward()
print("w.grad:", w.grad)
print("b.grad:", b.grad)


class ClampedReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x > 0).to(grad_out.dtype)


x = torch.randn(5, requires_grad=True)
y = ClampedReLU.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("once_differentiable grad:", g, g.requires_grad, type(g.grad_fn).__name__)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
