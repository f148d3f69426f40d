# Models: Contrastive Predictive Coding (van den Oord et al.) on sequences: a strided Conv1d
# encoder producing latents z_t, a GRU autoregressive context c_t, one linear predictor W_k
# per future step k, the InfoNCE loss with the other batch elements' z_{t+k} as negatives,
# per-step prediction accuracy, and a linear probe on the frozen context to show the
# learned representation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
K, ZD, CD = 3, 16, 24


def signals(n, g, L=128):
    """Sine mixtures whose frequency class (0..3) the probe must recover."""
    cls = torch.randint(0, 4, (n,), generator=g)
    t = torch.arange(L).float()
    freq = 0.05 + 0.05 * cls.float()
    phase = torch.rand(n, generator=g) * 6.28
    x = torch.sin(freq[:, None] * t + phase[:, None]) + 0.1 * torch.randn(n, L, generator=g)
    return x[:, None], cls


class CPC(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 16, 8, stride=4, padding=2), nn.ReLU(),
                                 nn.Conv1d(16, ZD, 4, stride=2, padding=1), nn.ReLU())
        self.ar = nn.GRU(ZD, CD, batch_first=True)
        self.W = nn.ModuleList([nn.Linear(CD, ZD, bias=False) for _ in range(K)])

    def forward(self, x):
        z = self.enc(x).transpose(1, 2)          # (B, T, ZD)
        c, _ = self.ar(z)
        return z, c

    def infonce(self, x, t0):
        z, c = self(x)
        B = z.shape[0]
        losses, accs = [], []
        for k in range(1, K + 1):
            pred = self.W[k - 1](c[:, t0])        # (B, ZD)
            target = z[:, t0 + k]                 # (B, ZD)
            logits = pred @ target.t()            # positives on the diagonal
            labels = torch.arange(B)
            losses.append(F.cross_entropy(logits, labels))
            accs.append((logits.argmax(1) == labels).float().mean())
        return torch.stack(losses).mean(), torch.stack(accs)


g = torch.Generator().manual_seed(3)
model = CPC()
x, _ = signals(4, g)
z, c = model(x)
print("latent / context shapes:", tuple(z.shape), tuple(c.shape))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(80):
    x, _ = signals(32, g)
    t0 = int(torch.randint(2, 16 - K - 1, (1,), generator=g))
    loss, accs = model.infonce(x, t0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(f"step {step + 1} InfoNCE {loss.item():.5f} acc per k {accs}")

model.requires_grad_(False)
probe = nn.Linear(CD, 4)
popt = torch.optim.Adam(probe.parameters(), lr=0.02)
xtr, ytr = signals(128, g)
xte, yte = signals(64, g)
with torch.no_grad():
    ftr, fte = model(xtr)[1][:, -1], model(xte)[1][:, -1]
for epoch in range(100):
    ploss = F.cross_entropy(probe(ftr), ytr)
    popt.zero_grad()
    ploss.backward()
    popt.step()
acc = (probe(fte).argmax(1) == yte).float().mean().item()
print(f"probe loss {ploss.item():.5f} test acc {acc:.4f}")
print("probe confusion:", torch.bincount(yte * 4 + probe(fte).argmax(1), minlength=16).view(4, 4))
