# Models: probabilistic-modelling tutorials with torch.distributions: fitting a Normal and a
# MultivariateNormal by maximum likelihood with Adam, rsample (reparameterised) vs sample,
# kl_divergence, Independent, a two-component Gaussian mixture with logsumexp, and
# Bernoulli/Laplace/Uniform/Exponential.
import torch
import torch.distributions as D

torch.manual_seed(0)
true = D.Normal(torch.tensor(2.0), torch.tensor(0.5))
data = true.sample((500,))
print(data.shape, data.mean(), data.std())

mu = torch.zeros((), requires_grad=True)
log_sigma = torch.zeros((), requires_grad=True)
opt = torch.optim.Adam([mu, log_sigma], lr=0.1)
for step in range(100):
    nll = -D.Normal(mu, log_sigma.exp()).log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 25 == 24:
        print(f"step {step + 1} nll {nll.item():.5f} mu {mu.item():.4f} "
              f"sigma {log_sigma.exp().item():.4f}")

loc = torch.tensor([1.0, -1.0])
cov = torch.tensor([[1.0, 0.6], [0.6, 2.0]])
mvn = D.MultivariateNormal(loc, covariance_matrix=cov)
x = mvn.sample((400,))
xc = x - x.mean(0)
print(x.mean(0), xc.T @ xc / (len(x) - 1))
print(mvn.log_prob(torch.zeros(2)), mvn.entropy(), mvn.scale_tril)

L_raw = torch.zeros(2, 2, requires_grad=True)
m = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([L_raw, m], lr=0.05)
for step in range(80):
    tril = torch.tril(L_raw, -1) + torch.diag(torch.nn.functional.softplus(L_raw.diagonal()))
    q = D.MultivariateNormal(m, scale_tril=tril)
    loss = -q.log_prob(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"fitted nll {loss.item():.4f}", m.detach(), (tril @ tril.T).detach())

p, q = D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)
print(D.kl_divergence(p, q), D.kl_divergence(q, p))
z = q.rsample((3,))
print(z, q.cdf(torch.tensor(1.0)), q.icdf(torch.tensor(0.975)))
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(3)))
weights = D.Categorical(torch.tensor([0.3, 0.7]))
comps = D.Normal(torch.tensor([-2.0, 2.0]), torch.tensor([0.5, 0.5]))
k = weights.sample((1000,))
s = comps.sample((1000,)).gather(1, k.unsqueeze(1)).squeeze(1)
pts = torch.tensor([0.0, 2.0]).unsqueeze(1)
mix_lp = torch.logsumexp(comps.log_prob(pts) + weights.logits, dim=1)
print((s > 0).float().mean(), mix_lp, (weights.probs * comps.mean).sum())
bern = D.Bernoulli(probs=torch.tensor([0.2, 0.9]))
print(bern.sample((4,)), bern.log_prob(torch.tensor([1.0, 0.0])), bern.entropy())
lap = D.Laplace(torch.tensor(0.5), torch.tensor(2.0))
print(lap.mean, lap.variance, lap.log_prob(torch.tensor(0.3)), lap.sample((2,)))
expo = D.Exponential(torch.tensor(1.5))
print(D.Uniform(0.0, 2.0).sample((3,)), expo.log_prob(torch.tensor(1.0)))
