# Models: custom torch.autograd.Function examples from the "Extending PyTorch" notes: a sort
# that marks its indices non-differentiable, an in-place op with ctx.mark_dirty, a function
# using once_differentiable, set_materialize_grads(False) with None gradients, saving
# intermediate tensors, needs_input_grad, and the errors raised on misuse.
import torch
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = torch.sort(x, dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g_values, g_idx):
        (idx,) = ctx.saved_tensors
        print("  g_idx is None:", g_idx is None, "needs", ctx.needs_input_grad)
        grad = torch.zeros_like(g_values)
        grad.scatter_(-1, idx, g_values)
        return grad


x = torch.randn(2, 5, requires_grad=True)
vals, idx = SortWithIdx.apply(x)
print("values", vals)
print("idx", idx, "requires_grad", idx.requires_grad)
w = torch.arange(5.0)
(vals * w).sum().backward()
print("grad", x.grad)


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.randn(3, requires_grad=True)
b = a.clone()
out = AddOneInplace.apply(b)
print("same object", out is b, "version", b._version)
(out * 2).sum().backward()
print("grad through dirty", a.grad)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


c = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(c)
(gc,) = torch.autograd.grad(y.sum(), c, create_graph=True)
print("first grad", gc, "requires_grad", gc.requires_grad)
try:
    gc.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("  g1 None:", g1 is None, "g2 None:", g2 is None)
        grad = torch.zeros(3)
        if g1 is not None:
            grad = grad + 2 * g1
        if g2 is not None:
            grad = grad + 3 * g2
        return grad


d = torch.ones(3, requires_grad=True)
o1, o2 = TwoOut.apply(d)
o1.sum().backward()
print("grad only first output", d.grad)


class ScaleBy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k: float):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


e = torch.randn(4, requires_grad=True)
ScaleBy.apply(e, 2.5).sum().backward()
print("scale grad", e.grad)


class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g, g


try:
    WrongCount.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g[:1]


try:
    WrongShape.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)

no_grad_in = torch.ones(2)
r = Cube.apply(no_grad_in)
print("no-grad input -> requires_grad", r.requires_grad, "grad_fn", r.grad_fn)
print("grad_fn name", type(Cube.apply(c).grad_fn).__name__)
