# Models: the "tensor creation" sections of tutorials and cheat sheets -- full/zeros/ones with
# dtypes, arange with float steps, linspace/logspace, eye/diag/diagflat, empty_like then
# fill_, new_zeros/new_full/new_tensor/new_ones keeping dtype, zeros_like with a dtype,
# meshgrid with both indexings, tril_indices/triu_indices, cartesian_prod/combinations,
# block_diag, kron, vander, as_strided sliding windows, complex/polar construction, heaviside,
# and torch.tensor from nested lists of tensors and mixed Python numbers.
import torch

print(torch.full((2, 3), 7), torch.full((2,), 1.5).dtype, torch.full((1,), True).dtype)
print(torch.zeros(2, 2, dtype=torch.int16), torch.ones(3, dtype=torch.bool))
print(torch.arange(0, 1, 0.1), torch.arange(0, 1, 0.1).shape, torch.arange(1, 2.5, 0.5))
print(torch.arange(-3, 3).dtype, torch.arange(10, dtype=torch.float64)[-1])
print(torch.linspace(-1, 1, 5), torch.linspace(0, 1, 1), torch.linspace(2, 10, 3,
                                                                        dtype=torch.int64))
print(torch.logspace(0, 3, 4), torch.logspace(0, 2, 3, base=2))
print(torch.eye(3, 4), torch.eye(2, dtype=torch.long))
print(torch.diag(torch.tensor([1, 2, 3])), torch.diag(torch.arange(9).view(3, 3), 1))
print(torch.diagflat(torch.tensor([1.0, 2.0]), offset=-1))
e = torch.empty_like(torch.ones(2, 3)).fill_(4.5)
print(e, torch.empty(0).shape, torch.empty(2, 0, 3).numel())
base = torch.tensor([1, 2], dtype=torch.int32)
print(base.new_zeros(3), base.new_full((2,), 9), base.new_tensor([4.7, 5.2]),
      base.new_ones(1, 2).dtype, base.new_empty(2).shape)
print(torch.zeros_like(base, dtype=torch.float16), torch.ones_like(torch.eye(2)),
      torch.full_like(base, 3.9))
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
print(xs, ys)
xx, yy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(xx.shape, yy)
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(torch.combinations(torch.tensor([1, 2, 3, 4]), r=2))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2, with_replacement=True))
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5]]), torch.tensor([[1, 2]])))
print(torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.vander(torch.tensor([1, 2, 3]), N=3), torch.vander(torch.tensor([2.0, 3.0]),
                                                                increasing=True))
sig = torch.arange(8.0)
windows = torch.as_strided(sig, size=(3, 4), stride=(2, 1))
print(windows, windows.is_contiguous())
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])),
      torch.polar(torch.tensor([2.0]), torch.tensor([0.0])))
print(torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5])))
print(torch.tensor([torch.tensor(1.5), 2, 3.0]), torch.tensor([[1, 2.5], [True, 0]]))
print(torch.stack([torch.tensor([1, 2]), torch.tensor([3, 4])]).dtype,
      torch.tensor([[1, 2], [3, 4]], dtype=torch.float64).T)
print(torch.tensor(()), torch.tensor([[]]).shape, torch.tensor(5).ndim, torch.tensor([5]).ndim)
print(torch.tensor([1e40]), torch.tensor([1e-50]), torch.tensor(2 ** 40).dtype)
print(torch.FloatTensor([1, 2]), torch.LongTensor(2).shape, torch.BoolTensor([1, 0]),
      torch.DoubleTensor(1, 2).dtype, torch.IntTensor([3]).dtype)
print(torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape)
print(torch.range(0, 4, 2), torch.tensor(range(4)), torch.tensor(list(b"abc")))
print(torch.scalar_tensor(3), torch.tensor(3.0).item(), torch.tensor([1, 2]).tolist())
print(torch.tril(torch.ones(3, 3), diagonal=-1), torch.triu(torch.arange(1, 10).view(3, 3)))
print(torch.rot90(torch.arange(4).view(2, 2)), torch.fliplr(torch.arange(4).view(2, 2)),
      torch.flipud(torch.arange(4).view(2, 2)))
