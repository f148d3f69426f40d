# Models: maximum-likelihood fits of less common distributions as statistics notebooks do with
# torch.distributions: a von Mises fit to wind directions (Bessel-function log-normaliser via
# i0e), a Dirichlet fit to compositional data (lgamma/digamma gradients), a Beta fit with
# rsample-based reparameterised gradients, Gamma and Dirichlet samplers, and circular
# statistics (mean resultant length).
import math

import torch
from torch.distributions import Beta, Dirichlet, Gamma, VonMises

torch.manual_seed(140)
true = VonMises(torch.tensor(1.0), torch.tensor(2.5))
angles = true.sample((300,))
print(angles[:5], angles.min().item() >= -math.pi, angles.max().item() <= math.pi)
C, S = torch.cos(angles).mean(), torch.sin(angles).mean()
R = torch.sqrt(C ** 2 + S ** 2)
print("circular mean", torch.atan2(S, C), "resultant length", R)
loc = torch.tensor(0.0, requires_grad=True)
log_k = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([loc, log_k], lr=0.1)
for step in range(50):
    nll = -VonMises(loc, log_k.exp()).log_prob(angles).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 10 == 9:
        print(f"vonmises step {step + 1} nll {nll.item():.6f} loc {loc.item():.5f} "
              f"kappa {log_k.exp().item():.5f}")
print(torch.special.i0e(torch.tensor([0.5, 2.5, 10.0])), torch.special.i1e(torch.tensor(2.5)))
print(VonMises(torch.tensor(0.0), torch.tensor(2.5)).variance, true.mean)
alpha_true = torch.tensor([2.0, 5.0, 1.5])
comp = Dirichlet(alpha_true).sample((400,))
print(comp[:3], comp.sum(1)[:3])
log_alpha = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([log_alpha], lr=0.1)
for step in range(60):
    nll = -Dirichlet(log_alpha.exp()).log_prob(comp).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 15 == 14:
        print(f"dirichlet step {step + 1} nll {nll.item():.6f} alpha {log_alpha.exp().tolist()}")
a = log_alpha.exp().detach()
print("digamma", torch.digamma(a), "lgamma", torch.lgamma(a), torch.polygamma(1, a))
ab = torch.tensor([0.0, 0.0], requires_grad=True)
target = Beta(torch.tensor(3.0), torch.tensor(1.5))
opt = torch.optim.Adam([ab], lr=0.05)
for step in range(60):
    q = Beta(ab[0].exp(), ab[1].exp())
    x = q.rsample((64,))
    kl = (q.log_prob(x) - target.log_prob(x)).mean()
    opt.zero_grad()
    kl.backward()
    opt.step()
print("beta params", ab.exp(), "grad", ab.grad)
g = Gamma(torch.tensor([0.5, 1.0, 4.0]), torch.tensor([1.0, 2.0, 0.5]))
s = g.sample((2000,))
print("gamma means", s.mean(0), g.mean, g.variance)
conc = torch.tensor([0.3, 0.3], requires_grad=True)
r = Gamma(conc, torch.ones(2)).rsample((5,))
r.sum().backward()
print(r, conc.grad)
print(Dirichlet(torch.tensor([1.0, 1.0, 1.0])).entropy(), Beta(2.0, 2.0).entropy())
