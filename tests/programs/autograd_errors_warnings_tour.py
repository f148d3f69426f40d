# Models: a forum-FAQ style "autograd gotchas" script: each mistake caught and its message printed
# (accessing .grad of a non-leaf warns, backward through a freed graph, in-place on a tensor needed
# for grad, grad can be implicitly created only for scalar outputs, element 0 does not require
# grad, mismatched grad shapes in backward, leaf variable moved into the graph interior, integer
# outputs, retain_graph, and requires_grad on a non-leaf).
import warnings

import torch

warnings.simplefilter("always")


def show(title, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(f"{title}: ok ->", out)
        except Exception as e:
            print(f"{title}: {type(e).__name__}: {str(e).splitlines()[0]}")
        for item in w:
            print(f"   warning {item.category.__name__}: {str(item.message)[:140]}")


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
show("non-leaf .grad", lambda: y.grad)
show("backward of non-scalar", lambda: y.backward())
show("no grad_fn", lambda: torch.tensor(1.0).backward())
show("grad shape mismatch", lambda: (x * 2).backward(torch.ones(3)))
show("grad dtype mismatch", lambda: (x * 2).backward(torch.ones(2, dtype=torch.float64)))
z = (x**2).sum()
z.backward()
show("second backward", lambda: z.backward())
show("grad after backward", lambda: x.grad)
w = x.exp()
w2 = w * 2
w.add_(1)
show("modified saved tensor", lambda: w2.sum().backward())
show("int tensor backward", lambda: torch.tensor([1, 2]).sum().backward())
show(
    "requires_grad on float result of int op",
    lambda: torch.arange(3).float().requires_grad_().sum().backward(),
)
show("requires_grad_ on non-leaf to False", lambda: (x * 2).requires_grad_(False))
show(
    "autograd.grad of unrelated input",
    lambda: torch.autograd.grad((x * 2).sum(), torch.ones(2, requires_grad=True)),
)
show("backward inputs=[]", lambda: (x * 2).sum().backward(inputs=[]))
show("backward inputs non-leaf", lambda: (x * 2).sum().backward(inputs=[x]))
show("x.grad after inputs", lambda: x.grad)
show(
    "grad of grad without create_graph",
    lambda: torch.autograd.grad(torch.autograd.grad((x**3).sum(), x)[0].sum(), x),
)
p = torch.nn.Parameter(torch.ones(2))
show("parameter in-place outside no_grad", lambda: p.mul_(2))
show("set .grad wrong shape", lambda: setattr(p, "grad", torch.zeros(3)))
show("set .grad wrong dtype", lambda: setattr(p, "grad", torch.zeros(2, dtype=torch.float64)))
show(
    "set .grad on int",
    lambda: setattr(torch.zeros(2, dtype=torch.long), "grad", torch.zeros(2, dtype=torch.long)),
)
show("zero_ on grad", lambda: p.grad)
show("numpy of requires_grad", lambda: p.numpy())
show("tolist of requires_grad", lambda: p.tolist())
show("item on requires_grad", lambda: (p.sum()).item())
show("deepcopy of non-leaf", lambda: __import__("copy").deepcopy(x * 2))
show("backward on bool", lambda: (x > 0).sum().backward())
show("float(x) of 2-element", lambda: float(x))
show(
    "retain_graph twice",
    lambda: [(lambda t: (t.backward(retain_graph=True), t.backward()))((x * x).sum()), x.grad][1],
)
show(
    "leaf .data assignment with wrong shape", lambda: setattr(x, "data", torch.zeros(3)) or x.shape
)
