# Models: the "Extending PyTorch" docs' advanced custom Function features as a lesson:
# ctx.needs_input_grad, mark_non_differentiable for an argmax output, mark_dirty for an in-place
# op, set_materialize_grads(False) with None grads, returning views, setup_context style
# (forward without ctx), non-tensor outputs, and the errors for wrong numbers of gradients.
import torch
from torch.autograd import Function


class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    def backward(ctx, g_vals, g_idx):
        (idx,) = ctx.saved_tensors
        print("   g_idx is", g_idx if g_idx is None else tuple(g_idx.shape))
        out = torch.zeros_like(g_vals)
        out.scatter_(0, idx, g_vals)
        return out


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


class TwoOutputs(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print(
            "   grads received:",
            None if g1 is None else g1.tolist(),
            None if g2 is None else g2.tolist(),
        )
        total = 0
        if g1 is not None:
            total = total + 2 * g1
        if g2 is not None:
            total = total + 3 * g2
        return total


class Scale(Function):
    @staticmethod
    def forward(x, factor):
        return x * factor

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, factor = inputs
        ctx.factor = factor

    @staticmethod
    def backward(ctx, g):
        print("   needs_input_grad", ctx.needs_input_grad)
        return g * ctx.factor, None


class WrongCount(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, g):
        return torch.ones(7)


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
vals, idx = SortWithIdx.apply(x)
print("sort outputs", vals, idx, "idx requires_grad", idx.requires_grad)
(vals * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print("grad through sort", x.grad)
y = x.detach().clone().requires_grad_(True)
z = y * 1
out = AddOneInPlace.apply(z)
print("mark_dirty returns the same tensor", out is z, out.grad_fn.name(), z)
out.sum().backward()
print("grad", y.grad)
try:
    AddOneInPlace.apply(torch.ones(2, requires_grad=True))
except RuntimeError as e:
    print("RuntimeError:", e)
a = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = TwoOutputs.apply(a)
o1.sum().backward()
print("only first used ->", a.grad)
b = torch.tensor([1.0, 2.0], requires_grad=True)
s = Scale.apply(b, 4.0)
s.sum().backward()
print("setup_context style", s, b.grad)
try:
    WrongCount.apply(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    WrongShape.apply(torch.ones(3, requires_grad=True)).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print("apply with no grad inputs", TwoOutputs.apply(torch.ones(2))[0].requires_grad)
with torch.no_grad():
    print("apply under no_grad", Scale.apply(b, 2.0).requires_grad)
print(
    "Function repr names",
    SortWithIdx.apply(x)[0].grad_fn.name(),
    type(TwoOutputs.apply(a)[0].grad_fn).__name__,
)
