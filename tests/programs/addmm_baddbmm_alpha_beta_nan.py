# Models: a BLAS-style API reference: addmm, addmv, addr, addbmm and baddbmm with alpha and
# beta, beta=0 ignoring NaN in the input (as BLAS does), bmm/matmul batch broadcasting, the out=
# shapes, and the gradients of addmm with respect to each operand.
import torch

torch.manual_seed(2)
M = torch.randn(2, 4)
a, b = torch.randn(2, 3), torch.randn(3, 4)
print("addmm", torch.addmm(M, a, b, beta=0.5, alpha=2.0))
print("check", torch.allclose(torch.addmm(M, a, b, beta=0.5, alpha=2.0), 0.5 * M + 2.0 * a @ b))
nanM = torch.full((2, 4), float("nan"))
print("beta=0 ignores nan", torch.addmm(nanM, a, b, beta=0).isnan().any().item())
print("beta=1e-30 keeps nan", torch.addmm(nanM, a, b, beta=1e-30).isnan().all().item())
print("addmv", torch.addmv(torch.ones(2), a, torch.ones(3), alpha=-1))
print("addr", torch.addr(torch.zeros(2, 3), torch.ones(2), torch.arange(3.0), beta=0, alpha=3))
bat1, bat2 = torch.randn(5, 2, 3), torch.randn(5, 3, 4)
print("addbmm", torch.addbmm(M, bat1, bat2, beta=0.0))
print("baddbmm shape", torch.baddbmm(torch.zeros(5, 2, 4), bat1, bat2, alpha=0.5).shape)
print("baddbmm broadcast input", torch.baddbmm(torch.ones(1, 4), bat1, bat2)[0])
print("bmm", torch.bmm(bat1, bat2).shape, "matmul bcast", torch.matmul(bat1, b).shape)
out = torch.empty(2, 4)
torch.addmm(M, a, b, out=out)
print("out", torch.allclose(out, M + a @ b))
Mr, ar, br = (t.clone().requires_grad_() for t in (M, a, b))
y = torch.addmm(Mr, ar, br, beta=0.5, alpha=2.0)
y.sum().backward()
print("grads", Mr.grad[0], ar.grad[0], br.grad[:, 0], y.grad_fn.name())
try:
    torch.addmm(M, a, torch.randn(4, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bmm(bat1, torch.randn(4, 3, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
