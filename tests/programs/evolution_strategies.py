# Models: OpenAI's "Evolution Strategies as a Scalable Alternative to RL" in the notebooks that
# reimplement it with PyTorch: a policy's parameters flattened with parameters_to_vector,
# antithetic Gaussian perturbations, centred-rank fitness shaping, an Adam update on the ES
# gradient estimate, written back with vector_to_parameters; plus a (1+1)-ES and CEM baseline
# on the same toy control task (a point mass steered to a target).
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2), nn.Tanh())
theta = parameters_to_vector(policy.parameters()).detach()
print("parameters", theta.numel(), "norm", theta.norm().item())


@torch.no_grad()
def episode_return(vec, seed=0, steps=15):
    vector_to_parameters(vec, policy.parameters())
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(2, generator=g) * 2 - 1
    vel = torch.zeros(2)
    target = torch.tensor([0.5, -0.25])
    total = 0.0
    for _ in range(steps):
        action = policy(torch.cat([pos - target, vel]))
        vel = 0.8 * vel + 0.1 * action
        pos = pos + vel
        total -= (pos - target).norm().item() + 0.01 * action.pow(2).sum().item()
    return total


def centered_ranks(x):
    ranks = torch.empty_like(x)
    ranks[x.argsort()] = torch.arange(len(x), dtype=x.dtype)
    return ranks / (len(x) - 1) - 0.5


print("ranks", centered_ranks(torch.tensor([3.0, -1.0, 10.0, 0.5])))
print("initial return", round(episode_return(theta), 5))

sigma, pop = 0.1, 12
vec = theta.clone().requires_grad_(False)
es_param = torch.nn.Parameter(vec.clone())
opt = torch.optim.Adam([es_param], lr=0.05)
for it in range(10):
    eps = torch.randn(pop // 2, vec.numel())
    eps = torch.cat([eps, -eps])
    returns = torch.tensor([episode_return(es_param.detach() + sigma * e, seed=it) for e in eps])
    shaped = centered_ranks(returns)
    grad = (shaped[:, None] * eps).sum(0) / (pop * sigma)
    es_param.grad = -grad
    opt.step()
    if it % 3 == 0:
        print(f"ES iter {it:2d} mean {returns.mean().item():.4f} max {returns.max().item():.4f} "
              f"eval {episode_return(es_param.detach(), seed=123):.4f}")

# (1+1)-ES with the one-fifth success rule
x, fx, step = theta.clone(), episode_return(theta, seed=7), 0.2
succ = []
for it in range(20):
    cand = x + step * torch.randn_like(x)
    fc = episode_return(cand, seed=7)
    ok = fc > fx
    succ.append(ok)
    if ok:
        x, fx = cand, fc
    if len(succ) == 5:
        rate = sum(succ) / 5
        step *= 1.5 if rate > 0.2 else 0.82
        succ = []
print(f"(1+1)-ES best {fx:.5f} final step {step:.5f}")

# cross-entropy method
mu, std = theta.clone(), torch.full_like(theta, 0.3)
for it in range(6):
    samples = mu + std * torch.randn(20, mu.numel())
    scores = torch.tensor([episode_return(s, seed=11) for s in samples])
    elite = samples[scores.topk(5).indices]
    mu, std = elite.mean(0), elite.std(0) + 0.01
    print(f"CEM iter {it} best {scores.max().item():.4f} elite std {std.mean().item():.4f}")
vector_to_parameters(mu, policy.parameters())
print("policy output at origin", policy(torch.zeros(4)).detach())
