# Models: the error messages people paste into forum questions, reproduced and caught the way
# defensive training scripts do -- matmul dtype and shape mismatches, Long targets vs Float
# logits in losses, float indices to Embedding, view on a non-contiguous tensor, cat/stack of
# mismatched shapes, broadcasting failures, wrong input channels to Conv2d and Linear,
# requires_grad on integer tensors, item() on many elements, and the fixes that follow.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: ok {tuple(out.shape) if hasattr(out, 'shape') else out}")
    except Exception as e:
        first = str(e).splitlines()[0] if str(e) else ""
        print(f"{label}: {type(e).__name__}: {first}")


torch.manual_seed(0)
a = torch.randn(2, 3)
b = torch.randn(4, 5)
attempt("mm shapes", lambda: a @ b)
attempt("mm dtypes", lambda: a @ torch.ones(3, 2, dtype=torch.float64))
attempt("mm long", lambda: torch.ones(2, 3, dtype=torch.long) @ torch.ones(3, 2))
attempt("bmm", lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 5)))
attempt("matmul 1d", lambda: torch.matmul(torch.randn(3), torch.randn(4)))
attempt("broadcast", lambda: torch.randn(2, 3) + torch.randn(3, 2))
attempt("view", lambda: a.t().view(6))
attempt("reshape", lambda: a.t().reshape(6))
attempt("view bad", lambda: a.view(4, 2))
attempt("cat", lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
attempt("cat ok", lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)], dim=1))
attempt("stack", lambda: torch.stack([torch.randn(2), torch.randn(3)]))
attempt("cat 0-d", lambda: torch.cat([torch.tensor(1.0), torch.tensor(2.0)]))

logits = torch.randn(4, 3)
attempt("ce float target", lambda: F.cross_entropy(logits, torch.tensor([0.0, 1.0, 2.0, 1.0])))
attempt("ce int32 target", lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1],
                                                                         dtype=torch.int32)))
attempt("ce bad class", lambda: F.cross_entropy(logits, torch.tensor([0, 1, 3, 1])))
attempt("ce batch", lambda: F.cross_entropy(logits, torch.tensor([0, 1])))
attempt("nll 3d", lambda: F.nll_loss(torch.randn(2, 3, 4), torch.zeros(2, 4, dtype=torch.long)))
attempt("bce long target", lambda: F.binary_cross_entropy_with_logits(
    torch.randn(3), torch.tensor([1, 0, 1])))
attempt("bce shape", lambda: F.binary_cross_entropy(torch.rand(3), torch.rand(3, 1)))
attempt("mse shapes", lambda: F.mse_loss(torch.randn(3, 1), torch.randn(3)))

emb = nn.Embedding(10, 4)
attempt("embedding float", lambda: emb(torch.tensor([1.0, 2.0])))
attempt("embedding range", lambda: emb(torch.tensor([3, 10])))
conv = nn.Conv2d(3, 8, 3)
attempt("conv channels", lambda: conv(torch.randn(1, 1, 8, 8)))
attempt("conv 3d input", lambda: conv(torch.randn(3, 8, 8)))
attempt("conv too small", lambda: conv(torch.randn(1, 3, 2, 2)))
attempt("conv double", lambda: conv(torch.randn(1, 3, 8, 8, dtype=torch.float64)))
lin = nn.Linear(4, 2)
attempt("linear in", lambda: lin(torch.randn(3, 5)))
attempt("linear long", lambda: lin(torch.ones(3, 4, dtype=torch.long)))
bn = nn.BatchNorm1d(4)
attempt("batchnorm one", lambda: bn(torch.randn(1, 4)))
attempt("lstm input", lambda: nn.LSTM(4, 8)(torch.randn(5, 3)))
attempt("lstm size", lambda: nn.LSTM(4, 8)(torch.randn(5, 2, 3)))

attempt("requires_grad int", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("requires_grad_ int", lambda: torch.tensor([1, 2]).requires_grad_())
attempt("item", lambda: torch.randn(3).item())
attempt("bool ambiguous", lambda: bool(torch.tensor([True, False])))
attempt("backward non-scalar", lambda: (torch.randn(3, requires_grad=True) * 2).backward())
attempt("backward no grad", lambda: torch.randn(3).sum().backward())
attempt("index oob", lambda: torch.arange(3)[5])
attempt("index float", lambda: torch.arange(3)[torch.tensor([0.0])])
attempt("gather dims", lambda: torch.randn(3, 4).gather(1, torch.tensor([0, 1])))
attempt("gather dtype", lambda: torch.randn(3, 4).gather(1, torch.tensor([[0.0]])))
attempt("squeeze dim", lambda: torch.randn(3, 4).squeeze(5))
attempt("permute", lambda: torch.randn(2, 3).permute(0, 0))
attempt("expand", lambda: torch.randn(2, 3).expand(4, 3))
attempt("arange step", lambda: torch.arange(0, 10, 0))
attempt("randint range", lambda: torch.randint(5, 3, (2,)))
attempt("zeros negative", lambda: torch.zeros(-1))
attempt("tensor ragged", lambda: torch.tensor([[1, 2], [3]]))
attempt("float on bool", lambda: torch.tensor([True]) - torch.tensor([False]))
attempt("sub bool", lambda: torch.tensor([True]) - 1)
attempt("div int inplace", lambda: torch.tensor([4, 2]).div_(3))
attempt("add_ broadcast", lambda: torch.zeros(3).add_(torch.ones(2, 3)))
attempt("softmax dim", lambda: F.softmax(torch.randn(2, 3), dim=2))
attempt("sum dim", lambda: torch.randn(2, 3).sum(dim=(0, 0)))
attempt("linalg inv", lambda: torch.linalg.inv(torch.zeros(2, 2)))
attempt("cholesky", lambda: torch.linalg.cholesky(-torch.eye(2)))
attempt("inv shape", lambda: torch.linalg.inv(torch.ones(2, 3)))
attempt("one_hot neg", lambda: F.one_hot(torch.tensor([-1, 0])))
attempt("one_hot float", lambda: F.one_hot(torch.tensor([1.0])))
attempt("multinomial", lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3))
attempt("multinomial neg", lambda: torch.multinomial(torch.tensor([-0.5, 0.5]), 1))
attempt("normal std", lambda: torch.normal(0.0, -1.0, size=(2,)))
attempt("pad", lambda: F.pad(torch.randn(2, 3), (1, 1, 1)))
attempt("interpolate", lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2,
                                             mode="bilinear"))
attempt("max_pool", lambda: F.max_pool2d(torch.randn(1, 1, 2, 2), 3))
