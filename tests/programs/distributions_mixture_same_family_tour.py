# Models: a blog post on Gaussian mixtures with torch.distributions: MixtureSameFamily over
# Independent Normals, sampling shapes, log_prob, mean/variance, the mixture's component
# posterior by hand, and fitting mixture logits and means by gradient ascent.
import torch
import torch.distributions as D

torch.manual_seed(3)
mix = D.Categorical(torch.tensor([0.3, 0.5, 0.2]))
comp = D.Independent(D.Normal(torch.tensor([[-2.0, 0.0], [0.0, 1.0], [3.0, -1.0]]),
                              torch.tensor([[0.5, 0.5], [1.0, 0.3], [0.7, 0.7]])), 1)
gmm = D.MixtureSameFamily(mix, comp)
print(gmm)
print("batch", gmm.batch_shape, "event", gmm.event_shape)
x = gmm.sample((5,))
print("samples\n", x)
print("log_prob", gmm.log_prob(x))
print("mean", gmm.mean)
print("variance", gmm.variance)
lp = comp.log_prob(x.unsqueeze(-2)) + mix.logits
post = lp.softmax(-1)
print("posterior\n", post)
print("sum check", post.sum(-1))

data = gmm.sample((400,))
logits = torch.zeros(3, requires_grad=True)
locs = torch.randn(3, 2, requires_grad=True)
log_scales = torch.zeros(3, 2, requires_grad=True)
opt = torch.optim.Adam([logits, locs, log_scales], lr=0.05)
for step in range(60):
    model = D.MixtureSameFamily(D.Categorical(logits=logits),
                                D.Independent(D.Normal(locs, log_scales.exp()), 1))
    nll = -model.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 15 == 0:
        print(f"step {step:2d} nll {nll.item():.5f}")
print("weights", logits.softmax(0).detach())
print("locs", locs.detach())
print("grad_fn", nll.grad_fn.name())
try:
    D.MixtureSameFamily(D.Categorical(torch.ones(2)), comp)
except ValueError as e:
    print("ValueError:", e)
