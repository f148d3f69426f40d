import copy

import torch
import torch.nn as nn


class Base(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print("Base sees", func.__name__, [t.__name__ for t in types])
        return super().__torch_function__(func, types, args, kwargs)


class Child(Base):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print("Child sees", func.__name__, [t.__name__ for t in types])
        return super().__torch_function__(func, types, args, kwargs)


a = torch.arange(6.).reshape(2, 3).as_subclass(Base)
b = torch.ones(2, 3).as_subclass(Child)
c = torch.add(a, b)
print(type(c).__name__)
d = a + b
print(type(d).__name__)


class VeryLongSubclassName(torch.Tensor):
    pass


x = torch.randn(3, 8, generator=torch.Generator().manual_seed(1)).as_subclass(VeryLongSubclassName)
print(x)
print(x.requires_grad_())
print(x * 2)
print(x.double().sum(1))
print(repr(torch.zeros(0, 3).as_subclass(VeryLongSubclassName)))
p = nn.Parameter(torch.ones(2))
print(type(p * 2).__name__, type(p.as_subclass(VeryLongSubclassName)).__name__)
t = torch.Tensor._make_subclass(VeryLongSubclassName, torch.ones(2), True)
print(t, t.is_leaf, t.grad_fn)
(t * t).sum().backward()
print(type(t.grad).__name__, t.grad)
print(torch.overrides.has_torch_function_unary(t),
      torch.overrides.has_torch_function_variadic(p, p))
print(torch.overrides.has_torch_function((p, torch.ones(1))))
with torch._C.DisableTorchFunctionSubclass():
    print(type(t + 1).__name__)
print(type(t + 1).__name__)
try:
    e = copy.deepcopy(t)
except RuntimeError as err:
    print(str(err)[:60])
    e = t
print(type(e).__name__, e)


class NI:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


for fn in (lambda: torch.add(NI(), 1), lambda: torch.sin(NI()),
           lambda: torch.nn.functional.relu(NI()), lambda: torch.ones(2) + NI(),
           lambda: torch.cat([torch.ones(1), NI()])):
    try:
        fn()
    except TypeError as err:
        print("TypeError:", str(err).splitlines()[0])


class Loud(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print("mode:", func.__name__, len(args), sorted(kwargs or {}))
        return func(*args, **(kwargs or {}))


with Loud():
    z = torch.zeros(2, 2)
    w = torch.ones(2, 2, requires_grad=True)
    r = (z + w).mean()
    r.backward()
    print(w.grad)
    with Loud():
        torch.tensor([1.0]).exp()
print(torch.overrides.is_tensor_method_or_property(torch.Tensor.add))
print(torch.overrides.get_default_nowrap_functions().__class__.__name__,
      len(torch.overrides.get_default_nowrap_functions()))
