# Models: the original WGAN (Arjovsky et al.) training recipe on 1-D data: critic weight
# clipping with p.data.clamp_(-c, c) after every critic step, RMSprop(lr=5e-5-style) on both
# nets, n_critic=5, the Wasserstein estimate E[D(real)] - E[D(fake)], the "one/mone" backward
# trick with a gradient argument, and sample statistics of the generator.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1))
opt_g = torch.optim.RMSprop(G.parameters(), lr=5e-3)
opt_d = torch.optim.RMSprop(D.parameters(), lr=5e-3)
clamp = 0.05
one = torch.tensor(1.0)
mone = one * -1


def real(n):
    return 3.0 + 0.5 * torch.randn(n, 1)


for gen_it in range(30):
    for p in D.parameters():
        p.requires_grad = True
    for _ in range(5):
        for p in D.parameters():
            p.data.clamp_(-clamp, clamp)
        D.zero_grad()
        err_real = D(real(64)).mean()
        err_real.backward(one)
        fake = G(torch.randn(64, 2)).detach()
        err_fake = D(fake).mean()
        err_fake.backward(mone)
        opt_d.step()
    w_est = (err_real - err_fake).item()
    for p in D.parameters():
        p.requires_grad = False
    G.zero_grad()
    err_g = D(G(torch.randn(64, 2))).mean()
    err_g.backward(one)
    opt_g.step()
    if gen_it % 6 == 0:
        print(
            f"it {gen_it} W {w_est:.6f} errG {err_g.item():.6f} max|w| "
            f"{max(p.abs().max().item() for p in D.parameters()):.4f}"
        )

with torch.no_grad():
    s = G(torch.randn(500, 2))
print("generated mean/std", s.mean().item(), s.std().item())
print("critic grads frozen:", [p.requires_grad for p in D.parameters()])
