"""A method call hands over the method (Tensor.add), a function call the function."""
import torch


class L(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func is torch.Tensor.add, func is torch.add, func is torch.Tensor.sum,
              func is torch.sum)
        return super().__torch_function__(func, types, args, kwargs)


y = torch.ones(2).as_subclass(L)
y.add(1)
torch.add(y, 1)
y.sum()
torch.sum(y)
