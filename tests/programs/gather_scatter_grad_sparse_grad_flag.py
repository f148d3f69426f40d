# Models: a gather/scatter autograd lesson: gather with sparse_grad=False/True, the gradient's
# layout in each case, scatter and scatter_add gradients for src and self, take_along_dim's
# gradient with repeated indices, and index out-of-range errors.
import torch

torch.manual_seed(2)
x = torch.randn(3, 4, requires_grad=True)
idx = torch.tensor([[0, 0], [3, 1], [2, 2]])
g = torch.gather(x, 1, idx)
g.sum().backward()
print("dense grad\n", x.grad, g.grad_fn.name())
x2 = x.detach().clone().requires_grad_()
gs = torch.gather(x2, 1, idx, sparse_grad=True)
gs.sum().backward()
print("sparse grad layout", x2.grad.layout)
print(x2.grad.to_dense())
base = torch.zeros(3, 4, requires_grad=True)
src = torch.arange(6.0).reshape(3, 2).requires_grad_()
out = base.scatter(1, idx, src)
(out * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("scatter self grad\n", base.grad, "\nsrc grad\n", src.grad)
base.grad = None
src.grad = None
out2 = base.scatter_add(1, idx, src)
(out2 * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("scatter_add src grad\n", src.grad, out2.grad_fn.name())
y = torch.arange(5.0, requires_grad=True)
torch.take_along_dim(y, torch.tensor([0, 0, 4, 4, 4])).sum().backward()
print("take_along_dim grad", y.grad)
for bad in [lambda: torch.gather(x, 1, torch.tensor([[4]])),
            lambda: torch.zeros(2).scatter_(0, torch.tensor([5]), 1.0),
            lambda: torch.gather(x, 1, torch.tensor([0, 1])),
            lambda: torch.gather(x, 1, idx.int())]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
