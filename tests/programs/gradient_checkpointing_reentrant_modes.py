# Models: the torch.utils.checkpoint usage in training scripts: checkpointing blocks with
# use_reentrant=True vs False, checkpoint_sequential, preserve_rng_state with dropout, the
# gradients agreeing with the plain run, and the reentrant variant's requires_grad warning.
import warnings

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
blocks = nn.ModuleList(
    [nn.Sequential(nn.Linear(12, 12), nn.GELU(), nn.Dropout(0.1)) for _ in range(4)]
)
head = nn.Linear(12, 1)
x = torch.randn(6, 12)


def run(mode):
    torch.manual_seed(42)
    h = x
    for b in blocks:
        if mode == "none":
            h = b(h)
        else:
            h = checkpoint(b, h, use_reentrant=(mode == "reentrant"))
    loss = head(h).pow(2).mean()
    for p in blocks.parameters():
        p.grad = None
    loss.backward()
    return loss.item(), [p.grad for p in blocks.parameters()]


ref_loss, ref_g = run("none")
for mode in ["reentrant", "nonreentrant"]:
    loss, g = run(mode)
    # the reentrant variant gets no parameter grads when its input does not require grad
    print(
        mode,
        f"{loss:.6f}",
        sum(t is None for t in g),
        all(a is None or torch.allclose(a, b, atol=1e-6) for a, b in zip(g, ref_g)),
    )

seq = nn.Sequential(*[nn.Sequential(nn.Linear(12, 12), nn.Tanh()) for _ in range(6)])
xi = torch.randn(4, 12, requires_grad=True)
out = checkpoint_sequential(seq, 3, xi, use_reentrant=False)
out.sum().backward()
g1 = xi.grad.clone()
xi.grad = None
seq(xi).sum().backward()
print(out.shape, torch.allclose(g1, xi.grad, atol=1e-6))
print(out.grad_fn is not None)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    inp = torch.randn(3, 12)
    o = checkpoint(nn.Linear(12, 2), inp, use_reentrant=True)
    print(o.requires_grad)
    for m in w:
        print(m.category.__name__, str(m.message))


def fn(a, b):
    return (a * b).sin()


a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
o = checkpoint(fn, a, b, use_reentrant=False)
o.sum().backward()
print(a.grad)
print(b.grad)
