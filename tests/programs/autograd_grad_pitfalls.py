# Models: an autograd FAQ notebook ("why is my .grad None?"): torch.autograd.grad with
# allow_unused/materialize_grads, retain_graph and backward twice, grad of non-scalar outputs
# with grad_outputs, .grad of non-leaf tensors (retain_grad), requires_grad on integer tensors,
# detach vs no_grad vs inference_mode, hooks on tensors that do not require grad, and
# create_graph for second derivatives; every cell prints its result or its exception.
import warnings

import torch

torch.manual_seed(0)
warnings.simplefilter("ignore")


def show(title, fn):
    try:
        print(f"[ok] {title}: {fn()}")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
show("grad simple", lambda: torch.autograd.grad((x**2).sum(), x))
show("unused input", lambda: torch.autograd.grad((x**2).sum(), [x, y]))
show("allow_unused", lambda: torch.autograd.grad((x**2).sum(), [x, y], allow_unused=True))
show("materialize_grads", lambda: torch.autograd.grad((x**2).sum(), [x, y], materialize_grads=True))
show("non-scalar output", lambda: torch.autograd.grad(x**2, x))
show("grad_outputs", lambda: torch.autograd.grad(x**2, x, grad_outputs=torch.ones(3)))
show("grad_outputs shape", lambda: torch.autograd.grad(x**2, x, grad_outputs=torch.ones(2)))
show("input not requiring grad", lambda: torch.autograd.grad((x**2).sum(), torch.ones(3)))
show("output not requiring grad", lambda: torch.autograd.grad(torch.ones(3).sum(), x))
z = (x * y).sum()
z.backward(retain_graph=True)
z.backward()
show("accumulated grad", lambda: x.grad)
show("backward twice", lambda: (lambda w: (w.backward(), w.backward()))((x * y).sum()))
x.grad = None
h = x * 2
show("non-leaf grad warns and is None", lambda: (h.sum().backward(retain_graph=True), h.grad)[1])
h.retain_grad()
h.sum().backward()
show("retain_grad", lambda: (h.grad, h.is_leaf, h.retains_grad))
show("int requires_grad", lambda: torch.tensor([1, 2], requires_grad=True))
show("int requires_grad_", lambda: torch.tensor([1, 2]).requires_grad_())
show("non-leaf requires_grad_ False", lambda: (x * 2).requires_grad_(False))
show("backward on no-grad tensor", lambda: torch.ones(2).sum().backward())
show("backward non-scalar", lambda: (x * 2).backward())
show("backward gradient shape", lambda: (x * 2).backward(torch.ones(2)))
show("hook on no-grad tensor", lambda: torch.ones(2).register_hook(lambda g: g))
with torch.no_grad():
    n = x * 2
show("no_grad result", lambda: (n.requires_grad, n.grad_fn))
with torch.inference_mode():
    inf = x * 2
show("inference tensor", lambda: (inf.requires_grad, inf.is_inference()))
show("inference tensor in autograd", lambda: (inf * x).sum().backward())
show(
    "detach shares storage",
    lambda: (x.detach().data_ptr() == x.data_ptr(), x.detach().requires_grad),
)
show("set_grad_enabled", lambda: torch.set_grad_enabled(False).__class__.__name__)
torch.set_grad_enabled(True)
show(
    "enable_grad inside no_grad",
    lambda: (
        lambda: [
            torch.no_grad().__enter__(),
            torch.enable_grad().__enter__(),
            (x * 2).requires_grad,
        ][2]
    )(),
)
torch.set_grad_enabled(True)
x.grad = None
g1 = torch.autograd.grad((x**3).sum(), x, create_graph=True)[0]
g2 = torch.autograd.grad(g1.sum(), x)[0]
show("second derivative", lambda: (g1, g2))
show(
    "second derivative without create_graph",
    lambda: torch.autograd.grad(torch.autograd.grad((x**3).sum(), x)[0].sum(), x),
)
show(
    "is_grads_batched",
    lambda: torch.autograd.grad(x * 2, x, grad_outputs=torch.eye(3), is_grads_batched=True),
)
show("leaf in-place", lambda: x.add_(1))
show("grad of leaf assign", lambda: setattr(x, "grad", torch.ones(2)))
show("grad dtype assign", lambda: setattr(x, "grad", torch.ones(3, dtype=torch.float64)))
show("version", lambda: x._version)
