# Models: an optimisation course notebook: jacobians, hessians, vjp/jvp, Newton's method,
# searchsorted/bucketize/histc utilities and swa averaging with schedulers.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp
from torch.optim.swa_utils import SWALR, AveragedModel

torch.manual_seed(7)


def f(x):
    return torch.stack([x[0] ** 2 * x[1], 5 * x[0] + torch.sin(x[1]), x.exp().sum()])


x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(hessian(lambda z: (z**3).sum() + z[0] * z[1], x))
print(vjp(f, x, torch.ones(3)), jvp(f, x, torch.ones(2)))
print(hvp(lambda z: (z.sin() * z).sum(), x, torch.tensor([1.0, 0.0])))
print(vhp(lambda z: (z.cos() * z).sum(), x, torch.tensor([0.0, 1.0])))
print(jacobian(lambda a, b: a * b, (x, x + 1)))
# Newton's method on Rosenbrock
z = torch.tensor([-1.2, 1.0], dtype=torch.float64)


def rosen(v):
    return (1 - v[0]) ** 2 + 100 * (v[1] - v[0] ** 2) ** 2


for it in range(6):
    g = torch.autograd.functional.jacobian(rosen, z)
    H = torch.autograd.functional.hessian(rosen, z)
    z = z - torch.linalg.solve(H, g)
    print(it, z, rosen(z).item())
b = torch.tensor([0.0, 1.0, 2.5, 4.0])
v = torch.tensor([[-1.0, 0.5, 2.5], [3.9, 4.0, 7.0]])
print(torch.bucketize(v, b), torch.bucketize(v, b, right=True), torch.searchsorted(b, v))
print(
    torch.histc(torch.randn(100), bins=5, min=-2, max=2), torch.bincount(torch.tensor([1, 1, 3, 0]))
)
print(torch.topk(torch.randn(3, 6), 2, dim=1), torch.kthvalue(torch.tensor([3.0, 1.0, 2.0]), 2))
model = torch.nn.Linear(3, 1)
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
data = torch.randn(16, 3)
tgt = data.sum(1, keepdim=True)
for ep in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(data), tgt)
    loss.backward()
    opt.step()
    swa.update_parameters(model)
    sched.step()
    print(ep, round(loss.item(), 6), sched.get_last_lr())
print(swa.module.weight, swa.n_averaged)
ema = AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9))
ema.update_parameters(model)
print(ema.module.bias)
opt2 = torch.optim.AdamW(model.parameters(), lr=0.01)
one = torch.optim.lr_scheduler.OneCycleLR(opt2, max_lr=0.1, total_steps=10)
cos = []
for i in range(10):
    opt2.step()
    one.step()
    cos.append(round(one.get_last_lr()[0], 6))
print(cos)
opt3 = torch.optim.SGD(model.parameters(), lr=0.1)
wr = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt3, T_0=3, T_mult=2, eta_min=0.001)
print([round((opt3.step(), wr.step(), wr.get_last_lr()[0])[2], 6) for _ in range(10)])
