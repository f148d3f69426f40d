# Models: a "creating tensors from tensors" reference: new_tensor (and its copy warning),
# new_zeros/new_ones/new_full/new_empty inheriting dtype, zeros_like/full_like with dtype
# overrides, empty_like preserving strides of permuted tensors, memory_format arguments, and
# torch.tensor on a tensor warning.
import warnings

import torch

base = torch.arange(6, dtype=torch.int16).reshape(2, 3)
print(base.new_zeros(2).dtype, base.new_ones((1, 2)), base.new_full((2,), 7))
print(base.new_empty(0).dtype, base.new_tensor([1.5, 2.5]), base.new_tensor([1.5]).dtype)
print(torch.zeros_like(base, dtype=torch.float32), torch.full_like(base, 2.7))
print(torch.ones_like(base, dtype=torch.bool))
perm = torch.empty(2, 3, 4).permute(2, 0, 1)
print("perm strides", perm.stride(), "empty_like", torch.empty_like(perm).stride())
print("contiguous_format", torch.empty_like(perm, memory_format=torch.contiguous_format).stride())
nchw = torch.empty(2, 3, 4, 5)
cl = nchw.to(memory_format=torch.channels_last)
print("channels_last", cl.stride(), torch.zeros_like(cl).stride(),
      cl.is_contiguous(memory_format=torch.channels_last))
print("rand_like", torch.rand_like(perm).shape, torch.randn_like(base, dtype=torch.float64).dtype)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    t = torch.tensor(base)
    u = base.new_tensor(base)
    print(len(w), [str(x.message)[:90] for x in w])
print(t.dtype, u.dtype, t.data_ptr() != base.data_ptr())
print(torch.as_tensor(base) is base, torch.as_tensor(base, dtype=torch.float32).dtype)
print(torch.asarray([1, 2], dtype=torch.int8), torch.scalar_tensor(3))
print(torch.empty_strided((2, 2), (1, 2)).stride(), torch.zeros(2, 3).T.contiguous().stride())
