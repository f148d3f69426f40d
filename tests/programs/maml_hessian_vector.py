# Models: higher-order autograd as in public MAML implementations (learn2learn-free, "MAML in
# raw PyTorch") and Hessian-vector product recipes -- an inner SGD step with
# autograd.grad(create_graph=True) through a functional forward, second-order meta-gradients,
# first-order MAML for comparison, Hessian-vector products by double backward, Pearlmutter
# checks against torch.autograd.functional.hessian/hvp/vhp, and a Newton step.
import torch
import torch.nn.functional as F
from torch.autograd.functional import hessian, hvp, jacobian, vhp

torch.manual_seed(3)


def sample_task():
    amp = torch.rand(1) * 4.0 + 0.1
    phase = torch.rand(1) * 3.14159
    x = torch.rand(20, 1) * 10 - 5
    return x, amp * torch.sin(x + phase)


def init_params():
    return [torch.randn(16, 1) * 0.5, torch.zeros(16), torch.randn(1, 16) * 0.25, torch.zeros(1)]


def forward(params, x):
    w1, b1, w2, b2 = params
    return F.linear(torch.tanh(F.linear(x, w1, b1)), w2, b2)


params = [p.requires_grad_() for p in init_params()]
meta_opt = torch.optim.Adam(params, lr=1e-3)
inner_lr = 0.01
for it in range(8):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for _ in range(3):
        x, y = sample_task()
        xs, ys, xq, yq = x[:10], y[:10], x[10:], y[10:]
        loss = F.mse_loss(forward(params, xs), ys)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(params, grads)]
        meta_loss = meta_loss + F.mse_loss(forward(fast, xq), yq)
    meta_loss = meta_loss / 3
    meta_loss.backward()
    gnorm = torch.sqrt(sum((p.grad ** 2).sum() for p in params))
    meta_opt.step()
    if it % 2 == 0:
        print(f"iter {it} meta loss {meta_loss.item():.5f} grad norm {gnorm.item():.5f}")

# second-order vs first-order meta-gradient on one task
x, y = sample_task()
loss = F.mse_loss(forward(params, x[:10]), y[:10])
grads = torch.autograd.grad(loss, params, create_graph=True)
fast = [p - 0.1 * g for p, g in zip(params, grads)]
q_loss = F.mse_loss(forward(fast, x[10:]), y[10:])
second = torch.autograd.grad(q_loss, params, retain_graph=True)
fast_fo = [(p - 0.1 * g).detach().requires_grad_() for p, g in zip(params, grads)]
first = torch.autograd.grad(F.mse_loss(forward(fast_fo, x[10:]), y[10:]), fast_fo)
print("second-order", second[3], "first-order", first[3])
print("differ", (second[0] - first[0]).abs().max() > 0)

# Hessian-vector products
A = torch.tensor([[3.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.5, 1.0]])


def f(w):
    return 0.5 * w @ A @ w + (w ** 4).sum() / 4


w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
v = torch.tensor([1.0, 0.0, -1.0])
g, = torch.autograd.grad(f(w), w, create_graph=True)
hv, = torch.autograd.grad(g @ v, w)
H = hessian(f, w.detach())
print("H\n", H)
print("hv", hv, H @ v)
print("functional hvp", hvp(f, w.detach(), v)[1], "vhp", vhp(f, w.detach(), v)[1])
print("jacobian of grad", torch.allclose(jacobian(lambda t: torch.autograd.grad(
    f(t), t, create_graph=True)[0], w.detach(), create_graph=False), H))
wd = w.detach().clone()
for step in range(4):
    wd.requires_grad_(True)
    gr, = torch.autograd.grad(f(wd), wd)
    Hd = hessian(f, wd.detach())
    wd = (wd - torch.linalg.solve(Hd, gr)).detach()
    print(f"newton {step} f {f(wd).item():.6f} |g| {gr.norm().item():.6f}")
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
d1, = torch.autograd.grad(y, x, create_graph=True)
d2, = torch.autograd.grad(d1, x, create_graph=True)
d3, = torch.autograd.grad(d2, x)
print("derivatives of x^3 at 2:", d1.item(), d2.item(), d3.item())
