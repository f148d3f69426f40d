# Models: a printing reference notebook for unusual tensors: complex with nan/inf and mixed
# magnitudes, complex under printoptions precision/sci_mode, 0-d and empty complex, large
# integer tensors with summarisation, negative zeros, requires_grad/grad_fn suffixes, tensors
# with names of dtypes in repr, sparse COO printing, and str() vs repr() vs format().
import torch

torch.manual_seed(57)
print(torch.tensor([1 + 2j, float("nan") + 1j, complex(float("inf"), -1), 0j]))
print(torch.tensor([1e-5 + 1e5j, 123.456 - 0.001j]))
print(torch.tensor([[1 + 1j, -2.5 - 3.25j], [0.125j, 4 + 0j]]))
print(
    torch.tensor(3 - 4j),
    torch.tensor([], dtype=torch.complex64),
    torch.zeros(2, 0, dtype=torch.complex128),
)
torch.set_printoptions(precision=2)
print("precision 2", torch.tensor([1 / 3 + 2j / 3, -1e-3 + 5j]))
torch.set_printoptions(sci_mode=True)
print("sci", torch.tensor([1 / 3 + 2j / 3, -1e-3 + 5j]))
torch.set_printoptions(profile="default")
print(torch.randn(3, 2, dtype=torch.complex64))
print("neg zero", torch.tensor([-0.0, 0.0, -0.0 + 0j]), torch.tensor([-0.0]))
print("big ints", torch.tensor([123456789012, -5, 0]), torch.arange(2000).reshape(2, 1000))
print("int8 range", torch.arange(-128, 128, dtype=torch.int8).reshape(16, 16))
print("bool summary", torch.ones(1500, dtype=torch.bool))
print(
    "grad suffixes",
    torch.ones(2, requires_grad=True) * 2,
    torch.ones(2, dtype=torch.float64, requires_grad=True),
)
print("sum of complex grad", (torch.ones(2, dtype=torch.complex64, requires_grad=True) * 1j).sum())
idx = torch.tensor([[0, 1, 2], [2, 0, 1]])
sp = torch.sparse_coo_tensor(idx, torch.tensor([3.0, 4.0, 5.0]), (3, 3))
print(sp)
print(sp.coalesce())
print(sp.to_dense())
print(
    torch.sparse_coo_tensor(
        idx, torch.tensor([1, 2, 3]), (3, 3), dtype=torch.float64
    ).requires_grad_()
)
print(
    "str/repr/format",
    str(torch.tensor(1.5)),
    repr(torch.tensor([1.5])),
    format(torch.tensor(2.25), ".1f"),
    f"{torch.tensor(7):>4}",
)
print("list of tensors", [torch.tensor(1.0), torch.tensor([2, 3])])
print("tuple shapes", torch.zeros(2, 3).shape, torch.Size([]), torch.Size([1, 2]) + (3,))
print(
    "dtype reprs",
    torch.tensor([1.0], dtype=torch.float16),
    torch.tensor([1.0], dtype=torch.bfloat16),
    torch.tensor([True]),
)
print("high precision double", torch.tensor([1.0 + 1e-15, 1.0], dtype=torch.float64))
torch.set_printoptions(precision=10)
print("precision 10 double", torch.tensor([1.0 + 1e-15, 1 / 3], dtype=torch.float64))
torch.set_printoptions(profile="default")
print(
    "mixed range float",
    torch.tensor([1e-4, 1.0, 1e4]),
    torch.tensor([1e-5, 1.0]),
    torch.tensor([0.1, 1e8]),
)
print("inf/nan only", torch.tensor([float("inf"), float("nan")]), torch.tensor([float("-inf")]))
