"""torch.library by schema: Library/define/impl, binding by the schema, the kernels chosen by
dispatch key, torch's WarnNotImplemented fallback, and its errors."""
import warnings

import numpy as np
import torch

warnings.simplefilter("always")


def show(call):
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])


lib = torch.library.Library("mylib", "DEF")
print(lib)
print(lib.define("mysin(Tensor x) -> Tensor"))
lib.impl("mysin", lambda x: x.sin(), "CPU")
x = torch.ones(3, requires_grad=True)
y = torch.ops.mylib.mysin(x)
print(y, y.grad_fn.name())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y.sum().backward()
print([str(m.message)[:60] for m in w], x.grad)
print(torch.ops.mylib.mysin, torch.ops.mylib.mysin.default)
lib.define("twice(Tensor x, float a=2.0) -> Tensor")


@torch.library.impl(lib, "twice", "CompositeImplicitAutograd")
def twice(x, a=2.0):
    return x * a


print(torch.ops.mylib.twice(x), torch.ops.mylib.twice(x, a=5.))
show(lambda: torch.ops.mylib.nothere)
print(torch.library.get_ctx())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")

    @torch.library.impl_abstract("mylib::mysin")
    def f(x):
        return torch.empty_like(x)
print([(m.category.__name__, str(m.message)[:50]) for m in w])
show(lambda: lib.define("mysin(Tensor x) -> Tensor"))
show(lambda: torch.ops.mylib.twice(torch.ones(2), b=5.))
show(lambda: torch.ops.mylib.twice(torch.ones(2), 1., 2.))
show(lambda: torch.ops.mylib.twice())
torch.library.define("mylib::npsin", "(Tensor x) -> Tensor")


@torch.library.impl("mylib::npsin", "cpu")
def npsin(x):
    return torch.from_numpy(np.sin(x.detach().numpy()))


x.grad = None
y = torch.ops.mylib.npsin(x)
print(y, y.requires_grad, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y.sum().backward()
print([str(m.message)[:60] for m in w], x.grad)
print(torch.ops.mylib.npsin(x.detach()).requires_grad)
torch.library.define("mylib::g", '(Tensor x, *, int n=1, float[] s=[0.1, 2.0], str mode="a", '
                     "Scalar? k=None, int[2] ks=[3, 3], float eps=1e-05) -> (Tensor, Tensor)")
print(torch.ops.mylib.g.default._schema)
show(lambda: torch.ops.mylib.g(torch.ones(1)))
torch.library.impl("mylib::g", "default")(
    lambda x, *, n=1, s=(), mode="", k=None, ks=(), eps=0.0: (x * n, x + eps))
print(torch.ops.mylib.g(torch.ones(1), n=3))
show(lambda: torch.library.define("mylib::bad", "Tensor x -> Tensor"))
show(lambda: torch.library.Library("aten", "DEF"))
show(lambda: torch.library.Library("x", "FOO"))
show(lambda: torch.library.define("mylib::d", "(Tensor x, float a=zz) -> Tensor"))
lib2 = torch.library.Library("mylib", "FRAGMENT")
lib2.define("f.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")
lib2.define("f(Tensor x) -> Tensor")
print(torch.ops.mylib.f, torch.ops.mylib.f.out._schema, sorted(torch.ops.mylib.f.overloads()))


def f_out(x, *, out):
    return out.copy_(x * 10)


lib2.impl("f.out", f_out, "CPU")
lib2.impl("f", lambda x: x + 100, "CPU")
o = torch.zeros(2)
print(torch.ops.mylib.f.out(torch.ones(2), out=o), o, torch.ops.mylib.f(torch.ones(2)))
torch.library.define("mylib::numpy_mul", "(Tensor x, float y) -> Tensor")
torch.library.impl("mylib::numpy_mul", "cpu")(
    lambda x, y: torch.from_numpy(x.numpy(force=True) * y))


def setup_context(ctx, inputs, output):
    ctx.y = inputs[1]


def backward(ctx, grad):
    return grad * ctx.y, None


torch.library.register_autograd("mylib::numpy_mul", backward, setup_context=setup_context)
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.ops.mylib.numpy_mul(x, 3.)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
torch.library.define("mylib::args", "(Tensor x, float a=2.0, *, int n=1, int m=4) -> Tensor")
torch.library.impl("mylib::args", "cpu")(lambda *a, **k: print("cpu", a, k) or a[0])
torch.ops.mylib.args(torch.ones(1))
torch.ops.mylib.args(torch.ones(1), 3.0, m=2)
torch.ops.mylib.args(x=torch.ones(1), a=3.0)
torch.ops.mylib.args(torch.ones(1), 2.0, n=1)
torch.ops.mylib.args.default(torch.ones(1), n=5)
show(lambda: torch.library.Library("mylib", "DEF"))
show(lambda: torch.library.Library("prim", "FRAGMENT"))
