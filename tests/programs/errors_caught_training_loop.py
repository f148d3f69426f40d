# Models: the mistakes a beginner's training script hits, each caught and printed as forum
# answers show them: wrong target dtype and shape for losses, a Linear fed the wrong width,
# Conv2d given unbatched/wrong-channel input, LSTM inputs of the wrong rank, out-of-range
# embedding indices, backward on a non-scalar or twice, .numpy() on a tensor that requires grad,
# view on a non-contiguous tensor, mismatched cat, and an optimizer handed a non-leaf tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: ok", tuple(out.shape) if isinstance(out, torch.Tensor) else out)
    except Exception as e:  # noqa: BLE001
        print(f"{label}: {type(e).__name__}: {e}")


torch.manual_seed(0)
logits = torch.randn(4, 3)
attempt("ce float target", lambda: F.cross_entropy(logits, torch.tensor([0.0, 1.0, 2.0, 1.0])))
attempt("ce target out of range", lambda: F.cross_entropy(logits, torch.tensor([0, 1, 3, 1])))
attempt("ce 2d target", lambda: F.cross_entropy(logits, torch.tensor([[0], [1], [2], [1]])))
attempt("nll int input", lambda: F.nll_loss(torch.ones(2, 3, dtype=torch.long),
                                            torch.tensor([0, 1])))
attempt("bce shape", lambda: F.binary_cross_entropy_with_logits(torch.randn(4, 1), torch.ones(4)))
attempt("bce long target", lambda: F.binary_cross_entropy_with_logits(torch.randn(4),
                                                                      torch.ones(4).long()))
attempt("bce out of range", lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]),
                                                           torch.tensor([0.0, 1.0])))
attempt("mse broadcast", lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)))
lin = nn.Linear(10, 5)
attempt("linear width", lambda: lin(torch.randn(3, 12)))
attempt("linear int input", lambda: lin(torch.ones(3, 10, dtype=torch.long)))
attempt("linear double input", lambda: lin(torch.ones(3, 10, dtype=torch.float64)))
conv = nn.Conv2d(3, 8, 3)
attempt("conv channels", lambda: conv(torch.randn(2, 1, 8, 8)))
attempt("conv unbatched", lambda: conv(torch.randn(3, 8, 8)))
attempt("conv 2d input", lambda: conv(torch.randn(8, 8)))
attempt("conv too small", lambda: conv(torch.randn(1, 3, 2, 2)))
attempt("pool too small", lambda: F.max_pool2d(torch.randn(1, 1, 1, 1), 2))
lstm = nn.LSTM(4, 6, batch_first=True)
attempt("lstm 4d", lambda: lstm(torch.randn(2, 3, 4, 1)))
attempt("lstm feature size", lambda: lstm(torch.randn(2, 3, 5)))
attempt("lstm bad h0", lambda: lstm(torch.randn(2, 3, 4), (torch.zeros(1, 3, 6),
                                                          torch.zeros(1, 3, 6))))
emb = nn.Embedding(10, 4)
attempt("embedding index", lambda: emb(torch.tensor([1, 10])))
attempt("embedding float", lambda: emb(torch.tensor([1.0, 2.0])))
attempt("bn one sample", lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)))
attempt("bn wrong features", lambda: nn.BatchNorm1d(4)(torch.randn(3, 5)))
attempt("layernorm shape", lambda: nn.LayerNorm(5)(torch.randn(2, 4)))
w = torch.randn(3, requires_grad=True)
attempt("backward non-scalar", lambda: (w * 2).backward())
attempt("numpy requires grad", lambda: w.numpy())
y = (w ** 2).sum()
y.backward()
attempt("backward twice", lambda: y.backward())
attempt("grad of non-leaf", lambda: (w * 2).grad)
t = torch.randn(4, 6).T
attempt("view non-contiguous", lambda: t.view(24))
attempt("reshape ok", lambda: t.reshape(24))
attempt("cat mismatch", lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
attempt("stack mismatch", lambda: torch.stack([torch.randn(2), torch.randn(3)]))
attempt("matmul", lambda: torch.randn(2, 3) @ torch.randn(2, 3))
attempt("bmm rank", lambda: torch.bmm(torch.randn(2, 3), torch.randn(3, 2)))
attempt("index out of bounds", lambda: torch.arange(5)[7])
attempt("gather index dtype", lambda: torch.randn(3, 4).gather(1, torch.tensor([[0.0]])))
attempt("optimizer non-leaf", lambda: torch.optim.SGD([w * 2], lr=0.1))
attempt("optimizer empty", lambda: torch.optim.Adam([], lr=0.1))
attempt("optimizer lr", lambda: torch.optim.Adam([w], lr=-1))
attempt("item many", lambda: torch.randn(3).item())
attempt("bool ambiguous", lambda: bool(torch.tensor([1, 0])))
attempt("inplace leaf", lambda: w.add_(1))
attempt("expand", lambda: torch.randn(3, 2).expand(3, 4))
attempt("permute dims", lambda: torch.randn(2, 3).permute(0))
attempt("softmax no dim", lambda: F.softmax(torch.randn(2, 2), dim=2))
attempt("one_hot negative", lambda: F.one_hot(torch.tensor([-1, 2])))
attempt("one_hot float", lambda: F.one_hot(torch.tensor([1.0])))
attempt("dataloader collate", lambda: next(iter(torch.utils.data.DataLoader(
    [torch.zeros(2), torch.zeros(3)], batch_size=2))))
attempt("to dtype string", lambda: torch.ones(2).to("float32"))
attempt("device", lambda: torch.ones(2).to("cuda:0") if False else torch.device("gpu"))
