# Models: the "why does my training crash" list from a beginners' course, each mistake caught
# and its exception type and message printed: Linear shape mismatch, CrossEntropyLoss with float
# or one-hot targets of the wrong dtype, backward twice, in-place on a leaf, backward on a
# non-scalar, numpy() on a tensor that requires grad, view on non-contiguous, item() on many values.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


lin = nn.Linear(10, 3)
attempt("linear shape", lambda: lin(torch.randn(4, 12)))
attempt("linear 1d", lambda: print(lin(torch.randn(10)).shape))
attempt("linear int input", lambda: lin(torch.ones(2, 10, dtype=torch.long)))
ce = nn.CrossEntropyLoss()
logits = torch.randn(4, 3)
attempt("ce int32 target", lambda: ce(logits, torch.tensor([0, 1, 2, 1], dtype=torch.int32)))
attempt("ce float target shape", lambda: ce(logits, torch.tensor([0.0, 1.0, 2.0, 1.0])))
attempt("ce out of range", lambda: ce(logits, torch.tensor([0, 1, 3, 1])))
attempt("ce batch mismatch", lambda: ce(logits, torch.tensor([0, 1])))
attempt(
    "ce probs target",
    lambda: print(round(ce(logits, F.one_hot(torch.tensor([0, 1, 2, 1]), 3).float()).item(), 4)),
)
attempt(
    "nll 1d target wrong",
    lambda: F.nll_loss(logits.log_softmax(1), torch.tensor([[0], [1], [2], [1]])),
)
attempt(
    "bce target long",
    lambda: F.binary_cross_entropy_with_logits(torch.randn(3), torch.tensor([0, 1, 1])),
)
attempt(
    "bce out of range",
    lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0])),
)
attempt("mse size", lambda: print(F.mse_loss(torch.zeros(3, 1), torch.zeros(3)).item()))
w = torch.randn(3, requires_grad=True)
loss = (w * w).sum()
loss.backward()
attempt("backward twice", lambda: loss.backward())
attempt("inplace leaf", lambda: w.add_(1))
attempt("nonscalar backward", lambda: (w * 2).backward())
attempt("numpy requires grad", lambda: w.numpy())
attempt("view noncontiguous", lambda: torch.randn(3, 4).t().view(12))
attempt("item many", lambda: torch.ones(2).item())
attempt("grad of int", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("matmul shapes", lambda: torch.randn(2, 3) @ torch.randn(2, 3))
attempt("cat dims", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
attempt("stack sizes", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt("conv channels", lambda: nn.Conv2d(3, 8, 3)(torch.randn(1, 1, 8, 8)))
attempt("conv 2d input", lambda: nn.Conv2d(1, 8, 3)(torch.randn(8, 8)).shape)
attempt("embedding float idx", lambda: nn.Embedding(5, 2)(torch.tensor([1.0, 2.0])))
attempt("embedding out of range", lambda: nn.Embedding(5, 2)(torch.tensor([7])))
attempt("bn batch of one", lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
attempt("lstm input dims", lambda: nn.LSTM(4, 5)(torch.randn(3, 2, 6)))
attempt("optimizer empty", lambda: torch.optim.SGD([], lr=0.1))
attempt("optimizer tensor", lambda: torch.optim.Adam(torch.ones(2), lr=0.1))
attempt("device typo", lambda: torch.ones(1).to("gpu"))
attempt("add dtype inplace", lambda: torch.ones(2, dtype=torch.long).add_(0.5))
attempt("index out of bounds", lambda: torch.arange(3)[5])
attempt("reshape numel", lambda: torch.arange(6).reshape(4, 2))
x = torch.randn(2, requires_grad=True)
y = x.sigmoid()
y.mul_(2)
attempt("modified saved tensor", lambda: y.sum().backward())
