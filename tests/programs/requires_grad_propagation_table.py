# Models: an autograd tutorial table of when results require grad: float and integer inputs,
# detach, no_grad, enable_grad inside no_grad, set_grad_enabled(False), inference_mode,
# requires_grad_ on non-leaves, and the leaf status of each result.
import torch

a = torch.ones(2, requires_grad=True)
b = torch.ones(2)
i = torch.ones(2, dtype=torch.long)
rows = {
    "a*b": a * b, "b*2": b * 2, "a.detach()": a.detach(), "a.sum()": a.sum(),
    "a.long()": a.long(), "a[i]": a[i], "i.float()*a": i.float() * a,
    "torch.zeros_like(a)": torch.zeros_like(a), "a.clone()": a.clone(),
    "a.argmax()": a.argmax(), "a > 0": a > 0, "a.data": a.data,
}
with torch.no_grad():
    rows["no_grad a*2"] = a * 2
    with torch.enable_grad():
        rows["enable inside no_grad"] = a * 2
with torch.set_grad_enabled(False):
    rows["set_grad_enabled(False)"] = a + 1
with torch.inference_mode():
    rows["inference_mode"] = a * 2
for name, t in rows.items():
    gf = t.grad_fn.name() if t.grad_fn is not None else None
    print(f"{name:24s} requires_grad={t.requires_grad!s:5s} is_leaf={t.is_leaf!s:5s} grad_fn={gf}")
print("inference tensor", rows["inference_mode"].is_inference())
c = (b * 2).requires_grad_()
print("requires_grad_ on result", c.is_leaf, c.requires_grad)
try:
    (a * 2).requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
print("grad enabled", torch.is_grad_enabled())
