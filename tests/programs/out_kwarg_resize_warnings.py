# Models: a "the out= argument" section of a PyTorch performance/idioms blog: writing into
# preallocated buffers with out=, the resize warning for a non-empty out of the wrong shape, empty
# outs resized silently, dtype errors for out, out= with views, and in-place vs out= equivalence.
import warnings

import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.ones(2, 3)
buf = torch.empty(2, 3)
r = torch.add(a, b, out=buf)
print("returns out itself", r is buf, buf)
torch.mul(a, 2, out=buf)
print("reused", buf)
e = torch.empty(0)
torch.sin(a, out=e)
print("empty out resized silently", e.shape)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    wrong = torch.zeros(5)
    torch.exp(a, out=wrong)
    print("wrong-shape out", wrong.shape, "warnings:", len(w))
    for item in w:
        print(" ", item.category.__name__, str(item.message)[:150])
try:
    torch.add(a, b, out=torch.empty(2, 3, dtype=torch.int64))
except RuntimeError as err:
    print("RuntimeError:", err)
o = torch.empty(2, 3, dtype=torch.float64)
torch.add(a, b, out=o)
print("float64 out accepted", o.dtype, o)
idx_out = torch.empty(2, dtype=torch.long)
vals_out = torch.empty(2)
torch.max(a, 1, out=(vals_out, idx_out))
print("tuple out", vals_out, idx_out)
mm_out = torch.empty(2, 2)
torch.mm(a, a.t(), out=mm_out)
print("mm out", mm_out)
big = torch.zeros(4, 3)
torch.add(a, 1, out=big[1:3])
print("out is a view of a bigger tensor\n", big)
s = torch.empty(1)
torch.sum(a, dim=(0, 1), out=s.squeeze())
print("sum into 0-d", s)
c = torch.zeros(3)
torch.cumsum(torch.tensor([1.0, 2.0, 3.0]), 0, out=c)
print("cumsum out", c)
x = torch.tensor([1.0, 4.0, 9.0])
y1 = x.clone().sqrt_()
y2 = torch.empty(3)
torch.sqrt(x, out=y2)
print("in-place == out=", torch.equal(y1, y2))
leaf = torch.zeros(3, requires_grad=True)
try:
    torch.add(x, 1, out=leaf)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    torch.add(x, torch.ones(3, requires_grad=True), out=torch.empty(3))
except RuntimeError as err:
    print("RuntimeError:", err)
cat_out = torch.empty(6)
torch.cat([x, x], out=cat_out)
print("cat out", cat_out)
lin = torch.empty(5)
torch.linspace(0, 1, 5, out=lin)
print("linspace out", lin)
ar = torch.empty(0, dtype=torch.int64)
torch.arange(4, out=ar)
print("arange out", ar)
