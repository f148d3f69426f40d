# Models: higher-order autograd as in WGAN-GP and meta-learning code: torch.autograd.grad with
# create_graph=True for a gradient penalty on interpolated samples, second derivatives of a
# scalar function, a Hessian-vector product, and grad of grads checked against closed forms.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn is not None)
(h,) = torch.autograd.grad(g.sum(), x)
print(h, 6 * x.detach())

w = torch.randn(4, requires_grad=True)
f = (w.sin() * w).sum()
(gw,) = torch.autograd.grad(f, w, create_graph=True)
v = torch.ones(4)
(hvp,) = torch.autograd.grad(gw, w, grad_outputs=v)
closed = 2 * w.cos() - w * w.sin()
print(hvp, closed.detach(), torch.allclose(hvp, closed))

critic = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
gen = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.5, 0.9))
real_data = torch.randn(256, 2) * 0.3 + torch.tensor([2.0, -1.0])


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1).expand_as(real)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interpolates)
    grads = torch.autograd.grad(outputs=out, inputs=interpolates,
                                grad_outputs=torch.ones_like(out),
                                create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for it in range(12):
    for _ in range(3):
        real = real_data[torch.randint(0, 256, (32,))]
        fake = gen(torch.randn(32, 2)).detach()
        gp = gradient_penalty(critic, real, fake)
        loss_c = critic(fake).mean() - critic(real).mean() + 10 * gp
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
    fake = gen(torch.randn(32, 2))
    loss_g = -critic(fake).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if it % 4 == 3:
        print(f"iter {it + 1} critic {loss_c.item():.5f} gp {gp.item():.5f} "
              f"gen {loss_g.item():.5f}")

with torch.no_grad():
    print(gen(torch.randn(500, 2)).mean(0))
z = torch.tensor(0.5, requires_grad=True)
g1 = torch.autograd.grad(torch.tanh(z), z, create_graph=True)[0]
g2 = torch.autograd.grad(g1, z, create_graph=True)[0]
g3 = torch.autograd.grad(g2, z)[0]
print(g1.item(), g2.item(), g3.item())
print(torch.autograd.functional.jacobian(lambda t: t ** 2 + t.sum(), torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0])))
