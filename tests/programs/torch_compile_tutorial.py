# Models: the "Introduction to torch.compile" tutorial run with backend="eager" (no C++
# toolchain needed): compiling a function, a Module, the @torch.compile decorator, nested
# compiled calls, OptimizedModule's repr/_orig_mod/state_dict keys, a training loop with a
# compiled model, graph breaks (print and .item() inside), data-dependent branches,
# torch._dynamo.reset, torch.compiler.disable and the argument errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


opt_foo1 = torch.compile(foo, backend="eager")
print(opt_foo1(torch.randn(3, 3), torch.randn(3, 3)))


@torch.compile(backend="eager")
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


print(opt_foo2(torch.randn(3, 3), torch.randn(3, 3)))


def inner(x):
    return torch.sin(x)


@torch.compile(backend="eager")
def outer(x, y):
    a = inner(x)
    b = torch.cos(y)
    return a + b


print(outer(torch.randn(3, 3), torch.randn(3, 3)))


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))


mod = MyModule()
mod.compile(backend="eager")
print(type(mod).__name__, mod(torch.randn(3, 3)))
opt_mod = torch.compile(MyModule(), backend="eager")
print(type(opt_mod).__name__)
print(opt_mod)
print(type(opt_mod._orig_mod).__name__, list(opt_mod.state_dict().keys()))
print(isinstance(opt_mod, nn.Module), opt_mod.training)
print(opt_mod(torch.randn(2, 3)))


# a compiled model trains exactly like the eager one
def make():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Dropout(0.1), nn.Linear(16, 1))


x = torch.randn(32, 8)
y = x.sum(1, keepdim=True).sin()
results = []
for compiled in (False, True):
    model = make()
    if compiled:
        model = torch.compile(model, backend="eager")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    torch.manual_seed(2)
    losses = []
    for step in range(30):
        opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    results.append(losses)
    print(f"compiled={compiled}: first {losses[0]:.5f} last {losses[-1]:.5f}")
print("identical losses:", results[0] == results[1])


# graph breaks: a print inside still runs, in order
@torch.compile(backend="eager")
def with_break(x):
    x = x * 2
    print("inside compiled function, sum =", x.sum().item())
    return x + 1


print(with_break(torch.arange(4.0)))


# data-dependent control flow
@torch.compile(backend="eager")
def branchy(x):
    if x.sum() > 0:
        return x.relu()
    return -x


print(branchy(torch.tensor([1.0, -2.0, 3.0])), branchy(torch.tensor([-1.0, -2.0])))


@torch.compiler.disable
def not_compiled(x):
    return x - 1


@torch.compile(backend="eager")
def uses_disabled(x):
    return not_compiled(x) * 3


print(uses_disabled(torch.ones(2)))
torch._dynamo.reset()
torch.compiler.reset()
print("is_compiling outside:", torch.compiler.is_compiling())
print("backends include inductor:", "inductor" in torch._dynamo.list_backends())

try:
    torch.compile(foo, mode="fastest")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.compile(foo, backend="no_such_backend")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    torch.compile(foo, mode="default", options={"trace.enabled": True})
except RuntimeError as e:
    print("RuntimeError:", e)
