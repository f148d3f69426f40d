# Models: a probabilistic-programming primer with torch.distributions (the kind of notebook that
# precedes Pyro): printing distributions, batch/event shapes and Independent, support
# constraints and validate_args errors, closed-form KL divergences between families checked
# against Monte-Carlo estimates, entropy, cdf/icdf round trips, rsample vs sample (has_rsample),
# expand, and fitting a Beta and a Gamma by maximum likelihood with constrained parameters.
import torch
import torch.distributions as D
from torch.distributions import constraints, kl_divergence, transform_to

torch.manual_seed(0)

dists = [
    D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])),
    D.Beta(torch.tensor(2.0), torch.tensor(5.0)),
    D.Gamma(torch.tensor([2.0]), torch.tensor([3.0])),
    D.Exponential(torch.tensor(1.5)),
    D.Laplace(0.0, 2.0),
    D.Bernoulli(probs=torch.tensor([0.2, 0.7])),
    D.Poisson(torch.tensor(3.0)),
    D.Categorical(logits=torch.zeros(2, 3)),
    D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])),
    D.Uniform(-1.0, torch.tensor(3.0)),
]
for d in dists:
    print(
        d,
        "| batch",
        tuple(d.batch_shape),
        "event",
        tuple(d.event_shape),
        "| rsample:",
        d.has_rsample,
        "| support:",
        d.support,
    )

mvn = D.MultivariateNormal(torch.zeros(3), scale_tril=torch.eye(3) * 0.5)
ind = D.Independent(D.Normal(torch.zeros(4, 3), torch.ones(4, 3)), 1)
print(mvn, mvn.batch_shape, mvn.event_shape, mvn.covariance_matrix.diagonal())
print(ind, ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(4, 3)))
print("expand:", D.Normal(0.0, 1.0).expand([2, 2]).batch_shape)

for make, value in [
    (lambda: D.Normal(0.0, -1.0, validate_args=True), None),
    (lambda: D.Beta(torch.tensor(2.0), torch.tensor(3.0), validate_args=True), 1.5),
    (lambda: D.Exponential(torch.tensor(1.0), validate_args=True), -1.0),
    (lambda: D.Categorical(probs=torch.tensor([0.5, 0.5]), validate_args=True), 3),
    (lambda: D.Bernoulli(probs=torch.tensor(1.2), validate_args=True), None),
]:
    try:
        d = make()
        d.log_prob(torch.tensor(value))
        print("no error")
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])

pairs = [
    (D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)),
    (D.Beta(torch.tensor(2.0), torch.tensor(3.0)), D.Beta(torch.tensor(1.0), torch.tensor(1.0))),
    (D.Gamma(torch.tensor(2.0), torch.tensor(1.0)), D.Gamma(torch.tensor(3.0), torch.tensor(2.0))),
    (D.Exponential(torch.tensor(1.0)), D.Exponential(torch.tensor(3.0))),
    (
        D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5])),
        D.Categorical(probs=torch.tensor([0.4, 0.4, 0.2])),
    ),
    (D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))),
    (D.Laplace(0.0, 1.0), D.Laplace(0.5, 2.0)),
    (D.Poisson(torch.tensor(2.0)), D.Poisson(torch.tensor(4.0))),
]
for p, q in pairs:
    closed = kl_divergence(p, q)
    x = p.sample((20000,))
    mc = (p.log_prob(x) - q.log_prob(x)).mean()
    print(
        f"KL({type(p).__name__}) closed {closed.item():.5f} MC {mc.item():.5f} "
        f"close {abs(closed.item() - mc.item()) < 0.05}"
    )
try:
    kl_divergence(D.Beta(torch.tensor(1.0), torch.tensor(1.0)), D.Poisson(torch.tensor(1.0)))
except NotImplementedError as e:
    print("NotImplementedError:", e)

for d in [
    D.Normal(0.0, 1.0),
    D.Exponential(torch.tensor(2.0)),
    D.Laplace(1.0, 0.5),
    D.Uniform(0.0, 4.0),
    D.Cauchy(0.0, 1.0),
]:
    q = torch.tensor([0.05, 0.5, 0.95])
    x = d.icdf(q)
    print(f"{type(d).__name__:12s} icdf {x} cdf(icdf) {d.cdf(x)} entropy {d.entropy():.5f}")

# maximum likelihood with constrained parameters
data = D.Beta(torch.tensor(2.5), torch.tensor(6.0)).sample((400,))
raw = torch.zeros(2, requires_grad=True)
to_pos = transform_to(constraints.positive)
print("transform:", to_pos, to_pos(torch.tensor([0.0, 1.0])))
opt = torch.optim.Adam([raw], lr=0.05)
for step in range(200):
    a, b = to_pos(raw)
    nll = -D.Beta(a, b).log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
print(f"Beta MLE: a {to_pos(raw)[0].item():.4f} b {to_pos(raw)[1].item():.4f} nll {nll.item():.5f}")
waits = D.Gamma(torch.tensor(3.0), torch.tensor(0.5)).sample((400,))
log_k = torch.zeros(1, requires_grad=True)
log_r = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([log_k, log_r], lr=0.05)
for step in range(200):
    nll = -D.Gamma(log_k.exp(), log_r.exp()).log_prob(waits).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
print(
    f"Gamma MLE: shape {log_k.exp().item():.4f} rate {log_r.exp().item():.4f} "
    f"mean {waits.mean().item():.4f}"
)
z = D.Gamma(torch.tensor([2.0]), torch.tensor([1.0])).rsample((3,))
print("gamma rsample:", z.shape, z.requires_grad)
conc = torch.tensor([1.5, 0.5], requires_grad=True)
s = D.Dirichlet(conc).rsample()
s[0].backward()
print("dirichlet rsample grad:", s, conc.grad)
