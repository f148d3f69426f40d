# Models: scientific-computing style PyTorch in double precision: torch.set_default_dtype
# (float64), a small MLP fitted to a smooth function with LBFGS (strong Wolfe line search),
# torch.autograd.gradcheck / gradgradcheck on custom functions, and torch.func.hessian of
# the loss at the optimum.
import math

import torch
import torch.nn as nn
from torch.autograd import gradcheck, gradgradcheck

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
x = torch.linspace(-2, 2, 64).unsqueeze(1)
y = torch.sin(math.pi * x) * torch.exp(-x ** 2)
model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
print(model[0].weight.dtype, torch.get_default_dtype(), torch.tensor([1.0]).dtype)
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=50, history_size=20,
                        line_search_fn="strong_wolfe", tolerance_grad=1e-10,
                        tolerance_change=1e-14)


def closure():
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    return loss


for outer in range(4):
    loss = opt.step(closure)
    print(f"outer {outer} loss {loss.item():.10e}")
state = opt.state[opt._params[0]]
print("func evals", state["func_evals"], "n_iter", state["n_iter"])


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp ** 3

    @staticmethod
    def backward(ctx, grad):
        (inp,) = ctx.saved_tensors
        return 3 * inp ** 2 * grad


inp = torch.randn(5, requires_grad=True)
print("gradcheck", gradcheck(Cube.apply, (inp,)),
      "gradgradcheck", gradgradcheck(Cube.apply, (inp,)))
lin = nn.Linear(3, 2)
t_in = torch.randn(4, 3, requires_grad=True)
print("gradcheck linear", gradcheck(lambda t: torch.tanh(lin(t)).sum(), (t_in,)))
params = {k: v.detach() for k, v in model.named_parameters()}


def loss_of(w_last):
    p = dict(params)
    p["4.weight"] = w_last
    return ((torch.func.functional_call(model, p, (x,)) - y) ** 2).mean()


H = torch.func.hessian(loss_of)(params["4.weight"])
print(H.shape)
eig = torch.linalg.eigvalsh(H.reshape(16, 16))
print(f"{eig.min().item():.3e} {eig.max().item():.5e}")
print(torch.finfo(torch.float64).eps, torch.tensor(1.0) + torch.finfo().eps > 1)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype)
