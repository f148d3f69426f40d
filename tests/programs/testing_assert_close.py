# Models: a "unit-testing your PyTorch model" course chapter: torch.testing.assert_close on
# outputs, gradients and state_dicts (default and custom rtol/atol, equal_nan, check_dtype,
# check_device, msg callables), the failure messages it prints for mismatched values, shapes,
# dtypes and containers, isclose/allclose/equal, and torch.testing.make_tensor fixtures.
import torch
import torch.nn as nn
from torch.testing import assert_close, make_tensor

torch.manual_seed(0)


def check(title, fn):
    try:
        fn()
        print(f"[pass] {title}")
    except AssertionError as e:
        print(f"[fail] {title}:\n{e}\n")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
x = torch.randn(5, 4)
out = model(x)
ref = torch.tanh(x @ model[0].weight.T + model[0].bias) @ model[2].weight.T + model[2].bias
check("forward matches manual", lambda: assert_close(out, ref))
check("perturbed output", lambda: assert_close(out, ref + 1e-3))
check("perturbed with atol", lambda: assert_close(out, ref + 1e-3, rtol=0, atol=2e-3))
check(
    "one element off",
    lambda: assert_close(
        out, ref.index_put((torch.tensor([2]), torch.tensor([1])), torch.tensor(9.0))
    ),
)
check("shape mismatch", lambda: assert_close(out, ref[:4]))
check("dtype mismatch", lambda: assert_close(out, ref.double()))
check("dtype ignored", lambda: assert_close(out, ref.double(), check_dtype=False))
check(
    "nan not equal",
    lambda: assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")])),
)
check(
    "nan equal",
    lambda: assert_close(
        torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True
    ),
)
check("int exact", lambda: assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])))
check("bool", lambda: assert_close(torch.tensor([True, False]), torch.tensor([True, True])))
check("python scalars", lambda: assert_close(1.0, 1.0 + 1e-9))
check("scalar mismatch", lambda: assert_close(1.0, 1.1))
check("tensor vs list", lambda: assert_close(torch.tensor([1.0, 2.0]), [1.0, 2.0]))
check("sequence length", lambda: assert_close([torch.ones(1), torch.ones(1)], [torch.ones(1)]))
check(
    "nested dict",
    lambda: assert_close(
        {"a": torch.ones(2), "b": [torch.zeros(1)]}, {"a": torch.ones(2), "b": [torch.ones(1)]}
    ),
)
check("custom msg", lambda: assert_close(out, ref + 1, msg="model drifted"))
check(
    "msg callable",
    lambda: assert_close(out, ref + 1, msg=lambda m: "first line only: " + m.splitlines()[0]),
)
check("rtol without atol", lambda: assert_close(out, ref, rtol=1e-3))
check("complex", lambda: assert_close(torch.tensor([1 + 1j]), torch.tensor([1 + 1.1j])))
check(
    "float16 tolerance",
    lambda: assert_close(
        torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.0009765625], dtype=torch.float16)
    ),
)
check("stride ignored", lambda: assert_close(torch.ones(2, 3).t(), torch.ones(3, 2)))
check(
    "stride checked",
    lambda: assert_close(torch.ones(2, 3).t(), torch.ones(3, 2), check_stride=True),
)

out.sum().backward()
grads = {n: p.grad.clone() for n, p in model.named_parameters()}
model.zero_grad()
torch.autograd.backward(model(x).sum())
check(
    "gradients reproducible",
    lambda: assert_close(grads, {n: p.grad for n, p in model.named_parameters()}),
)
copy = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
check("state_dict differs", lambda: assert_close(model.state_dict(), copy.state_dict()))
copy.load_state_dict(model.state_dict())
check("state_dict copied", lambda: assert_close(model.state_dict(), copy.state_dict()))

a = torch.tensor([1.0, 1.0001, float("nan"), float("inf")])
b = torch.tensor([1.0, 1.0, float("nan"), float("inf")])
print(
    torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), torch.isclose(a, b, rtol=0, atol=1e-5)
)
print(
    torch.allclose(a[:2], b[:2]),
    torch.equal(a[:2], b[:2]),
    torch.equal(torch.ones(2), torch.ones(2, 1)),
)

t1 = make_tensor((2, 3), dtype=torch.float32, device="cpu", low=-1, high=1)
t2 = make_tensor((4,), dtype=torch.int64, device="cpu", low=0, high=10)
t3 = make_tensor((3,), dtype=torch.bool, device="cpu")
t4 = make_tensor((2, 2), dtype=torch.float32, device="cpu", noncontiguous=True)
print(t1.shape, t1.dtype, bool((t1 >= -1).all() and (t1 < 1).all()))
print(t2.dtype, bool(((t2 >= 0) & (t2 < 10)).all()), t3.dtype, t4.is_contiguous(), t4.shape)
check(
    "make_tensor bounds",
    lambda: make_tensor((2,), dtype=torch.float32, device="cpu", low=2, high=1),
)
