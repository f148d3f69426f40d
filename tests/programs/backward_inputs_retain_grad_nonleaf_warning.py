# Models: an autograd FAQ on where gradients go: backward(inputs=[...]) accumulating only into
# chosen leaves, accumulation across two backward calls, retain_grad on intermediates, the
# warning when reading .grad of a non-leaf, and grads of views and of leaves created by ops.
import warnings

import torch

w1 = torch.tensor([1.0, 2.0], requires_grad=True)
w2 = torch.tensor([3.0], requires_grad=True)
loss = (w1 * w2).sum() ** 2
loss.backward(inputs=[w1], retain_graph=True)
print("only w1", w1.grad, w2.grad)
loss.backward(retain_graph=True)
print("accumulated", w1.grad, w2.grad)
h = w1 * 2
h.retain_grad()
out = (h ** 2).sum()
out.backward()
print("retain_grad", h.grad, h.is_leaf, h.retains_grad)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = (w1 + 1).grad
    print("non-leaf grad", g, [str(m.message)[:90] for m in w])
v = w1[:1]
v.retain_grad()
(v * 5).sum().backward()
print("view grad", v.grad, "leaf grad", w1.grad)
leafish = torch.ones(2) * 3
leafish.requires_grad_()
(leafish ** 2).sum().backward()
print("made leaf", leafish.is_leaf, leafish.grad)
try:
    out.backward(inputs=[])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (w1 * 3).sum().backward(inputs=[h])
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
