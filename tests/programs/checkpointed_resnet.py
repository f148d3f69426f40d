# Models: a memory-saving training script (a deep residual MLP whose blocks run under
# torch.utils.checkpoint, checkpoint_sequential for a plain stack, gradients compared with
# the unchekpointed run, dropout inside checkpointed blocks, a custom autograd Function).
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(4)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.net(x)


class Net(nn.Module):
    def __init__(self, d=16, depth=4, use_ckpt=True, reentrant=False):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d) for _ in range(depth)])
        self.head = nn.Linear(d, 3)
        self.use_ckpt, self.reentrant = use_ckpt, reentrant

    def forward(self, x):
        for blk in self.blocks:
            x = checkpoint(blk, x, use_reentrant=self.reentrant) if self.use_ckpt else blk(x)
        return self.head(x)


x = torch.randn(32, 16)
y = torch.randint(0, 3, (32,))
for reentrant in (False, True):
    torch.manual_seed(1)
    net = Net(reentrant=reentrant)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(8):
        loss = nn.functional.cross_entropy(net(x.requires_grad_(reentrant)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("reentrant" if reentrant else "non-reentrant", f"loss {loss.item():.6f}",
          f"w {net.head.weight.sum().item():.6f}")
torch.manual_seed(1)
plain = Net(use_ckpt=False)
torch.manual_seed(7)
plain(x).sum().backward()
g_plain = [p.grad.clone() for p in plain.parameters()]
torch.manual_seed(1)
ck = Net(use_ckpt=True)
torch.manual_seed(7)
ck(x).sum().backward()
print("same grads:", all(torch.allclose(a, p.grad) for a, p in zip(g_plain, ck.parameters())))
stack = nn.Sequential(*[nn.Sequential(nn.Linear(16, 16), nn.ReLU()) for _ in range(6)])
inp = torch.randn(4, 16, requires_grad=True)
out = checkpoint_sequential(stack, 3, inp, use_reentrant=False)
out.sum().backward()
print(out.sum().item(), inp.grad.abs().sum().item())


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, lo, hi):
        ctx.save_for_backward(t)
        ctx.lo, ctx.hi = lo, hi
        return t.clamp(lo, hi)

    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * ((t > ctx.lo) & (t < ctx.hi)), None, None


t = torch.linspace(-2, 2, 9, requires_grad=True)
checkpoint(lambda u: Clamp.apply(u * 2, -1.0, 1.0).sum(), t, use_reentrant=False).backward()
print(t.grad)
