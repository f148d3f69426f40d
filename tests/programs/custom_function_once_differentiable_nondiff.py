# Models: the "Extending PyTorch" notes: custom autograd Functions with save_for_backward,
# mark_non_differentiable (an argmax output), once_differentiable backward, set_materialize_grads,
# returning None grads for non-tensor args, and the errors double backward then raises.
import torch
from torch.autograd.function import once_differentiable


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, dim):
        values, idx = x.sort(dim=dim)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        ctx.dim = dim
        return values, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_values, grad_idx):
        (idx,) = ctx.saved_tensors
        grad = torch.zeros_like(grad_values)
        grad.scatter_(ctx.dim, idx, grad_values)
        return grad, None


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


torch.manual_seed(2)
x = torch.randn(3, 4, requires_grad=True)
v, i = SortWithIndices.apply(x, 1)
print(v, i, sep="\n")
print("idx requires_grad", i.requires_grad, "values grad_fn", type(v.grad_fn).__name__)
w = torch.arange(4.0)
(v * w).sum().backward()
print("grad\n", x.grad)
y = torch.randn(5, requires_grad=True)
out = Cube.apply(y)
g, = torch.autograd.grad(out.sum(), y, create_graph=True)
print("first", g)
g2, = torch.autograd.grad(g.sum(), y)
print("second", g2, "expected", 6 * y.detach())
x2 = torch.randn(2, 3, requires_grad=True)
v2, _ = SortWithIndices.apply(x2, 0)
gg, = torch.autograd.grad(v2.pow(2).sum(), x2, create_graph=True)
print("grad requires_grad", gg.requires_grad)
try:
    gg.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
