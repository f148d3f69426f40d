# Models: a "stride tricks" blog post: sliding windows with as_strided over 1-d and 2-d tensors,
# agreement with Tensor.unfold, storage_offset, writing through an as_strided view, moving
# averages and 2x2 patch extraction, and the overlapping-memory error for in-place writes.
import torch

x = torch.arange(10.0)
win = x.as_strided((8, 3), (1, 1))
print(win)
print("unfold equal", torch.equal(win, x.unfold(0, 3, 1)))
print("moving average", win.mean(1))
print("stride 2 windows", x.as_strided((4, 3), (2, 1)), x.unfold(0, 3, 2).shape)
print("offset view", x.as_strided((3,), (2,), storage_offset=1))
img = torch.arange(16.0).reshape(4, 4)
patches = img.as_strided((2, 2, 2, 2), (8, 2, 4, 1))
print("2x2 patches\n", patches.reshape(4, 4))
print("unfold patches equal", torch.equal(patches, img.unfold(0, 2, 2).unfold(1, 2, 2)))
y = torch.zeros(6)
v = y.as_strided((3,), (2,))
v.fill_(1.0)
print("write through view", y)
print("is view", v._base is y, v.stride(), v.storage_offset())
g = torch.arange(5.0, requires_grad=True)
g.as_strided((3, 3), (1, 1)).sum().backward()
print("grad counts overlaps", g.grad)
over = x.as_strided((3, 3), (1, 1))
try:
    over.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.as_strided((20,), (1,))
except RuntimeError as e:
    print("RuntimeError:", e)
