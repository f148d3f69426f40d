# Models: custom torch.autograd.Function corners from the "Extending PyTorch" notes:
# ctx.set_materialize_grads(False) with None gradients handled by hand, mark_non_differentiable
# on an argmax-style output, once_differentiable raising on double backward, ctx.needs_input_grad,
# saving non-tensor state on ctx, a Function returning views, the setup_context/forward split
# with vmap support via generate_vmap_rule, and jvp (forward-mode) for a custom Function.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class SplitScale(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.set_materialize_grads(False)
        ctx.scale = scale
        return x * scale, x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("backward got None:", g1 is None, g2 is None)
        grad = None
        if g1 is not None:
            grad = g1 * ctx.scale
        if g2 is not None:
            grad = g2 if grad is None else grad + g2
        return grad, None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a, b = SplitScale.apply(x, 4.0)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = SplitScale.apply(x, 4.0)
(a.sum() + b.sum()).backward()
print(x.grad)


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g, _):
        idx, = ctx.saved_tensors
        grad = torch.zeros_like(g)
        grad.scatter_(0, idx, g)
        return grad


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIndices.apply(x)
print(v, i, i.requires_grad, v.grad_fn.__class__.__name__)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)


class CubeOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        print("needs_input_grad:", ctx.needs_input_grad)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g


x = torch.tensor([2.0], requires_grad=True)
y = CubeOnce.apply(x)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
try:
    g.backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class ScaledExp(Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, k):
        return torch.exp(x) * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(output)
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out, None



x = torch.tensor([0.0, 1.0], requires_grad=True)
y = ScaledExp.apply(x, 2.0)
try:
    torch.func.vmap(lambda t: SortWithIndices.apply(t))(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
y.sum().backward()
print(y, x.grad)
print(torch.func.vmap(lambda t: ScaledExp.apply(t, 3.0))(torch.tensor([[0.0], [1.0]])))
print(torch.func.grad(lambda t: ScaledExp.apply(t, 2.0).sum())(torch.tensor([0.5, 1.5])))


class Double(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 2 * x

    @staticmethod
    def backward(ctx, g):
        return 2 * g

    @staticmethod
    def jvp(ctx, t):
        return 2 * t


with fwAD.dual_level():
    dual = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5]))
    out = Double.apply(dual)
    print(fwAD.unpack_dual(out).tangent)


class ViewOut(Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)

    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)


base = torch.ones(2, 2, requires_grad=True)
v = ViewOut.apply(base.clone())
print(v._is_view(), v.grad_fn.__class__.__name__)
try:
    v.mul_(2)
    v.sum().backward()
    print("ok")
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
print(base.grad)
