# Models: the "Extending torch.autograd" docs walked through: a LinearFunction that checks
# ctx.needs_input_grad before computing each gradient, a function that marks an output
# non-differentiable (sort indices), a once_differentiable backward, set_materialize_grads(False)
# with None grads, mark_dirty for an in-place op, and the setup_context/forward split style.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


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
        print("  needs_input_grad:", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


x = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
w = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
b = torch.randn(2, dtype=torch.double, requires_grad=True)
out = LinearFunction.apply(x, w, b)
print(out.grad_fn.__class__.__name__, out.shape)
out.sum().backward()
print("x.grad", x.grad)
print("w.grad", w.grad)
print("b.grad", b.grad)

# only the weight needs a gradient
x2 = torch.randn(4, 3, dtype=torch.double)
out = LinearFunction.apply(x2, w, None)
out.pow(2).mean().backward()
print("w.grad after second pass", w.grad)
print("gradcheck:", torch.autograd.gradcheck(LinearFunction.apply, (x, w, b), eps=1e-6, atol=1e-4))


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
        print("  g_idx is zeros:", g_idx is None or bool((g_idx == 0).all()))
        grad = torch.zeros_like(g_values)
        grad.scatter_(-1, idx, g_values)
        return grad


v = torch.randn(6, requires_grad=True)
vals, idx = SortWithIndices.apply(v)
print("idx", idx, "requires_grad", idx.requires_grad)
(vals * torch.arange(6.0)).sum().backward()
print("v.grad", v.grad)


class CubeOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


c = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = CubeOnce.apply(c)
(gc,) = torch.autograd.grad(y.sum(), c, create_graph=True)
print("grad", gc, "requires_grad", gc.requires_grad, gc.grad_fn.__class__.__name__)
try:
    gc.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])


class TwoOut(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("  g1 None:", g1 is None, "g2 None:", g2 is None)
        grad = None
        if g1 is not None:
            grad = g1.clone()
        if g2 is not None:
            grad = 2 * g2 if grad is None else grad + 2 * g2
        return grad


t = torch.ones(3, requires_grad=True)
a1, a2 = TwoOut.apply(t)
a2.sum().backward()
print("t.grad", t.grad)


class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


leaf = torch.zeros(3, requires_grad=True)
z = leaf.clone()
r = AddOneInplace.apply(z)
print("same object:", r is z, r, r.grad_fn.__class__.__name__, z._version)
(r * 3).sum().backward()
print("leaf.grad", leaf.grad)


class MulConst(Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, k = inputs
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


m = torch.randn(3, requires_grad=True)
o = MulConst.apply(m, 2.5)
o.backward(torch.ones(3))
print("m.grad", m.grad)
print(torch.func.grad(lambda q: MulConst.apply(q, 4.0).sum())(torch.randn(2)))
