# Models: the "extending torch.autograd" tutorial: custom Functions with save_for_backward,
# setup_context, non-differentiable outputs, needs_input_grad, double backward and gradcheck.
import torch
from torch.autograd import Function, gradcheck
from torch.autograd.function import once_differentiable


class LegendrePolynomial3(Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


class MulAdd(Function):
    @staticmethod
    def forward(x, w, b):
        return x * w + b

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w, b = inputs
        ctx.save_for_backward(x, w)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gx = g * w if ctx.needs_input_grad[0] else None
        gw = (g * x).sum() if ctx.needs_input_grad[1] else None
        return gx, gw, g


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out.scatter_(0, idx, gv)
        return out


torch.manual_seed(0)
x = torch.linspace(-1, 1, 5, requires_grad=True)
P3 = LegendrePolynomial3.apply
y = P3(x)
y.sum().backward()
print(y, x.grad, type(y.grad_fn).__name__)
a = torch.randn(4, dtype=torch.double, requires_grad=True)
w = torch.tensor(2.0, dtype=torch.double, requires_grad=True)
b = torch.randn(4, dtype=torch.double, requires_grad=True)
print(gradcheck(MulAdd.apply, (a, w, b)), gradcheck(P3, (a,)))
out = MulAdd.apply(a, w, b)
out.pow(2).sum().backward()
print(a.grad, w.grad, b.grad)
v, i = SortWithIndex.apply(torch.tensor([3.0, 1.0, 2.0], requires_grad=True))
print(v, i, i.requires_grad, v.grad_fn.__class__.__name__)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
z = torch.tensor([0.5, -0.3], requires_grad=True)
(g,) = torch.autograd.grad(P3(z).sum(), z, create_graph=True)
print(g, g.requires_grad)
try:
    g.sum().backward()
    print(z.grad)
except RuntimeError as e:
    print("RuntimeError", e)
q = torch.tensor([1.0, 2.0], requires_grad=True)
vq, _ = SortWithIndex.apply(q)
(gq,) = torch.autograd.grad(vq.sum(), q, create_graph=True)
print(gq)
try:
    gq.sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
