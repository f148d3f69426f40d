# Models: the "Extending torch.autograd" tutorial's testing section: custom Functions (a cubic,
# a smooth-abs with saved tensors, a two-output function, a function with non-tensor args and
# once_differentiable), each checked with gradcheck and gradgradcheck in float64, plus the failure
# report of a deliberately wrong backward with raise_exception=False and True.
import warnings

import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


class SmoothAbs(Function):
    @staticmethod
    def forward(ctx, x, eps):
        r = torch.sqrt(x * x + eps)
        ctx.save_for_backward(x, r)
        ctx.eps = eps
        return r

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        return g * x / r, None


class PolarSplit(Function):
    @staticmethod
    def forward(ctx, x, y):
        r = torch.hypot(x, y)
        th = torch.atan2(y, x)
        ctx.save_for_backward(x, y, r)
        return r, th

    @staticmethod
    def backward(ctx, gr, gth):
        x, y, r = ctx.saved_tensors
        r2 = r * r
        return gr * x / r - gth * y / r2, gr * y / r + gth * x / r2


class ClampGrad(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ((x > ctx.lo) & (x < ctx.hi)).to(g.dtype), None, None


class WrongSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x  # should be 2 * x


torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
y = torch.randn(5, dtype=torch.float64, requires_grad=True)
print(
    "Cube gradcheck", gradcheck(Cube.apply, (x,)), "gradgradcheck", gradgradcheck(Cube.apply, (x,))
)
print("SmoothAbs gradcheck", gradcheck(lambda t: SmoothAbs.apply(t, 1e-3), (x,)))
print("SmoothAbs gradgradcheck", gradgradcheck(lambda t: SmoothAbs.apply(t, 1e-3), (x,)))
print("PolarSplit gradcheck", gradcheck(PolarSplit.apply, (x, y)))
print("ClampGrad gradcheck", gradcheck(lambda t: ClampGrad.apply(t, -0.5, 0.5), (x,)))
out = ClampGrad.apply(x, -0.5, 0.5)
(gx,) = torch.autograd.grad(out.sum(), x, create_graph=True)
try:
    gx.sum().backward()
except RuntimeError as e:
    print("once_differentiable:", e)
print("WrongSquare without raising", gradcheck(WrongSquare.apply, (x,), raise_exception=False))
try:
    gradcheck(WrongSquare.apply, (x,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(
        "numerical row 0",
        [round(v, 4) for v in torch.autograd.functional.jacobian(lambda t: t * t, x)[0].tolist()],
    )
x32 = torch.randn(3, requires_grad=True)
try:
    gradcheck(Cube.apply, (x32,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    ok = gradcheck(Cube.apply, (x32,), raise_exception=False, atol=1e-2, rtol=1e-2)
print("float32 with loose tolerance", ok, [str(i.message)[:60] for i in w])
print("fast_mode", gradcheck(PolarSplit.apply, (x, y), fast_mode=True))
print(
    "values",
    Cube.apply(torch.tensor([2.0])),
    SmoothAbs.apply(torch.tensor([-3.0]), 0.0),
    PolarSplit.apply(torch.tensor([3.0]), torch.tensor([4.0])),
)
o = Cube.apply(x)
print("grad_fn name", o.grad_fn.name(), type(o.grad_fn).__name__)
