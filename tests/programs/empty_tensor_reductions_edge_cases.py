# Models: a "what happens with an empty batch" checklist that data pipelines hit when a filter
# removes every row: reductions over empty tensors (sum/prod/mean/std/logsumexp/all/any),
# max/argmax/amax errors and their dim forms, cat/stack with empty pieces, indexing with empty
# index tensors and masks, matmul of (n, 0) x (0, m), losses on empty batches, and the printed
# repr of empty tensors of many shapes and dtypes.
import torch
import torch.nn.functional as F


def attempt(label, fn):
    try:
        print(f"{label}: {fn()}")
    except Exception as e:   # noqa: BLE001
        print(f"{label}: {type(e).__name__}: {str(e).splitlines()[0]}")


e = torch.empty(0)
E = torch.zeros(0, 3)
attempt("sum", lambda: e.sum())
attempt("prod", lambda: e.prod())
attempt("mean", lambda: e.mean())
attempt("std", lambda: e.std())
attempt("var unbiased=False", lambda: e.var(unbiased=False))
attempt("logsumexp", lambda: torch.logsumexp(e, 0))
attempt("all / any", lambda: (e.bool().all(), e.bool().any()))
attempt("norm", lambda: e.norm())
attempt("max", lambda: e.max())
attempt("argmax", lambda: e.argmax())
attempt("amax", lambda: e.amax())
attempt("min dim 0", lambda: E.min(dim=0))
attempt("max dim 1", lambda: E.max(dim=1))
attempt("amax dim 1", lambda: E.amax(dim=1))
attempt("sum dim 0", lambda: E.sum(dim=0))
attempt("mean dim 0", lambda: E.mean(dim=0))
attempt("sum dim 1", lambda: E.sum(dim=1))
attempt("cumsum", lambda: E.cumsum(0))
attempt("median", lambda: e.median())
attempt("sort", lambda: e.sort())
attempt("topk 0", lambda: e.topk(0))
attempt("unique", lambda: torch.unique(e, return_counts=True))
attempt("bincount", lambda: torch.bincount(torch.tensor([], dtype=torch.long)))
attempt("histc", lambda: torch.histc(e, bins=3))
attempt("count_nonzero", lambda: E.count_nonzero(dim=0))
attempt("cat empty 1-d with 2-d", lambda: torch.cat([e, torch.ones(2, 3)]).shape)
attempt("cat (0,3) with (2,3)", lambda: torch.cat([E, torch.ones(2, 3)]))
attempt("stack of empties", lambda: torch.stack([E, E]).shape)
attempt("stack of nothing", lambda: torch.stack([]))
attempt("empty index", lambda: torch.arange(5)[torch.tensor([], dtype=torch.long)])
attempt("all-false mask", lambda: torch.arange(5.0)[torch.zeros(5, dtype=torch.bool)])
attempt("nonzero of zeros", lambda: torch.zeros(2, 2).nonzero())
attempt("where of zeros", lambda: torch.where(torch.zeros(3) > 0))
attempt("matmul (2,0)x(0,3)", lambda: torch.ones(2, 0) @ torch.ones(0, 3))
attempt("bmm empty batch", lambda: torch.bmm(torch.ones(0, 2, 3), torch.ones(0, 3, 4)).shape)
attempt("mse_loss empty", lambda: F.mse_loss(e, e))
attempt("l1_loss sum empty", lambda: F.l1_loss(e, e, reduction="sum"))
attempt("cross_entropy empty", lambda: F.cross_entropy(E, torch.tensor([], dtype=torch.long)))
attempt("bce empty", lambda: F.binary_cross_entropy(e, e))
attempt("softmax empty rows", lambda: F.softmax(E, dim=1))
attempt("linear on empty batch", lambda: torch.nn.Linear(3, 2)(E))
attempt("batchnorm on empty batch", lambda: torch.nn.BatchNorm1d(3)(E))
attempt("split of empty", lambda: e.split(2))
attempt("chunk of empty", lambda: E.chunk(2))
attempt("reshape (0,-1)", lambda: E.reshape(0, -1))
attempt("reshape (-1, 0)", lambda: E.reshape(-1, 0))
attempt("view -1", lambda: E.view(-1).shape)
attempt("repeat 0", lambda: torch.ones(2).repeat(0))
attempt("expand to 0", lambda: torch.ones(1, 3).expand(0, 3))
attempt("arange empty", lambda: torch.arange(3, 3))
attempt("linspace 0 steps", lambda: torch.linspace(0, 1, 0))
attempt("randperm 0", lambda: torch.randperm(0))
attempt("multinomial 0 samples", lambda: torch.multinomial(torch.ones(3), 0))
for shape in [(0,), (0, 0), (2, 0), (0, 2, 3), (1, 0, 1)]:
    for dt in (torch.float32, torch.int64, torch.bool, torch.float16, torch.complex64):
        print(shape, dt, repr(torch.zeros(shape, dtype=dt)))
