# Models: an automatic-differentiation variational inference (ADVI) notebook without Pyro:
# unconstrained parameters mapped through torch.distributions.biject_to / transform_to for
# positive, interval, simplex and correlation-Cholesky constraints (ExpTransform,
# SigmoidTransform+Affine, StickBreakingTransform, CorrCholeskyTransform), log-det-Jacobian
# corrections, a mean-field Normal guide fitted by the reparameterised ELBO, and LKJCholesky.
import torch
import torch.distributions as D
from torch.distributions import constraints
from torch.distributions.transforms import CorrCholeskyTransform, StickBreakingTransform

torch.manual_seed(0)
torch.set_printoptions(precision=4)

for c in [
    constraints.positive,
    constraints.interval(-1.0, 3.0),
    constraints.simplex,
    constraints.corr_cholesky,
    constraints.unit_interval,
    constraints.real,
]:
    t = D.biject_to(c)
    print(f"{c!s:40s} -> {t}")
print(D.transform_to(constraints.lower_cholesky), D.transform_to(constraints.greater_than(2.0)))
print(
    constraints.positive.check(torch.tensor([-1.0, 0.0, 2.0])),
    constraints.simplex.check(torch.tensor([0.2, 0.8])),
)
print(
    constraints.interval(0, 1).lower_bound,
    constraints.integer_interval(0, 5),
    constraints.positive_definite.event_dim,
)

sb = StickBreakingTransform()
u = torch.tensor([0.3, -0.5, 1.0])
p = sb(u)
print("stick-breaking", p, p.sum(), sb.inv(p), sb.log_abs_det_jacobian(u, p))
cc = CorrCholeskyTransform()
L = cc(torch.tensor([0.2, -0.4, 0.6]))
print("corr cholesky\n", L, "\ncorr diag", (L @ L.T).diagonal())
print("ladj", cc.log_abs_det_jacobian(torch.tensor([0.2, -0.4, 0.6]), L))

# data: counts from a Gamma-Poisson with unknown shape/rate and a mixing weight vector
data = D.Poisson(D.Gamma(3.0, 0.5).sample((60,))).sample()
print("data mean/var", f"{data.mean().item():.3f} {data.var().item():.3f}")


def log_joint(shape, rate, weights):
    prior = (
        D.Gamma(2.0, 0.5).log_prob(shape)
        + D.Gamma(2.0, 2.0).log_prob(rate)
        + D.Dirichlet(torch.ones(3)).log_prob(weights)
    )
    lik = D.NegativeBinomial(total_count=shape, probs=1 / (1 + rate)).log_prob(data).sum()
    return prior + lik


to_pos = D.biject_to(constraints.positive)
to_simplex = D.biject_to(constraints.simplex)
loc = torch.zeros(4, requires_grad=True)
log_scale = torch.full((4,), -1.0, requires_grad=True)
opt = torch.optim.Adam([loc, log_scale], lr=0.05)
for step in range(150):
    q = D.Normal(loc, log_scale.exp())
    z = q.rsample((8,))
    elbo = 0.0
    for zi in z:
        shape, rate = to_pos(zi[0]), to_pos(zi[1])
        w = to_simplex(zi[2:])
        ladj = (
            to_pos.log_abs_det_jacobian(zi[0], shape)
            + to_pos.log_abs_det_jacobian(zi[1], rate)
            + to_simplex.log_abs_det_jacobian(zi[2:], w)
        )
        elbo = elbo + log_joint(shape, rate, w) + ladj
    elbo = elbo / len(z) + q.entropy().sum()
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if step % 50 == 49:
        print(f"step {step + 1} elbo {elbo.item():.2f}")
with torch.no_grad():
    post_shape = to_pos(loc[0]).item()
    post_rate = to_pos(loc[1]).item()
print(
    f"posterior shape ~ {post_shape:.2f} rate ~ {post_rate:.2f} mean {post_shape / post_rate:.2f}"
)
print("scales", log_scale.exp())

lkj = D.LKJCholesky(3, concentration=2.0)
Ls = lkj.sample((2,))
print("LKJ sample diag", (Ls @ Ls.transpose(-1, -2)).diagonal(dim1=-2, dim2=-1))
print("LKJ log_prob", lkj.log_prob(Ls), lkj.support)
