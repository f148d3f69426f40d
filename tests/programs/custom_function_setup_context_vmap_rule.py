# Models: the "Extending torch.func with autograd.Function" tutorial: a Function written with
# the separate setup_context staticmethod, generate_vmap_rule=True, and the same Function under
# torch.func.grad, vmap and jacrev, plus a NumPy-backed sort with an explicit vmap rule.
import numpy as np
import torch
from torch.func import grad, jacrev, vmap


class MyCube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[1])
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_out, grad_dx):
        x, dx = ctx.saved_tensors
        result = None
        if grad_out is not None:
            result = grad_out * dx
        if grad_dx is not None:
            extra = grad_dx * 6 * x
            result = extra if result is None else result + extra
        return result


def my_cube(x):
    return MyCube.apply(x)[0]


x = torch.tensor([1.0, -2.0, 0.5])
print("forward", MyCube.apply(x))
print("grad", grad(lambda t: my_cube(t).sum())(x))
print("second", grad(lambda t: grad(lambda s: my_cube(s).sum())(t).sum())(x))
print("vmap", vmap(my_cube)(torch.arange(6.0).reshape(3, 2)))
print("jacrev\n", jacrev(my_cube)(x))
xr = x.clone().requires_grad_()
y, dy = MyCube.apply(xr)
y.sum().backward()
print("eager grad", xr.grad, y.grad_fn.name())


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        ind = np.argsort(x.detach().numpy(), axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        return (torch.tensor(np.take_along_axis(x.detach().numpy(), ind, axis=dim)),
                torch.tensor(ind), torch.tensor(ind_inv))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, g, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return g.gather(ctx.dim, ind_inv), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


t = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
s, ind, inv = NumpySort.apply(t, 1)
print(s, ind, inv, sep="\n")
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print("grad\n", t.grad)
print("vmapped", vmap(NumpySort.apply, in_dims=(0, None))(t.detach(), 0)[0])
