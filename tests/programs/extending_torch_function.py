# Models: the "Extending torch with a Tensor-like type" and "Subclassing torch.Tensor" sections of
# PyTorch's notes (docs/source/notes/extending.rst): a ScalarTensor that implements
# __torch_function__ for a handful of torch functions through a HANDLED_FUNCTIONS table, a
# logging Tensor subclass, a metadata-carrying subclass trained through autograd, and a
# TorchFunctionMode that counts the functions a model calls.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

HANDLED_FUNCTIONS = {}


class ScalarTensor:
    def __init__(self, N, value):
        self._N = N
        self._value = value

    def __repr__(self):
        return f"ScalarTensor(N={self._N}, value={self._value})"

    def tensor(self):
        return self._value * torch.eye(self._N)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(
                issubclass(t, (torch.Tensor, ScalarTensor)) for t in types):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)


def implements(torch_function):
    """Register a torch function override for ScalarTensor"""
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator


def ensure_tensor(data):
    if isinstance(data, ScalarTensor):
        return data.tensor()
    return torch.as_tensor(data)


@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N


@implements(torch.add)
def add(input, other):
    try:
        if input._N == other._N:
            return ScalarTensor(input._N, input._value + other._value)
        else:
            raise ValueError("Shape mismatch!")
    except AttributeError:
        return torch.add(ensure_tensor(input), ensure_tensor(other))


d = ScalarTensor(5, 2)
print(d)
print(d.tensor())
print(torch.mean(d))
s = ScalarTensor(2, 2)
print(torch.add(s, s))
t = torch.tensor([[1, 1], [1, 1]])
print(torch.add(s, t))
try:
    torch.mul(s, 3)
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
print(torch.overrides.is_tensor_like(d), torch.overrides.is_tensor_like(t))
print(torch.overrides.has_torch_function((d,)), torch.overrides.has_torch_function((t,)))


class LoggingTensor(torch.Tensor):
    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        cls.calls.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs)


torch.manual_seed(0)
x = torch.randn(3, 4).as_subclass(LoggingTensor)
y = (x * 2 + 1).relu().sum(dim=1)
print(type(y).__name__, y)
print(LoggingTensor.calls)
LoggingTensor.calls.clear()
z = F.softmax(x, dim=-1)
print(type(z).__name__, z.shape, LoggingTensor.calls)
LoggingTensor.calls.clear()
parts = torch.split(x, 2, dim=1)
print([type(p).__name__ for p in parts], [tuple(p.shape) for p in parts])
values, indices = x.max(dim=1)
print(type(values).__name__, type(indices).__name__, indices)
print(x.tolist()[0][:2], type(x.sum().item()).__name__)
print(LoggingTensor.calls)


class TaggedTensor(torch.Tensor):
    """A tensor carrying a tag through every operation (as in torch's subclass docs)."""

    @staticmethod
    def __new__(cls, data, tag):
        t = torch.Tensor._make_subclass(cls, data, data.requires_grad)
        t.tag = tag
        return t

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        out = super().__torch_function__(func, types, args, kwargs)
        tags = {a.tag for a in args if isinstance(a, TaggedTensor) and hasattr(a, "tag")}
        if isinstance(out, TaggedTensor) and tags and not hasattr(out, "tag"):
            out.tag = "+".join(sorted(tags))
        return out


w = TaggedTensor(torch.randn(4, 2, requires_grad=True), "weights")
print(w.is_leaf, w.requires_grad, w.tag)
inp = torch.randn(5, 4)
out = inp @ w
print(type(out).__name__, out.tag, out.grad_fn is not None)
loss = out.pow(2).mean()
loss.backward()
print(type(w.grad).__name__, w.grad)

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 4).as_subclass(LoggingTensor)
target = torch.randn(8, 2)
for step in range(3):
    opt.zero_grad()
    pred = model(data)
    loss = F.mse_loss(pred, target)
    loss.backward()
    opt.step()
    print(step, type(pred).__name__, f"{loss.item():.6f}")
print(model.weight)


class CountingMode(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.counts = {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", str(func))
        self.counts[name] = self.counts.get(name, 0) + 1
        return func(*args, **(kwargs or {}))


net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
with CountingMode() as mode:
    out = net(torch.randn(2, 4))
    out = out.softmax(dim=1)
print(sorted(mode.counts.items()))
print(out)
