# Models: double-backward patterns from GAN and meta-learning code: an R1 penalty on a
# discriminator (grad of outputs wrt real inputs, create_graph=True, then backward to the
# weights), a gradient-norm regulariser on a classifier's input gradients, Hessian-vector
# products with the Pearlmutter trick, grad of grad of elementwise functions (and the grad_fn
# names on the way), and torch.autograd.grad with allow_unused/materialize_grads.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D = nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 1))
opt = torch.optim.Adam(D.parameters(), lr=1e-2)
real = torch.randn(32, 2) + 1.0
fake = torch.randn(32, 2) - 1.0
gamma = 5.0
for step in range(20):
    real.requires_grad_(True)
    d_real = D(real)
    d_fake = D(fake)
    (g,) = torch.autograd.grad(d_real.sum(), real, create_graph=True)
    r1 = g.pow(2).sum(1).mean()
    loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean() + gamma / 2 * r1
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f} r1 {r1.item():.5f}")
print("grad_fn of g", type(g.grad_fn).__name__, "r1", type(r1.grad_fn).__name__)

clf = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
x = torch.randn(6, 4, requires_grad=True)
y = torch.randint(0, 3, (6,))
ce = F.cross_entropy(clf(x), y)
(gx,) = torch.autograd.grad(ce, x, create_graph=True)
reg = gx.norm(2, dim=1).mean()
total = ce + 0.1 * reg
total.backward()
print("ce", ce.item(), "reg", reg.item())
print("first layer grad norm", clf[0].weight.grad.norm().item())

w = torch.randn(3, requires_grad=True)


def f(w):
    return (w.sin() * w.exp()).sum() + (w[0] * w[1] * w[2])


v = torch.tensor([1.0, 0.0, -1.0])
(gw,) = torch.autograd.grad(f(w), w, create_graph=True)
(hv,) = torch.autograd.grad(gw, w, grad_outputs=v)
H = torch.autograd.functional.hessian(f, w.detach())
print("Hv", hv, torch.allclose(hv, H @ v, atol=1e-6))
print(type(gw.grad_fn).__name__)

t = torch.tensor(0.7, requires_grad=True)
fns = {
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "erf": torch.erf,
    "log1p": torch.log1p,
    "softplus": F.softplus,
    "gelu": F.gelu,
    "silu": F.silu,
    "elu": F.elu,
}
for name, fn in fns.items():
    (d1,) = torch.autograd.grad(fn(t), t, create_graph=True)
    (d2,) = torch.autograd.grad(d1, t, create_graph=True)
    (d3,) = torch.autograd.grad(d2, t)
    print(
        f"{name:8s} d1 {d1.item():.6f} d2 {d2.item():.6f} d3 {d3.item():.6f} "
        f"{type(d1.grad_fn).__name__}"
    )

u = torch.ones(2, requires_grad=True)
unused = torch.ones(2, requires_grad=True)
print(torch.autograd.grad((u * 2).sum(), [u, unused], allow_unused=True))
print(torch.autograd.grad((u * 2).sum(), [u, unused], allow_unused=True, materialize_grads=True))
try:
    torch.autograd.grad((u * 2).sum(), [u, unused])
except RuntimeError as e:
    print("RuntimeError:", e)
