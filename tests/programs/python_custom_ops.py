# Models: the "Python Custom Operators" tutorial: wrapping NumPy code as torch.library
# custom ops (numpy_sin, a crop-like op with several inputs, an in-place op declared with
# mutates_args), register_fake, register_autograd with setup_context/backward (including
# None gradients for non-tensor inputs), torch.ops.<ns>.<name> access, opcheck, and the error
# raised when backpropagating through an op without a registered formula.
import numpy as np
import torch
from torch import Tensor

torch.manual_seed(220)


@torch.library.custom_op("tutorial::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    return torch.from_numpy(np.sin(x.numpy(force=True)))


@numpy_sin.register_fake
def _(x):
    return torch.empty_like(x)


def sin_setup(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def sin_backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * x.cos()


numpy_sin.register_autograd(sin_backward, setup_context=sin_setup)


@torch.library.custom_op("tutorial::scaled_clip", mutates_args=())
def scaled_clip(x: Tensor, lo: float, hi: float, scale: Tensor) -> Tensor:
    out = np.clip(x.numpy(force=True), lo, hi) * scale.numpy(force=True)
    return torch.from_numpy(out.astype(np.float32))


def clip_setup(ctx, inputs, output):
    x, lo, hi, scale = inputs
    ctx.save_for_backward(x, scale)
    ctx.lo, ctx.hi = lo, hi


def clip_backward(ctx, grad):
    x, scale = ctx.saved_tensors
    inside = ((x >= ctx.lo) & (x <= ctx.hi)).float()
    gx = grad * inside * scale
    gscale = (grad * x.clamp(ctx.lo, ctx.hi)).sum(0)
    return gx, None, None, gscale


torch.library.register_autograd("tutorial::scaled_clip", clip_backward,
                                setup_context=clip_setup)


@torch.library.custom_op("tutorial::numpy_mul_", mutates_args={"x"})
def numpy_mul_(x: Tensor, factor: float) -> None:
    arr = x.numpy()
    np.multiply(arr, factor, out=arr)


@torch.library.custom_op("tutorial::no_grad_formula", mutates_args=())
def no_grad_formula(x: Tensor) -> Tensor:
    return x.clone() * 3


print(numpy_sin, type(numpy_sin).__name__)
x = torch.randn(5, requires_grad=True)
y = numpy_sin(x)
print(y, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad, torch.allclose(x.grad, x.detach().cos()))
z = torch.randn(4, 3, requires_grad=True)
s = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
out = scaled_clip(z, -0.5, 0.5, s)
(out ** 2).sum().backward()
print(out, z.grad, s.grad, sep="\n")
ref_z = z.detach().clone().requires_grad_()
ref_s = s.detach().clone().requires_grad_()
((ref_z.clamp(-0.5, 0.5) * ref_s) ** 2).sum().backward()
print(torch.allclose(ref_z.grad, z.grad), torch.allclose(ref_s.grad, s.grad))
t = torch.ones(3)
numpy_mul_(t, 2.5)
torch.ops.tutorial.numpy_mul_(t, 2.0)
print(t)
print(torch.ops.tutorial.numpy_sin(torch.tensor([0.0, 1.0])), torch.ops.tutorial.numpy_sin,
      torch.ops.tutorial.scaled_clip.default)
with torch.no_grad():
    print(numpy_sin(x).requires_grad, numpy_sin(torch.zeros(2)).grad_fn)
print(torch.library.opcheck(numpy_sin, (torch.randn(3),)))
w = torch.ones(2, requires_grad=True)
r = no_grad_formula(w)
print(r.requires_grad, r)
try:
    r.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
def identity(x: Tensor) -> Tensor:
    return x.clone()


for name, mutates in (("no_namespace", ()), ("tutorial::identity", "x")):
    try:
        torch.library.custom_op(name, mutates_args=mutates)(identity)
    except ValueError as e:
        print("ValueError:", e)
