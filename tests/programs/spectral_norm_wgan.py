# Models: an SN-GAN / weight-normalised-network tutorial: torch.nn.utils.parametrizations
# spectral_norm (power iteration buffers u/v, n_power_iterations, eval-mode behaviour) and
# weight_norm (original0/original1 = g/v), the legacy nn.utils.weight_norm/remove_weight_norm,
# clip_grad_value_ and clip_grad_norm_, on a 1-D GAN with a Lipschitz-constrained critic.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)

lin = parametrizations.spectral_norm(nn.Linear(6, 4))
print(lin)
print(sorted(n for n, _ in lin.named_parameters()), sorted(n for n, _ in lin.named_buffers()))
W = lin.weight
print("sigma after one call", f"{torch.linalg.matrix_norm(W, 2).item():.4f}")
for _ in range(10):
    lin(torch.randn(1, 6))
print("sigma after 10 train calls", f"{torch.linalg.matrix_norm(lin.weight, 2).item():.4f}")
lin.eval()
w1 = lin.weight
w2 = lin.weight
print("eval: weight stable", torch.equal(w1, w2))
orig = lin.parametrizations.weight.original
print("original sigma", f"{torch.linalg.matrix_norm(orig, 2).item():.4f}")

conv = parametrizations.spectral_norm(nn.Conv2d(2, 3, 3), n_power_iterations=3)
print(
    "conv u/v",
    tuple(conv.parametrizations.weight[0]._u.shape),
    tuple(conv.parametrizations.weight[0]._v.shape),
)

wn = parametrizations.weight_norm(nn.Linear(3, 2), dim=0)
print(wn)
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
print("g", g.flatten(), "v shape", tuple(v.shape))
print("recompose", torch.allclose(wn.weight, g * v / v.norm(dim=1, keepdim=True)))
out = wn(torch.ones(1, 3)).sum()
out.backward()
print("g grad", g.grad.flatten(), "v grad", v.grad)
parametrize.remove_parametrizations(wn, "weight")
print("after remove", sorted(n for n, _ in wn.named_parameters()))

legacy = nn.utils.weight_norm(nn.Linear(3, 2), name="weight", dim=None)
print(sorted(n for n, _ in legacy.named_parameters()), legacy.weight_g.shape)
nn.utils.remove_weight_norm(legacy)
print(sorted(n for n, _ in legacy.named_parameters()))

# 1-D GAN: generator maps noise to N(2, 0.5); critic is spectrally normalised
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
D = nn.Sequential(
    parametrizations.spectral_norm(nn.Linear(1, 16)),
    nn.LeakyReLU(0.2),
    parametrizations.spectral_norm(nn.Linear(16, 16)),
    nn.LeakyReLU(0.2),
    parametrizations.spectral_norm(nn.Linear(16, 1)),
)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
for step in range(60):
    real = 2 + 0.5 * torch.randn(32, 1)
    fake = G(torch.randn(32, 2))
    d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    clipped = nn.utils.clip_grad_norm_(G.parameters(), max_norm=1.0)
    nn.utils.clip_grad_value_(G.parameters(), clip_value=0.05)
    opt_g.step()
    if step % 15 == 14:
        msg = f"step {step + 1} d {d_loss.item():.3f} g {g_loss.item():.3f}"
        print(msg, f"gnorm {clipped.item():.3f}")
        print(
            "   max |grad| after value clip", max(p.grad.abs().max().item() for p in G.parameters())
        )
with torch.no_grad():
    samples = G(torch.randn(500, 2))
print(f"generated mean {samples.mean().item():.2f} std {samples.std().item():.2f}")
sigmas = [torch.linalg.matrix_norm(m.weight, 2).item() for m in D if isinstance(m, nn.Linear)]
print("critic sigmas", [round(s, 2) for s in sigmas])
