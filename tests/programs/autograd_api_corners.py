# Models: autograd calls beyond .backward() collected from public research code --
# autograd.grad with allow_unused/materialize_grads/grad_outputs/retain_graph, backward with
# inputs= and accumulation, tensor hooks that rescale gradients, retain_grad on non-leaves,
# register_post_accumulate_grad_hook for an optimizer-in-backward step, forward-mode AD with
# torch.autograd.forward_ad dual numbers, functional jvp/vjp/jacobian, detect_anomaly's NaN
# error, and set_grad_enabled as a context and a function.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.functional import jacobian, jvp, vjp

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = torch.randn(3, requires_grad=True)
z = torch.randn(3, requires_grad=True)
out = (x * y).sum()
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True, retain_graph=True)
print(gx, gz)
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True, materialize_grads=True,
                             retain_graph=True)
print(gz)
try:
    torch.autograd.grad(out, [x, z], retain_graph=True)
except RuntimeError as e:
    print("unused:", str(e).split(". Set")[0])
vec = x * 2
g, = torch.autograd.grad(vec, x, grad_outputs=torch.tensor([1.0, 0.5, 0.0]))
print("grad_outputs", g)

(x * y * z).sum().backward(inputs=[y])
print("inputs=", x.grad, y.grad is not None, z.grad)
(x * y * z).sum().backward(inputs=[y])
print("accumulated", torch.allclose(y.grad, 2 * x * z))
y.grad = None

h = x * 3
h.retain_grad()
hook_calls = []
handle = h.register_hook(lambda g: hook_calls.append(g.clone()) or g * 10)
(h ** 2).sum().backward()
print("retain_grad sees the hooked grad", h.grad, hook_calls[0])
print("leaf grad", x.grad)
handle.remove()
x.grad = None

w = torch.randn(4, requires_grad=True)
lr = 0.1


def sgd_hook(p):
    with torch.no_grad():
        p.add_(p.grad, alpha=-lr)
    p.grad = None


before = w.detach().clone()
w.register_post_accumulate_grad_hook(sgd_hook)
(w ** 2).sum().backward()
print("optimizer in backward", w.grad, torch.allclose(w, before * 0.8))

primal = torch.tensor([1.0, 2.0, 3.0])
tangent = torch.tensor([1.0, 0.0, 0.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    out = (dual ** 2).sin().sum()
    p, t = fwAD.unpack_dual(out)
    print("forward AD", p, t)


def f(a):
    return torch.stack([a[0] * a[1], a[1].exp(), a.sum() ** 2])


a = torch.tensor([0.5, -1.0])
print("jacobian", jacobian(f, a))
print("jvp", jvp(f, a, torch.tensor([1.0, 1.0])))
print("vjp", vjp(f, a, torch.tensor([1.0, 0.0, 1.0])))
print("vectorized jacobian", jacobian(f, a, vectorize=True))

bad = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    try:
        torch.sqrt(bad).sum().backward()
        print("no error; grad", bad.grad)
    except RuntimeError as e:
        print("anomaly:", str(e))
with torch.set_grad_enabled(False):
    print("grad disabled", (x * 2).requires_grad)
torch.set_grad_enabled(True)
print("enabled again", (x * 2).requires_grad, torch.is_grad_enabled())
with torch.enable_grad():
    print((x * 2).requires_grad)


@torch.no_grad()
def infer(t):
    return t * 2


print("decorated", infer(x).requires_grad)
leaf = torch.ones(2, requires_grad=True)
mid = leaf * 2
print(mid.is_leaf, [(type(f).__name__, i) for f, i in mid.grad_fn.next_functions])
mid.sum().backward(retain_graph=True)
mid.sum().backward(gradient=torch.tensor(3.0))
print(leaf.grad)
print(torch.autograd.grad((leaf ** 3).sum(), leaf, create_graph=True)[0].grad_fn.name())
