# Models: the "Extending PyTorch" and "Double Backward with Custom Functions" tutorials --
# custom autograd.Function subclasses (LinearFunction, an exp with save_for_backward of the
# output, a cube with a differentiable backward, a clamp with mark_non_differentiable, a
# once_differentiable Function), checked with torch.autograd.gradcheck and gradgradcheck in
# float64, plus a gradcheck failure on a wrong backward caught and reported.
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x ** 2


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g_values, g_idx):
        (idx,) = ctx.saved_tensors
        grad = torch.zeros_like(g_values)
        grad.scatter_(-1, idx, g_values)
        return grad


class ScaledTanh(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y * scale

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * ctx.scale * (1 - y * y), None


class WrongSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x                    # should be 2 * x


torch.manual_seed(0)
inp = (torch.randn(4, 3, dtype=torch.double, requires_grad=True),
       torch.randn(2, 3, dtype=torch.double, requires_grad=True),
       torch.randn(2, dtype=torch.double, requires_grad=True))
print("linear gradcheck", gradcheck(LinearFunction.apply, inp, eps=1e-6, atol=1e-4))
print("linear gradgradcheck", gradgradcheck(LinearFunction.apply, inp))
out = LinearFunction.apply(*inp)
print(out.grad_fn.name(), out.shape)
x = torch.randn(5, dtype=torch.double, requires_grad=True)
print("exp", gradcheck(Exp.apply, (x,)), gradgradcheck(Exp.apply, (x,)))
print("cube", gradcheck(Cube.apply, (x,)), gradgradcheck(Cube.apply, (x,)))
v, i = SortWithIndices.apply(x)
print("sort", i.requires_grad, v.requires_grad, gradcheck(lambda t: SortWithIndices.apply(t)[0],
                                                            (x,)))
print("scaled tanh", gradcheck(lambda t: ScaledTanh.apply(t, 2.5), (x,)))
y = ScaledTanh.apply(x, 2.0)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
try:
    g.sum().backward()
except RuntimeError as e:
    print("once_differentiable:", e)
try:
    gradcheck(WrongSquare.apply, (x,))
except RuntimeError as e:
    print("caught:", str(e).splitlines()[0])
print("raise_exception=False ->", gradcheck(WrongSquare.apply, (x,), raise_exception=False))
f32 = torch.randn(3, requires_grad=True)
with torch.no_grad():
    print(Exp.apply(f32).requires_grad)
print(gradcheck(torch.sigmoid, (x,)), gradgradcheck(torch.nn.functional.softplus, (x,)))
z = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a: torch.linalg.inv(a @ a.T + 2 * torch.eye(2, dtype=torch.double)),
                (z,)))
print(gradcheck(lambda a: (a.sin() * a.cos()).sum(dim=0), (z,), check_batched_grad=True))
