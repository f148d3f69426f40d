# Models: an autograd lesson on grad modes: no_grad / enable_grad / set_grad_enabled as context
# managers, decorators and functions, inference_mode tensors and their errors outside the mode,
# is_inference, is_grad_enabled / is_inference_mode_enabled printed at each level of nesting.
import torch

x = torch.ones(2, requires_grad=True)


def state(tag):
    print(f"{tag:28s} grad={torch.is_grad_enabled()} inference={torch.is_inference_mode_enabled()}")


state("top")
with torch.no_grad():
    state("no_grad")
    y = x * 2
    with torch.enable_grad():
        state("  enable_grad inside")
        z = x * 2
    with torch.set_grad_enabled(True):
        state("  set_grad_enabled(True)")
print("y", y.requires_grad, y.grad_fn, "z", z.requires_grad, z.grad_fn.name())
torch.set_grad_enabled(False)
state("set_grad_enabled(False) call")
print("op under global off", (x + 1).requires_grad)
torch.set_grad_enabled(True)
state("back on")


@torch.no_grad()
def predict(t):
    state("  in @no_grad function")
    return t * 3


@torch.enable_grad()
def train_step(t):
    return (t**2).sum()


p = predict(x)
print("predict output requires grad", p.requires_grad)
with torch.no_grad():
    loss = train_step(x)
print("enable_grad decorator inside no_grad", loss.requires_grad, loss.grad_fn.name())
with torch.inference_mode():
    state("inference_mode")
    i = x * 5
    print("inference tensor", i.is_inference(), i.requires_grad, i.grad_fn)
    with torch.inference_mode(False):
        state("  inference_mode(False)")
        j = x * 5
print("j normal", j.is_inference(), j.requires_grad)
print("x is_inference", x.is_inference())
try:
    i.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (i * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
k = i * 2
print("ops on inference tensors outside are normal", k.is_inference(), i.clone().is_inference())
try:
    i.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)


@torch.inference_mode()
def infer(t):
    return t.relu()


print("decorated inference", infer(x).is_inference())
print("no_grad data tensor version bump")
w = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    w.copy_(torch.tensor([1.0, 2.0, 3.0]))
print(w, w._version, w.requires_grad, w.is_leaf)
with torch.set_grad_enabled(False):
    m = torch.nn.Linear(2, 2)(x)
print("module output under set_grad_enabled(False)", m.requires_grad)
ctx = torch.no_grad()
print(
    "objects",
    type(ctx).__name__,
    torch.inference_mode().mode if hasattr(torch.inference_mode(), "mode") else "-",
)
print("grad_enabled nested restore")
with torch.no_grad():
    with torch.no_grad():
        pass
    state("  after inner exit")
state("after all")
