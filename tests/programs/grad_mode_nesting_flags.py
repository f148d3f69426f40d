# Models: grad-mode context managers as used in evaluation loops and EMA updates: no_grad,
# enable_grad, inference_mode and set_grad_enabled nested, with requires_grad / is_leaf /
# grad_fn printed for tensors made in each, decorators, and inference tensors' restrictions.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
print("leaf", w.is_leaf, w.requires_grad, w.grad_fn)
y = w * 2
print("y", y.is_leaf, y.requires_grad, type(y.grad_fn).__name__)
with torch.no_grad():
    a = w * 2
    print("no_grad", a.requires_grad, a.is_leaf, a.grad_fn, torch.is_grad_enabled())
    with torch.enable_grad():
        b = w * 3
        print(
            "enable inside no_grad",
            b.requires_grad,
            type(b.grad_fn).__name__,
            torch.is_grad_enabled(),
        )
    c = w + 1
    print("back to no_grad", c.requires_grad)
with torch.set_grad_enabled(False):
    print("set_grad_enabled(False)", torch.is_grad_enabled(), (w * 1).requires_grad)
print("restored", torch.is_grad_enabled())
torch.set_grad_enabled(False)
print("global off", (w * 1).requires_grad)
torch.set_grad_enabled(True)
print("global on", (w * 1).requires_grad)


@torch.no_grad()
def ema_update(p, q, decay=0.9):
    p.mul_(decay).add_(q, alpha=1 - decay)
    return p.requires_grad, torch.is_grad_enabled()


ema = torch.zeros(2, requires_grad=True)
print("ema decorator", ema_update(ema, w), ema)

with torch.inference_mode():
    i = w * 2
    print("inference", i.requires_grad, i.is_inference(), torch.is_inference_mode_enabled())
    with torch.inference_mode(False):
        j = w * 2
        print("inference(False) inside", j.requires_grad, j.is_inference())
print("outside", torch.is_inference_mode_enabled(), w.is_inference())
try:
    i.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (i * w).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
k = i.clone()
print("clone of inference tensor", k.is_inference())

d = w.detach()
print("detach", d.requires_grad, d.is_leaf, d.data_ptr() == w.data_ptr())
d2 = w.detach().requires_grad_()
print("detach.requires_grad_", d2.requires_grad, d2.is_leaf)
x = torch.ones(2)
x.requires_grad_(True)
print("requires_grad_", x.requires_grad, x.is_leaf)
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    p = torch.ones(2, requires_grad=True)
    q = p * 2
print("leaf created in no_grad", p.requires_grad, p.is_leaf, q.requires_grad)
z = (w**2).sum()
z.backward()
print("grad", w.grad)
with torch.no_grad():
    w -= 0.1 * w.grad
print("sgd step", w, w.is_leaf, w.grad_fn)
w.grad = None
e = w.exp()
print(
    "grad_fn chain",
    type(e.grad_fn).__name__,
    [type(n[0]).__name__ for n in e.grad_fn.next_functions],
)
