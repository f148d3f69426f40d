# Models: SAC-style squashed Gaussian policies and normalising-flow code built on
# torch.distributions.transforms: TanhTransform with cache_size=1, AffineTransform,
# SigmoidTransform, ExpTransform, PowerTransform, SoftplusTransform, ComposeTransform and
# .inv, log_abs_det_jacobian, TransformedDistribution.rsample/log_prob versus the manual tanh
# correction, transform reprs/domains/codomains, and Independent reinterpretation.
import math

import torch
import torch.distributions as D
import torch.distributions.transforms as T

torch.manual_seed(3)
mu = torch.tensor([[0.2, -0.5], [1.0, 0.0]], requires_grad=True)
log_std = torch.tensor([[-0.5, 0.0], [0.3, -1.0]], requires_grad=True)
base = D.Normal(mu, log_std.exp())
squashed = D.TransformedDistribution(base, [T.TanhTransform(cache_size=1)])
a = squashed.rsample()
lp = squashed.log_prob(a)
u = base.rsample() * 0 + torch.atanh(a.detach().clamp(-0.999999, 0.999999))
manual = base.log_prob(u) - 2 * (math.log(2) - u - torch.nn.functional.softplus(-2 * u))
print(a, lp)
print("manual correction matches:", torch.allclose(lp, manual, atol=1e-4))
lp.sum().backward()
print(mu.grad, log_std.grad)

scale_act = D.TransformedDistribution(
    D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1),
    [T.TanhTransform(),
     T.AffineTransform(loc=torch.tensor([1.0, 0.0]), scale=torch.tensor([2.0, 0.5]))])
s = scale_act.sample((3,))
print(s.shape, scale_act.log_prob(s).shape, scale_act.batch_shape, scale_act.event_shape)

transforms = [T.ExpTransform(), T.SigmoidTransform(), T.TanhTransform(),
              T.AffineTransform(1.0, 3.0), T.PowerTransform(torch.tensor(2.0)),
              T.SoftplusTransform(), T.AbsTransform()]
x = torch.tensor([0.1, 0.7, 1.3])
for t in transforms:
    y = t(x)
    ladj = t.log_abs_det_jacobian(x, y) if t.bijective else None
    print(repr(t), t.domain, t.codomain, t.bijective, t.sign if t.bijective else None)
    print("   y", y, "ladj", ladj)
    if t.bijective:
        print("   inv ok:", torch.allclose(t.inv(y), x, atol=1e-5), repr(t.inv))
comp = T.ComposeTransform([T.AffineTransform(0.0, 2.0), T.SigmoidTransform()])
y = comp(x)
print(comp, comp.inv(y), comp.log_abs_det_jacobian(x, y))
print(T.identity_transform, T.identity_transform(x) is x)
st = T.StickBreakingTransform()
z = torch.tensor([0.3, -0.2, 0.5])
p = st(z)
print(p, p.sum().item(), st.inv(p), st.log_abs_det_jacobian(z, p))
lower = T.LowerCholeskyTransform()
print(lower(torch.tensor([[1.0, 2.0], [3.0, -4.0]])))
cat = T.CatTransform([T.ExpTransform(), T.identity_transform], dim=0, lengths=[2, 1])
print(cat(x), cat.log_abs_det_jacobian(x, cat(x)))
stack = T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0)
print(stack(torch.tensor([[0.0, 1.0], [0.0, 1.0]])))
lognormal = D.TransformedDistribution(D.Normal(0.0, 1.0), T.ExpTransform())
print(lognormal.log_prob(torch.tensor(2.0)), D.LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)))
print(lognormal)
