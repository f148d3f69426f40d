# Models: a beginner's "errors tour" from an intro deep-learning course: each classic mistake run
# inside try/except and its message printed (matmul shapes, backward twice, in-place on a leaf,
# grad of a non-scalar, wrong dtype into nn.Linear, int tensors requiring grad, device/dtype
# mix-ups, cross_entropy target types, view on non-contiguous, numpy() of a grad tensor...).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def tour(title, fn):
    try:
        out = fn()
        print(f"[ok] {title}:", out)
    except Exception as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
        print(f"[{type(e).__name__}] {title}: {msg}")


a, b = torch.randn(2, 3), torch.randn(2, 3)
tour("matmul shapes", lambda: a @ b)
tour("mm shapes", lambda: torch.mm(a, b))
tour("bmm needs 3-d", lambda: torch.bmm(a, b))
tour("matmul 1-d mismatch", lambda: torch.matmul(torch.ones(3), torch.ones(4)))
tour("dot needs 1-d", lambda: torch.dot(a, b))
tour("dot dtypes", lambda: torch.dot(torch.ones(2), torch.ones(2, dtype=torch.float64)))
x = torch.ones(3, requires_grad=True)


def backward_twice():
    y = (x.exp() * 2).sum()
    y.backward()
    y.backward()


tour("backward twice", backward_twice)
tour("in-place on a leaf", lambda: x.mul_(2))
tour("grad of non-scalar", lambda: (x * 2).backward())
tour("grad of non-tensor output", lambda: torch.autograd.grad((x * 2).sum(), x, torch.ones(3)))
lin = nn.Linear(3, 2)
tour("double input to float Linear", lambda: lin(torch.ones(1, 3, dtype=torch.float64)))
tour("int input to Linear", lambda: lin(torch.ones(1, 3, dtype=torch.long)))
tour("wrong in_features", lambda: lin(torch.ones(4, 5)))
tour("int requires grad", lambda: torch.tensor([1, 2], requires_grad=True))
tour("requires_grad_ on int", lambda: torch.arange(3).requires_grad_())
tour("numpy of a grad tensor", lambda: x.numpy())
tour("item of many", lambda: a.item())
tour("bool of many", lambda: bool(a))
tour(
    "cross_entropy float target shape",
    lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0.0, 1.0, 2.0, 1.0])),
)
tour(
    "cross_entropy target out of range",
    lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 3, 1])),
)
tour(
    "nll_loss int target dtype",
    lambda: F.nll_loss(torch.randn(4, 3), torch.tensor([0, 1, 2, 1], dtype=torch.int32)),
)
tour("mse size mismatch warns", lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)).shape)
tour(
    "bce target range", lambda: F.binary_cross_entropy(torch.rand(3), torch.tensor([0.0, 1.0, 2.0]))
)
tour("bce input range", lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
tour("conv2d on 2-d input", lambda: nn.Conv2d(1, 2, 3)(torch.randn(5, 5)).shape)
tour("conv2d channels", lambda: nn.Conv2d(3, 2, 3)(torch.randn(1, 1, 5, 5)))
tour("conv kernel too big", lambda: nn.Conv2d(1, 1, 7)(torch.randn(1, 1, 5, 5)))
tour("embedding index out of range", lambda: nn.Embedding(5, 2)(torch.tensor([5])))
tour("embedding float index", lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
tour("cat dims", lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
tour("stack sizes", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
tour("view non-contiguous", lambda: a.t().view(6))
tour("squeeze dim out of range", lambda: a.squeeze(3))
tour("to unknown device", lambda: torch.ones(1).to("gpu"))
tour("tensor from ragged list", lambda: torch.tensor([[1, 2], [3]]))
tour("tensor from strings", lambda: torch.tensor(["a"]))
tour("optimizer with a tensor", lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
tour("optimizer empty", lambda: torch.optim.Adam([], lr=0.1))
tour("negative lr", lambda: torch.optim.SGD(lin.parameters(), lr=-1))
tour("state_dict missing keys", lambda: lin.load_state_dict({"weight": torch.zeros(2, 3)}))
tour(
    "state_dict wrong shape",
    lambda: lin.load_state_dict({"weight": torch.zeros(3, 3), "bias": torch.zeros(2)}),
)
tour("module call without forward", lambda: nn.Module()(1))
tour("softmax without dim warns", lambda: F.softmax(torch.tensor([[1.0, 2.0]])).shape)
tour("argmax of empty", lambda: torch.tensor([]).argmax())
tour("max of empty", lambda: torch.tensor([]).max())
tour("randint high <= low", lambda: torch.randint(5, 5, (2,)))
tour("normal negative std", lambda: torch.normal(0.0, -1.0, (2,)))
tour(
    "multinomial without replacement too many",
    lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3),
)
tour("linspace steps negative", lambda: torch.linspace(0, 1, -1))
tour("arange bad step", lambda: torch.arange(0, 10, -1))
tour("reshape -1 twice", lambda: a.reshape(-1, -1))
tour("index with float", lambda: a[torch.tensor([0.0])])
tour("setitem shape", lambda: a.__setitem__(slice(None), torch.ones(3, 2)))
