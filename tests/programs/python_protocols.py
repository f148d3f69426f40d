# Models: the ways everyday Python code treats tensors as ordinary values (logging, metric
# bookkeeping, quick scripts) -- f-string/format/%-formatting, round/int/float/bool/abs,
# math and numpy functions on 0-d tensors, iteration, unpacking, len/in/sorted/max/sum over
# tensors, comparisons in if-statements, dict keys and sets of tensors, copy/deepcopy,
# pickling, operator overloads with Python scalars on either side, and __repr__ in containers.
import copy
import math
import operator
import pickle

import numpy as np
import torch

t = torch.tensor(3.14159)
print(f"{t:.3f}", f"{t}", "{:.2e}".format(t), "%.4f" % t,  # noqa: UP031, UP032
      "%d" % torch.tensor(7))  # noqa: UP031
print(round(t.item(), 2), int(t), float(t), bool(t), abs(torch.tensor(-2.5)), complex(t))
print(math.sqrt(t), math.isclose(t, 3.14159, rel_tol=1e-6), math.floor(t), math.exp(
    torch.tensor(0.0)))
print(np.sin(t), np.float32(t) + 1, np.mean(torch.tensor([1.0, 2.0]).numpy()))
v = torch.tensor([3, 1, 2])
print(list(v), [int(e) for e in v], len(v), 2 in v, 5 in v, sorted(v), max(v), min(v))
print(sum(torch.tensor([1.5, 2.5])), sum([torch.tensor(1.0), torch.tensor(2.0)]))
a, b, c = v
print(a, b + c, type(a).__name__)
first, *rest = torch.arange(4).view(2, 2)
print(first, rest)
for i, row in enumerate(torch.eye(2)):
    print(i, row)
loss = torch.tensor(0.25)
if loss < 0.5:
    print("loss below threshold", loss < 0.5, (loss < 0.5).item())
print(operator.mul(2, v), 10 - v, 2 ** v, v ** 2, 1 / torch.tensor([2.0, 4.0]), 7 // v, 7 % v)
print(-v, +v, ~torch.tensor([True, False]), v @ v, v == 2, v != 2, 2 < v)
d = {t: "pi"}
s = {v[0], v[0]}
print(d[t], len(s), hash(t) == id(t))
print(copy.copy(v), copy.deepcopy(torch.tensor([1.0], requires_grad=True)))
w = torch.nn.Parameter(torch.ones(2))
w2 = copy.deepcopy(w)
print(type(w2).__name__, w2.requires_grad, w2 is not w)
blob = pickle.dumps({"t": torch.arange(3), "p": w})
back = pickle.loads(blob)
print(back["t"], type(back["p"]).__name__, back["p"].requires_grad)
print([torch.tensor(1), torch.tensor([2.5])], (torch.tensor(True),), {"k": torch.zeros(1)})
print(str(torch.tensor(1.0)), repr(torch.tensor([1, 2])), torch.tensor(1.0).__repr__())
x = torch.tensor([1.0, 2.0])
x += 1
x *= torch.tensor([2.0, 3.0])
x -= 0.5
x /= 2
print(x, x.tolist(), x.numpy().tolist(), torch.tensor(5).item() + 1)
print(torch.tensor([1, 2]) + np.int64(3), np.float64(2.0) * torch.tensor([1.0]),
      (torch.tensor([1.0]) * np.float64(2.0)).dtype, (np.float64(2.0) * torch.tensor([1.0])).dtype)
print(torch.tensor([0.1, 0.2]).sum() == torch.tensor(0.3), torch.isclose(
    torch.tensor([0.1, 0.2]).sum(), torch.tensor(0.3)))
print(divmod(7, 2), torch.tensor(7).div(2, rounding_mode="floor"), pow(torch.tensor(2), 3))
print(isinstance(t, torch.Tensor), torch.is_tensor(t), torch.is_floating_point(t),
      torch.is_complex(t), torch.numel(v), v.dim(), v.size(0), v.nelement())
