# Models: the "batch shape vs event shape" explainer: Independent reinterpreting batch dims,
# expand to larger batches, log_prob summing over event dims, sample shapes, Normal vs
# Independent(Normal) log_prob, and validate_args errors for mismatched values.
import torch
from torch.distributions import Bernoulli, Independent, Normal

torch.manual_seed(31)
loc, scale = torch.zeros(3, 4), torch.ones(3, 4) * 0.5
n = Normal(loc, scale)
print("normal", n.batch_shape, n.event_shape)
ind = Independent(n, 1)
print("ind1", ind.batch_shape, ind.event_shape)
ind2 = Independent(n, 2)
print("ind2", ind2.batch_shape, ind2.event_shape)
x = n.sample((5,))
print("sample", x.shape, "log_prob shapes", n.log_prob(x).shape, ind.log_prob(x).shape,
      ind2.log_prob(x).shape)
print("sums agree", torch.allclose(ind.log_prob(x), n.log_prob(x).sum(-1)))
print("entropy", ind.entropy(), ind2.entropy())
e = n.expand(torch.Size([2, 3, 4]))
print("expand", e.batch_shape, e.sample().shape)
ie = ind.expand(torch.Size([2, 3]))
print("ind expand", ie.batch_shape, ie.event_shape, ie.log_prob(torch.zeros(2, 3, 4)).shape)
b = Independent(Bernoulli(probs=torch.tensor([[0.2, 0.7], [0.5, 0.5]])), 1)
v = b.sample((3,))
print("bernoulli", v, b.log_prob(v), sep="\n")
print("mean", b.mean, "variance", b.variance)
print(ind)
loc_param = torch.zeros(2, requires_grad=True)
print("rsample grad", Independent(Normal(loc_param, 1.0), 1).rsample().requires_grad)
try:
    Independent(n, 3)
except ValueError as ex:
    print("ValueError:", ex)
try:
    Normal(torch.zeros(2), torch.ones(2), validate_args=True).log_prob(torch.zeros(3))
except (ValueError, RuntimeError) as ex:
    print(type(ex).__name__ + ":", ex)
