"""nn.Parameter of a Tensor subclass instance: it stays of its class, flagged _is_param (isinstance
of Parameter), prints as Parameter(Sub(...)), registers in a Module and trains."""
import torch
import torch.nn as nn


class Tagged(torch.Tensor):
    pass


t = torch.ones(2).as_subclass(Tagged)
p = nn.Parameter(t)
print(type(p).__name__, isinstance(p, nn.Parameter), isinstance(p, Tagged), p.requires_grad)
print(p)
print(getattr(p, "_is_param", None))
m = nn.Module()
m.w = p
print([type(x).__name__ for x in m.parameters()], list(dict(m.named_parameters())))
y = (p * 2).sum()
y.backward()
print(type(p.grad).__name__, p.grad)
q = nn.Parameter(t, requires_grad=False)
print(q.requires_grad, type(q).__name__)
