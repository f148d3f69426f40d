# Models: user-defined distributions as probabilistic-programming tutorials write them: a
# Distribution subclass with arg_constraints, support, rsample and log_prob (a truncated
# exponential), a TransformedDistribution (Kumaraswamy-like via PowerTransform and friends),
# register_kl for a custom pair, validate_args errors, and the LogisticNormal /
# RelaxedBernoulli / stacked and concatenated transforms from torch.distributions.
import torch
from torch.distributions import (
    Distribution,
    Exponential,
    LogisticNormal,
    Normal,
    RelaxedBernoulli,
    TransformedDistribution,
    Uniform,
    constraints,
    kl_divergence,
    register_kl,
    transforms,
)

torch.manual_seed(120)


class TruncatedExponential(Distribution):
    arg_constraints = {"rate": constraints.positive, "upper": constraints.positive}
    has_rsample = True

    def __init__(self, rate, upper, validate_args=None):
        self.rate, self.upper = torch.broadcast_tensors(torch.as_tensor(rate),
                                                        torch.as_tensor(upper))
        super().__init__(self.rate.shape, validate_args=validate_args)

    @constraints.dependent_property
    def support(self):
        return constraints.interval(0.0, self.upper)

    def _norm(self):
        return -torch.expm1(-self.rate * self.upper)

    def rsample(self, sample_shape=torch.Size()):  # noqa: B008
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape)
        return -torch.log1p(-u * self._norm()) / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return torch.log(self.rate) - self.rate * value - torch.log(self._norm())

    @property
    def mean(self):
        r, u = self.rate, self.upper
        return 1 / r - u * torch.exp(-r * u) / self._norm()


@register_kl(TruncatedExponential, Exponential)
def _kl_trunc_exp(p, q):
    return (torch.log(p.rate / q.rate) - torch.log(p._norm())
            + (q.rate - p.rate) * p.mean)


d = TruncatedExponential(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 0.5]))
s = d.rsample((4000,))
print(d, d.batch_shape, d.event_shape, d.support)
print("sample mean", s.mean(0), "analytic", d.mean, "max", s.max(0).values)
print(d.log_prob(torch.tensor([0.1, 0.2])))
kl = kl_divergence(d, Exponential(torch.tensor([1.5, 1.5])))
mc = (d.log_prob(s) - Exponential(torch.tensor([1.5, 1.5])).log_prob(s)).mean(0)
print("kl", kl, "mc", mc)
try:
    TruncatedExponential(torch.tensor([-1.0]), torch.tensor([1.0]), validate_args=True)
except ValueError as e:
    print("ValueError:", e)
try:
    TruncatedExponential(1.0, 1.0, validate_args=True).log_prob(torch.tensor(2.0))
except ValueError as e:
    print("ValueError:", e)
try:
    kl_divergence(Exponential(1.0), d)
except NotImplementedError as e:
    print("NotImplementedError:", e)
a, b = 2.0, 5.0
kuma = TransformedDistribution(
    Uniform(0.0, 1.0),
    [transforms.AffineTransform(1.0, -1.0), transforms.PowerTransform(1 / b),
     transforms.AffineTransform(1.0, -1.0), transforms.PowerTransform(1 / a)])
x = kuma.sample((2000,))
print("kumaraswamy mean", x.mean(), "support", kuma.support)
pts = torch.tensor([0.1, 0.3, 0.6])
analytic = (torch.log(torch.tensor(a * b)) + (a - 1) * pts.log()
            + (b - 1) * torch.log1p(-pts ** a))
print(kuma.log_prob(pts), analytic)
ln = LogisticNormal(torch.zeros(3), torch.ones(3))
y = ln.sample((3,))
print(y, y.sum(-1), ln.log_prob(y))
rb = RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.1, 0.9]))
z = rb.rsample((5,))
print(z, rb.log_prob(z.clamp(1e-4, 1 - 1e-4)))
st = transforms.StackTransform([transforms.ExpTransform(), transforms.SigmoidTransform()], dim=1)
ct = transforms.CatTransform([transforms.ExpTransform(), transforms.TanhTransform()], dim=0,
                             lengths=[2, 2])
v = torch.tensor([[0.5, -1.0], [1.0, 2.0]])
print(st(v), st.log_abs_det_jacobian(v, st(v)))
w = torch.tensor([0.1, -0.2, 0.3, 0.4])
print(ct(w), ct.inv(ct(w)), ct.log_abs_det_jacobian(w, ct(w)))
sm = transforms.SoftmaxTransform()
print(sm(torch.tensor([1.0, 2.0, 3.0])), transforms.ReshapeTransform((4,), (2, 2))(w))
chain = transforms.ComposeTransform([transforms.AffineTransform(0.0, 2.0),
                                     transforms.ExpTransform()])
print(chain, chain(torch.tensor(0.5)), chain.inv(torch.tensor(2.0)))
print(torch.distributions.biject_to(constraints.interval(-1.0, 3.0))(torch.tensor([0.0, 10.0])))
n = Normal(0.0, 1.0)
print(n.cdf(torch.tensor(1.0)), n.entropy(), n.perplexity())
