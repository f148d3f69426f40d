# Models: the debugging sections of courses and forum answers: common mistakes a program
# catches and prints -- shape mismatches in matmul/cat/view/Linear, broadcasting failures,
# dtype mismatches, index errors, backward twice, in-place on a leaf, item() on many elements.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(f"{label} -> {type(e).__name__}: {e}")


a, b = torch.randn(2, 3), torch.randn(4, 5)
attempt("matmul", lambda: a @ b)
attempt("mm", lambda: torch.mm(a, b))
attempt("add", lambda: a + b)
attempt("cat", lambda: torch.cat([a, b]))
attempt("stack", lambda: torch.stack([a, a.T]))
attempt("view", lambda: a.view(4, 2))
attempt("view non-contiguous", lambda: a.T.view(6))
attempt("reshape", lambda: a.T.reshape(6).shape)
attempt("linear", lambda: nn.Linear(4, 2)(a))
attempt("index", lambda: a[5])
attempt("index dim", lambda: a[0, 0, 0])
attempt("dim", lambda: a.sum(dim=2))
attempt("item", lambda: a.item())
attempt("float long mm", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.long))
attempt("cross entropy float target", lambda: F.cross_entropy(a, torch.tensor([0.0, 1.0])))
attempt("cross entropy class", lambda: F.cross_entropy(a, torch.tensor([0, 3])))
attempt("nll shape", lambda: F.nll_loss(a, torch.tensor([0, 1, 2])))
attempt("mse shapes", lambda: F.mse_loss(a, torch.zeros(2, 3)).item())
attempt("embedding", lambda: nn.Embedding(3, 2)(torch.tensor([3])))
attempt("conv channels", lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 1, 5, 5)))
attempt("conv small", lambda: nn.Conv2d(1, 1, 3)(torch.randn(1, 1, 2, 2)))
attempt("zeros negative", lambda: torch.zeros(-1))
attempt("randint", lambda: torch.randint(5, 2, (3,)))
attempt("tensor ragged", lambda: torch.tensor([[1, 2], [3]]))
attempt("numpy grad", lambda: torch.ones(2, requires_grad=True).numpy())
attempt("squeeze", lambda: a.squeeze(3))
attempt("permute", lambda: a.permute(0))
attempt("expand", lambda: a.expand(3, 3))
attempt("gather", lambda: a.gather(1, torch.tensor([[0.0]])))


def backward_twice():
    x = torch.ones(2, requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward()
    y.backward()


def inplace_leaf():
    x = torch.ones(2, requires_grad=True)
    x.add_(1)


def no_grad_output():
    x = torch.ones(2)
    x.sum().backward()


def nonscalar_backward():
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward()


def inplace_saved():
    x = torch.ones(3, requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()
    print(x.grad)


def grad_of_nonleaf():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.sum().backward()
    return y.grad


attempt("backward twice", backward_twice)
attempt("in-place leaf", inplace_leaf)
attempt("no grad", no_grad_output)
attempt("non-scalar backward", nonscalar_backward)
attempt("in-place saved output", inplace_saved)
attempt("grad of non-leaf", lambda: print(grad_of_nonleaf()))
attempt("optimizer empty", lambda: torch.optim.SGD([], lr=0.1))
attempt("optimizer lr", lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=-1))
attempt("load_state_dict", lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)}))
attempt("state_dict shape", lambda: nn.Linear(2, 2).load_state_dict(
    {"weight": torch.ones(3, 2), "bias": torch.ones(2)}))
attempt("module call", lambda: nn.ReLU()(torch.ones(1), torch.ones(1)))
attempt("device", lambda: torch.ones(1).to("cuda:0").sum())
