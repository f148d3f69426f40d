# Models: a memory-semantics lesson: clone vs detach vs data sharing, contiguous() returning
# self when already contiguous, torch.from_numpy sharing and its writeable warning, .numpy() of
# a non-contiguous view, share_memory_ and is_shared, untyped_storage sizes, and data_ptr offsets.
import warnings

import numpy as np
import torch

a = torch.arange(6.0).reshape(2, 3)
c = a.clone()
d = a.detach()
d[0, 0] = 100.0
print("detach shares", a[0, 0].item(), "clone kept", c[0, 0].item())
print("contiguous is self", a.contiguous() is a, a.t().contiguous() is a.t())
n = np.arange(4, dtype=np.float32)
t = torch.from_numpy(n)
n[0] = 9
print("from_numpy shares", t, t.dtype)
ro = np.arange(3.0)
ro.flags.writeable = False
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.from_numpy(ro)
    print("warnings", len(w), str(w[0].message)[:60] if w else None)
v = a.t()
print("numpy of transpose", v.numpy().flags["C_CONTIGUOUS"], v.numpy().strides)
print("is_shared", a.is_shared(), a.share_memory_().is_shared())
print("storage bytes", a.untyped_storage().nbytes(), a[1].untyped_storage().nbytes())
print("offsets", a[1].storage_offset(), a[1].data_ptr() - a.data_ptr())
print("element_size", a.element_size(), torch.zeros(2, dtype=torch.int16).element_size())
e = torch.empty(0)
print("empty numel", e.numel(), e.untyped_storage().nbytes())
x = torch.ones(3, requires_grad=True)
print("x.data is leaf", x.data.requires_grad, x.detach().requires_grad)
y = x.clone()
print("clone grad_fn", y.grad_fn.name())
print("tolist of view", a[:, 1].tolist(), a[:, 1].is_contiguous())
