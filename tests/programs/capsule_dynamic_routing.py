# Models: a tiny capsule network (Sabour et al. 2017, "Dynamic Routing Between Capsules", as in
# the popular CapsNet-PyTorch repos): primary capsules from a conv layer, the squash
# non-linearity, routing-by-agreement over a few iterations with einsum/softmax, the margin
# loss, masking by the true class and a reconstruction decoder, trained on synthetic images.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def squash(s, dim=-1, eps=1e-8):
    sq = (s**2).sum(dim, keepdim=True)
    return sq / (1 + sq) * s / torch.sqrt(sq + eps)


class CapsNet(nn.Module):
    def __init__(self, n_classes=3, prim_caps=4, prim_dim=4, out_dim=6, iters=3):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3)  # 10x10 -> 8x8
        self.primary = nn.Conv2d(8, prim_caps * prim_dim, 3, stride=2)  # -> 3x3
        self.prim_caps, self.prim_dim, self.iters = prim_caps, prim_dim, iters
        n_in = prim_caps * 3 * 3
        self.W = nn.Parameter(0.1 * torch.randn(n_in, n_classes, out_dim, prim_dim))
        self.decoder = nn.Sequential(
            nn.Linear(n_classes * out_dim, 32), nn.ReLU(), nn.Linear(32, 100), nn.Sigmoid()
        )

    def forward(self, x, y=None):
        b = x.shape[0]
        h = F.relu(self.conv(x))
        u = self.primary(h).view(b, self.prim_caps, self.prim_dim, -1)
        u = squash(u.permute(0, 1, 3, 2).reshape(b, -1, self.prim_dim))  # (b, n_in, d)
        u_hat = torch.einsum("ijkl,bil->bijk", self.W, u)  # (b, n_in, n_cls, out_dim)
        logits = torch.zeros(u_hat.shape[:3])
        u_hat_detached = u_hat.detach()
        for r in range(self.iters):
            c = logits.softmax(dim=2)
            src = u_hat if r == self.iters - 1 else u_hat_detached
            v = squash((c.unsqueeze(-1) * src).sum(1))  # (b, n_cls, out_dim)
            if r < self.iters - 1:
                logits = logits + (u_hat_detached * v.unsqueeze(1)).sum(-1)
        lengths = v.norm(dim=-1)
        if y is None:
            y = lengths.argmax(1)
        mask = F.one_hot(y, v.shape[1]).unsqueeze(-1).to(v.dtype)
        recon = self.decoder((v * mask).flatten(1))
        return lengths, recon, c


def margin_loss(lengths, y, m_pos=0.9, m_neg=0.1, lam=0.5):
    t = F.one_hot(y, lengths.shape[1]).float()
    loss = t * F.relu(m_pos - lengths) ** 2 + lam * (1 - t) * F.relu(lengths - m_neg) ** 2
    return loss.sum(1).mean()


def make_data(n):
    x = torch.zeros(n, 1, 10, 10)
    y = torch.arange(n) % 3
    for i in range(n):
        o = torch.randint(0, 3, (2,)).tolist()
        if y[i] == 0:
            x[i, 0, 2 + o[0], 1:9] = 1.0  # horizontal bar
        elif y[i] == 1:
            x[i, 0, 1:9, 2 + o[1]] = 1.0  # vertical bar
        else:
            x[i, 0].fill_diagonal_(1.0)  # diagonal
    return (x + 0.1 * torch.rand_like(x)).clamp(0, 1), y


x, y = make_data(48)
v = squash(torch.tensor([[3.0, 4.0], [0.03, 0.04]]))
print("squash lengths", v.norm(dim=-1))
model = CapsNet()
print("params", sum(p.numel() for p in model.parameters()))
lengths, recon, c = model(x[:4], y[:4])
print(
    "lengths shape", tuple(lengths.shape), "recon", tuple(recon.shape), "coupling", tuple(c.shape)
)
print("coupling sums to one:", torch.allclose(c.sum(2), torch.ones(c.shape[:2])))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(1, 16):
    perm = torch.randperm(48)
    for i in range(0, 48, 12):
        idx = perm[i : i + 12]
        opt.zero_grad()
        lengths, recon, _ = model(x[idx], y[idx])
        m = margin_loss(lengths, y[idx])
        r = F.mse_loss(recon, x[idx].flatten(1), reduction="sum") / len(idx)
        loss = m + 0.0005 * r
        loss.backward()
        opt.step()
    if epoch % 5 == 0:
        with torch.no_grad():
            lengths, _, _ = model(x)
        acc = (lengths.argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} margin {m.item():.4f} recon {r.item():.3f} acc {acc:.3f}")
with torch.no_grad():
    lengths, recon, c = model(x[:3])
print("capsule lengths (first 3):")
print(lengths.round(decimals=3))
print(f"W grad norm {model.W.grad.norm().item():.4f}")
