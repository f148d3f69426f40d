# Models: sparse attention normalisers as in the entmax package and public "sparsemax in
# PyTorch" notebooks: sparsemax by sorting and cumulative sums, its closed-form backward in a
# custom autograd.Function (checked with gradcheck), entmax-1.5 by bisection, and a sparse
# attention layer that zeroes most weights, trained on a toy retrieval task.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def sparsemax_forward(z, dim=-1):
    z_sorted, _ = torch.sort(z, dim=dim, descending=True)
    k = torch.arange(1, z.size(dim) + 1, dtype=z.dtype)
    view = [1] * z.dim()
    view[dim] = -1
    k = k.view(view)
    cumsum = z_sorted.cumsum(dim) - 1
    support = (k * z_sorted > cumsum)
    k_z = support.sum(dim=dim, keepdim=True)
    tau = cumsum.gather(dim, k_z - 1) / k_z.to(z.dtype)
    return torch.clamp(z - tau, min=0)


class Sparsemax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z, dim):
        out = sparsemax_forward(z, dim)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (out,) = ctx.saved_tensors
        supp = out > 0
        g = torch.where(supp, grad_out, torch.zeros_like(grad_out))
        v = g.sum(ctx.dim, keepdim=True) / supp.sum(ctx.dim, keepdim=True)
        return torch.where(supp, grad_out - v, torch.zeros_like(grad_out)), None


def entmax15(z, dim=-1, iters=30):
    z = z / 2
    z_max = z.max(dim, keepdim=True).values
    lo, hi = z_max - 1, z_max - (1.0 / z.size(dim)) ** 0.5
    for _ in range(iters):
        tau = (lo + hi) / 2
        p = torch.clamp(z - tau, min=0) ** 2
        too_big = p.sum(dim, keepdim=True) >= 1
        lo = torch.where(too_big, tau, lo)
        hi = torch.where(too_big, hi, tau)
    p = torch.clamp(z - lo, min=0) ** 2
    return p / p.sum(dim, keepdim=True)


z = torch.tensor([[1.0, 0.8, 0.1, -1.0], [0.0, 0.0, 0.0, 0.0], [3.0, 1.0, 0.9, 0.85]])
print("softmax  ", F.softmax(z, -1))
print("sparsemax", Sparsemax.apply(z, -1))
print("entmax1.5", entmax15(z))
print("rows sum", Sparsemax.apply(z, -1).sum(-1), entmax15(z).sum(-1))
print("along dim 0", sparsemax_forward(z, dim=0))

zd = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(lambda t: Sparsemax.apply(t, -1), (zd,)))
zz = z.clone().requires_grad_()
out = Sparsemax.apply(zz, -1)
(out * torch.arange(4.0)).sum().backward()
print("grad", zz.grad, out.grad_fn.__class__.__name__)


class SparseAttention(nn.Module):
    def __init__(self, d, norm):
        super().__init__()
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.norm = norm

    def forward(self, query, keys, values):
        scores = torch.einsum("bd,bnd->bn", self.q(query), self.k(keys)) / keys.shape[-1] ** 0.5
        w = self.norm(scores)
        return torch.einsum("bn,bnd->bd", w, values), w


B, Nk, D = 32, 6, 8
keys = torch.randn(B, Nk, D)
idx = torch.randint(0, Nk, (B,))
query = keys[torch.arange(B), idx] + 0.1 * torch.randn(B, D)
values = torch.randn(B, Nk, D)
target = values[torch.arange(B), idx]
for name, norm in [("softmax", lambda s: F.softmax(s, -1)),
                   ("sparsemax", lambda s: Sparsemax.apply(s, -1)),
                   ("entmax", entmax15)]:
    torch.manual_seed(1)
    att = SparseAttention(D, norm)
    opt = torch.optim.Adam(att.parameters(), lr=0.05)
    for step in range(30):
        out, w = att(query, keys, values)
        loss = F.mse_loss(out, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (w.argmax(-1) == idx).float().mean()
    print(f"{name:9s} loss {loss.item():.6f} acc {acc.item():.3f} "
          f"zeros {(w == 0).float().mean().item():.3f}")
