# Models: the "Extending torch.autograd" tutorial's harder cases: an in-place Function with
# ctx.mark_dirty, outputs marked non-differentiable (argsort indices), set_materialize_grads
# with None gradients, ctx.needs_input_grad to skip work, saving intermediate results, and the
# errors autograd raises when a Function is misused.
import torch
from torch.autograd import Function


class ClampInplace(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        mask = (x >= lo) & (x <= hi)
        x.clamp_(lo, hi)
        ctx.mark_dirty(x)
        ctx.save_for_backward(mask)
        return x

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask, None, None


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort(dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, grad_values, grad_idx):
        (idx,) = ctx.saved_tensors
        print("grad_idx is", type(grad_idx).__name__,
              grad_idx.shape if grad_idx is not None else "")
        return torch.zeros_like(grad_values).scatter_(-1, idx, grad_values)


class ScaledMatmul(Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        return a @ b * scale

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = g @ b.T * ctx.scale
        if ctx.needs_input_grad[1]:
            gb = a.T @ g * ctx.scale
        return ga, gb, None


class TwoOutputs(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.shape = x.shape
        return x * 2, x.exp()

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 None:", g1 is None, "g2 None:", g2 is None)
        out = torch.zeros(ctx.shape)
        if g1 is not None:
            out = out + g1 * 2
        return out


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        sq = x * x
        ctx.save_for_backward(x, sq)
        return sq * x

    @staticmethod
    def backward(ctx, g):
        x, sq = ctx.saved_tensors
        return g * 3 * sq


torch.manual_seed(4)
a = torch.randn(5, requires_grad=True)
b = a * 1.5
c = ClampInplace.apply(b, -0.5, 0.5)
print(c is b, c, c.grad_fn.__class__.__name__, b._version)
c.pow(2).sum().backward()
print(a.grad)
x = torch.randn(2, 4, requires_grad=True)
vals, idx = SortWithIndex.apply(x)
print(vals, idx, idx.requires_grad, vals.requires_grad)
(vals * torch.arange(4.0)).sum().backward()
print(x.grad)
A = torch.randn(3, 2, requires_grad=True)
B = torch.randn(2, 3)
ScaledMatmul.apply(A, B, 0.5).sum().backward()
print(A.grad)
B.requires_grad_(True)
A.grad = None
ScaledMatmul.apply(A, B, 2.0).sum().backward()
print(A.grad, B.grad)
t = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = TwoOutputs.apply(t)
p.sum().backward()
print(t.grad)
t.grad = None
p, q = TwoOutputs.apply(t)
q.sum().backward()
print(t.grad)
z = torch.linspace(-1, 1, 5, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (z,)))
leaf = torch.ones(3, requires_grad=True)
try:
    ClampInplace.apply(leaf, 0.0, 0.5)
except RuntimeError as e:
    print("RuntimeError:", e)


class Bad(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


try:
    Bad.apply(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, g):
        return g.expand(3)


try:
    WrongShape.apply(torch.ones(2, 2, requires_grad=True)).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
