# Models: a gather/scatter regression suite from a graph-learning library: index_add_,
# scatter_add_, scatter_reduce (sum/prod/mean/amax/amin, include_self both ways), index_put_
# with accumulate, index_reduce, put_ with accumulate, embedding_bag sums and segment means
# built from them, with duplicate indices in float32, each result summed at full precision
# together with the gradients that flow back.
import torch

torch.manual_seed(0)
E, N, F = 300, 40, 13
src = torch.randn(E, F)
idx = torch.randint(0, N, (E,))
out = {}
out["index_add"] = torch.zeros(N, F).index_add_(0, idx, src, alpha=0.7)
out["scatter_add"] = torch.zeros(N, F).scatter_add_(0, idx[:, None].expand(E, F), src)
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in (True, False):
        base = torch.ones(N, F) * 0.5
        s = src if red != "prod" else 1 + 0.1 * src
        out[f"sr_{red}_{inc}"] = base.scatter_reduce(0, idx[:, None].expand(E, F), s, reduce=red,
                                                      include_self=inc)
out["index_put_acc"] = torch.zeros(N, F).index_put_((idx,), src, accumulate=True)
out["index_reduce_mean"] = torch.ones(N, F).index_reduce_(0, idx, src, "mean", include_self=False)
out["index_reduce_prod"] = torch.ones(N, F).index_reduce_(0, idx, 1 + 0.1 * src, "prod")
flat = torch.zeros(N * F)
out["put_acc"] = flat.put_(torch.randint(0, N * F, (E,)), src[:, 0], accumulate=True)
counts = torch.bincount(idx, minlength=N).clamp(min=1).unsqueeze(1)
out["segment_mean"] = torch.zeros(N, F).index_add_(0, idx, src) / counts
bag = torch.nn.functional.embedding_bag(torch.randint(0, N, (60,)), src[:N],
                                        torch.arange(0, 60, 6), mode="sum")
out["embedding_bag"] = bag
for k, v in out.items():
    print(f"{k:22s} {v.sum().item()!r} {v.abs().max().item()!r}")
x = src.clone().requires_grad_()
y = torch.zeros(N, F).scatter_reduce(0, idx[:, None].expand(E, F), x, reduce="amax",
                                     include_self=False)
z = torch.zeros(N, F).index_add(0, idx, x * x)
w = torch.ones(N, F).scatter_reduce(0, idx[:, None].expand(E, F), 1 + 0.1 * x, reduce="prod")
(g,) = torch.autograd.grad(y.sum() + z.sin().sum() + w.sum(), x)
print("grad", repr(g.sum().item()), repr(g.abs().max().item()))
gathered = torch.gather(z, 0, idx[:, None].expand(E, F))
print("gather", repr(gathered.sum().item()), torch.take(z, torch.tensor([0, 5, 517])).tolist())
