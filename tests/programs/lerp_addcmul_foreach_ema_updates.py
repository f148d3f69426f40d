# Models: the parameter-averaging utilities of a training library: EMA with lerp_ (scalar and
# tensor weights), addcmul_/addcdiv_ with value, torch._foreach ops over parameter lists
# (mul_, add_, lerp_, norm), and checking them against plain loops.
import torch

torch.manual_seed(4)
params = [torch.randn(3), torch.randn(2, 2)]
ema = [p.clone() for p in params]
for step in range(3):
    params = [p + 0.1 * torch.randn_like(p) for p in params]
    for e, p in zip(ema, params):
        e.lerp_(p, 0.1)
print("ema", ema[0])
w = torch.tensor([0.0, 0.5, 1.0])
print("tensor weight lerp", torch.lerp(torch.zeros(3), torch.ones(3) * 4, w))
print("lerp scalar", torch.lerp(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0]), 0.25))
buf = torch.zeros(3)
buf.addcmul_(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0, 6.0]), value=0.5)
print("addcmul_", buf)
buf.addcdiv_(torch.tensor([1.0, 1.0, 1.0]), torch.tensor([2.0, 4.0, 8.0]), value=-2)
print("addcdiv_", buf)
print("addcmul fn", torch.addcmul(torch.ones(2), torch.ones(2), torch.tensor([2.0, 3.0]), value=2))
a = [torch.ones(2), torch.arange(3.0)]
b = [torch.full((2,), 2.0), torch.ones(3)]
torch._foreach_mul_(a, 3.0)
print("foreach mul", a)
torch._foreach_add_(a, b, alpha=-1)
print("foreach add alpha", a)
torch._foreach_lerp_(a, b, 0.5)
print("foreach lerp", a)
print("foreach norm", torch._foreach_norm(a), torch._foreach_norm(a, 1))
print("foreach sqrt", torch._foreach_sqrt(b))
c = torch._foreach_addcmul([torch.zeros(2)], [torch.ones(2)], [torch.full((2,), 3.0)], 0.5)
print("foreach addcmul", c)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.lerp(x, torch.tensor([5.0, 5.0]), torch.tensor([0.25, 0.75]))
y.sum().backward()
print("lerp grad", x.grad, y.grad_fn.name())
try:
    torch._foreach_add_([torch.ones(2)], [torch.ones(2), torch.ones(2)])
except RuntimeError as e:
    print("RuntimeError:", e)
