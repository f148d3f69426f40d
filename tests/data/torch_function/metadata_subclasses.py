import torch


class MetaTensor(torch.Tensor):
    @staticmethod
    def __new__(cls, x, meta=None, *args, **kwargs):
        return super().__new__(cls, x, *args, **kwargs)

    def __init__(self, x, meta=None):
        self.meta = meta

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        result = super().__torch_function__(func, types, args, kwargs)
        meta = next((a.meta for a in args if isinstance(a, MetaTensor) and hasattr(a, "meta")),
                    None)
        if isinstance(result, MetaTensor) and not hasattr(result, "meta"):
            result.meta = meta
        return result


m = MetaTensor(torch.tensor([1.0, 2.0, 3.0]), meta={"unit": "m"})
print(m, m.meta)
n = m * 2 + 1
print(n, n.meta, type(n).__name__)
print((m.sum(), m.mean(), m.max()))
print(m.requires_grad, m.is_leaf, m.grad_fn)
q = MetaTensor(torch.randn(2, 2, generator=torch.Generator().manual_seed(3)), meta="q")
print(q @ q, (q @ q).meta)
print(torch.stack([m, m]).meta, torch.stack([m, m]).shape)


class NoTF(torch.Tensor):
    __torch_function__ = torch._C._disabled_torch_function_impl


z = torch.ones(3).as_subclass(NoTF)
print(type(z + 1).__name__, type(z.sum()).__name__, z)


class Param2(torch.nn.Parameter):
    pass


p2 = Param2(torch.ones(2))
print(type(p2).__name__, p2, type(p2 * 2).__name__)
lin = torch.nn.Linear(2, 2)
x = torch.ones(1, 2).as_subclass(MetaTensor)
out = lin(x)
print(type(out).__name__, out.shape)
