# Models: a beginner FAQ on getting numbers out of tensors: item, tolist on nested and 0-d
# tensors, int/float/bool/complex of one-element tensors, numpy() dtypes and sharing,
# formatting tensors in f-strings, and the errors for multi-element or grad tensors.
import numpy as np
import torch

t = torch.tensor([[1.5, -2.0], [3.25, 0.0]])
print(t.tolist(), type(t.tolist()[0][0]))
print(torch.tensor(7).tolist(), torch.tensor([True, False]).tolist())
print(torch.tensor([1, 2], dtype=torch.int8).tolist(),
      torch.tensor([0.1], dtype=torch.float16).item())
print(torch.tensor(2.5).item(), type(torch.tensor(2.5).item()))
print(torch.tensor(3, dtype=torch.uint8).item(), type(torch.tensor(3).item()))
print(int(torch.tensor(3.9)), float(torch.tensor(2)), bool(torch.tensor(0.0)))
print(complex(torch.tensor(1 + 2j)), torch.tensor([1 - 1j]).tolist())
print(int(torch.tensor([-3.7])), round(torch.tensor(2.567).item(), 2))
print(f"{torch.tensor(3.14159):.2f}", f"{torch.tensor(42)}", f"{str(torch.tensor(1)):>8}")
print(torch.tensor(0.1, dtype=torch.float32).item(), torch.tensor(0.1, dtype=torch.float64).item())
print(torch.tensor(1e20).item(), torch.tensor(float("nan")).item())
print(torch.tensor([1.0]).bfloat16().item())
a = t.numpy()
print(a.dtype, torch.arange(3).numpy().dtype, torch.tensor([True]).numpy().dtype)
a[0, 0] = 100.0
print("shared", t[0, 0])
print(np.asarray(torch.ones(2, dtype=torch.float64)).dtype)
print(torch.tensor(np.float32(2.5)), torch.tensor(np.int16(4)).dtype)
print(torch.tensor(5) + 1, (torch.tensor(5) + 1.5).dtype, 2 ** torch.tensor(3))
print(torch.tensor(4.0) == 4, [1, 2, 3][torch.tensor(1)],
      range(10)[torch.tensor(2):torch.tensor(5)])
print(len(torch.zeros(4, 2)))
for bad in [lambda: torch.tensor([1.0, 2.0]).item(),
            lambda: float(torch.ones(2)),
            lambda: bool(torch.tensor([True, False])),
            lambda: torch.ones(2, requires_grad=True).numpy(),
            lambda: len(torch.tensor(3.0)),
            lambda: int(torch.tensor([])),
            lambda: iter(torch.tensor(1.0))]:
    try:
        bad()
    except (RuntimeError, ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
