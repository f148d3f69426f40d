# Models: the errors beginners paste into the PyTorch forums, each reproduced and caught with the
# type and message printed: mat1/mat2 shape mismatch in Linear, expected scalar type mismatches,
# view on non-contiguous tensors, index out of range in Embedding and gather, cross_entropy with
# float targets of the wrong shape, backward twice, in-place ops on leaves, numpy() on a tensor
# that requires grad, item() on many elements, and stack/cat size mismatches.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def attempt(label, fn):
    try:
        out = fn()
        print(f"[ok] {label}: {out}")
    except Exception as e:   # noqa: BLE001
        msg = str(e).strip().splitlines()
        print(f"[{type(e).__name__}] {label}: {msg[0] if msg else ''}")


lin = nn.Linear(10, 3)
attempt("linear wrong features", lambda: lin(torch.randn(4, 12)))
attempt("linear 1-d input", lambda: lin(torch.randn(10)).shape)
attempt("double input to float layer", lambda: lin(torch.randn(2, 10, dtype=torch.float64)))
attempt("int input to linear", lambda: lin(torch.arange(10)))
attempt("matmul 3x4 @ 3x4", lambda: torch.randn(3, 4) @ torch.randn(3, 4))
attempt("mm 1-d", lambda: torch.mm(torch.randn(3), torch.randn(3)))
attempt("bmm batch mismatch", lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 5)))
t = torch.randn(4, 6).t()
attempt("view after transpose", lambda: t.view(24))
attempt("reshape after transpose", lambda: t.reshape(24).shape)
attempt("view bad size", lambda: torch.randn(5, 3).view(4, -1))
attempt("view two -1", lambda: torch.randn(6).view(-1, -1))
emb = nn.Embedding(5, 3)
attempt("embedding index 5", lambda: emb(torch.tensor([1, 5])))
attempt("embedding float index", lambda: emb(torch.tensor([1.0, 2.0])))
attempt("gather index out of bounds", lambda: torch.randn(2, 3).gather(1, torch.tensor([[0], [3]])))
attempt("index_select wrong dtype", lambda: torch.randn(3).index_select(0, torch.tensor([0.0])))
logits = torch.randn(4, 3)
attempt("cross_entropy float target wrong shape", lambda: F.cross_entropy(logits, torch.rand(4)))
attempt("cross_entropy target class 3", lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 3])))
attempt("cross_entropy int32 target", lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1],
                                                                                   dtype=torch.int32)))
attempt("nll_loss batch mismatch", lambda: F.nll_loss(logits, torch.tensor([0, 1])))
attempt("bce target shape", lambda: F.binary_cross_entropy(torch.rand(4, 1), torch.rand(4)))
attempt("bce out of range input",
        lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
attempt("mse long target", lambda: F.mse_loss(torch.randn(3), torch.tensor([1, 2, 3])))

w = torch.randn(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
attempt("backward twice", lambda: loss.backward())
attempt("in-place on leaf", lambda: w.add_(1))
attempt("numpy on requires_grad", lambda: w.numpy())
attempt("item on many elements", lambda: torch.randn(3).item())
attempt("bool of ambiguous tensor", lambda: bool(torch.tensor([1, 0])))
attempt("grad of non-scalar", lambda: (w * 2).backward())
attempt("grad on int tensor", lambda: torch.tensor([1, 2]).requires_grad_())
attempt("stack different sizes", lambda: torch.stack([torch.randn(3), torch.randn(4)]))
attempt("cat different dims", lambda: torch.cat([torch.randn(2, 3), torch.randn(2)]))
attempt("cat dim out of range", lambda: torch.cat([torch.randn(2, 3)], dim=2))
attempt("conv2d 3-channel weight on 1-channel input",
        lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 1, 8, 8)))
attempt("conv2d kernel bigger than input", lambda: nn.Conv2d(1, 1, 5)(torch.randn(1, 1, 3, 3)))
attempt("maxpool output too small", lambda: nn.MaxPool2d(4)(torch.randn(1, 1, 3, 3)))
attempt("batchnorm one value per channel", lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
attempt("layernorm shape", lambda: nn.LayerNorm(5)(torch.randn(2, 4)))
attempt("expand non-singleton", lambda: torch.randn(2, 3).expand(4, 3))
attempt("broadcast add", lambda: torch.randn(2, 3) + torch.randn(3, 2))
attempt("index 3 of size 3", lambda: torch.randn(3)[3])
attempt("too many indices", lambda: torch.randn(3)[0, 0])
attempt("mask shape mismatch", lambda: torch.randn(3, 2)[torch.tensor([True, False])])
attempt("randint low >= high", lambda: torch.randint(5, 5, (2,)))
attempt("multinomial negative", lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 1))
attempt("arange bad step", lambda: torch.arange(0, 5, -1))
attempt("zeros negative size", lambda: torch.zeros(-1))
attempt("tensor from ragged list", lambda: torch.tensor([[1, 2], [3]]))
attempt("softmax no dim on 2-d", lambda: torch.randn(2, 2).softmax())
attempt("transpose dim out of range", lambda: torch.randn(2, 3).transpose(0, 2))
attempt("permute wrong length", lambda: torch.randn(2, 3).permute(1, 0, 2))
attempt("squeeze dim out of range", lambda: torch.randn(2, 1).squeeze(3))
attempt("linalg.inv singular", lambda: torch.linalg.inv(torch.ones(2, 2)))
attempt("cholesky not PD", lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
attempt("optimizer empty list", lambda: torch.optim.SGD([], lr=0.1))
attempt("optimizer negative lr", lambda: torch.optim.Adam(lin.parameters(), lr=-1))
attempt("optimizer bad betas", lambda: torch.optim.Adam(lin.parameters(), betas=(1.0, 0.9)))
