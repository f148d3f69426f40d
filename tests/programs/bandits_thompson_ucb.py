# Models: a reinforcement-learning course's multi-armed bandit lab (Sutton & Barto ch. 2):
# epsilon-greedy with incremental sample-average updates, UCB1, gradient bandits with a
# softmax preference and baseline, and Thompson sampling with Beta posteriors from
# torch.distributions, all vectorised over many independent runs with tensors.
import torch
from torch.distributions import Bernoulli, Beta, Categorical

torch.manual_seed(0)
K, RUNS, STEPS = 5, 64, 150
true_p = torch.tensor([0.20, 0.35, 0.50, 0.65, 0.45])
best = true_p.argmax()
print("arms", true_p.tolist(), "best arm", best.item())


def pull(arms):
    return Bernoulli(probs=true_p[arms]).sample()


def eps_greedy(eps):
    Q = torch.zeros(RUNS, K)
    N = torch.zeros(RUNS, K)
    rewards = torch.zeros(STEPS)
    for t in range(STEPS):
        explore = torch.rand(RUNS) < eps
        arms = torch.where(explore, torch.randint(0, K, (RUNS,)), Q.argmax(1))
        r = pull(arms)
        idx = torch.arange(RUNS)
        N[idx, arms] += 1
        Q[idx, arms] += (r - Q[idx, arms]) / N[idx, arms]
        rewards[t] = r.mean()
    return rewards, N


def ucb(c=1.0):
    Q = torch.zeros(RUNS, K)
    N = torch.zeros(RUNS, K)
    rewards = torch.zeros(STEPS)
    for t in range(STEPS):
        bonus = c * torch.sqrt(torch.log(torch.tensor(t + 1.0)) / N)
        scores = torch.where(N == 0, torch.full_like(Q, float("inf")), Q + bonus)
        arms = scores.argmax(1)
        r = pull(arms)
        N.scatter_add_(1, arms[:, None], torch.ones(RUNS, 1))
        Q.scatter_add_(1, arms[:, None], ((r - Q.gather(1, arms[:, None]).squeeze(1))
                                         / N.gather(1, arms[:, None]).squeeze(1))[:, None])
        rewards[t] = r.mean()
    return rewards, N


def gradient_bandit(alpha=0.2):
    H = torch.zeros(RUNS, K)
    baseline = torch.zeros(RUNS)
    rewards = torch.zeros(STEPS)
    for t in range(STEPS):
        pi = torch.softmax(H, dim=1)
        arms = Categorical(probs=pi).sample()
        r = pull(arms)
        baseline += (r - baseline) / (t + 1)
        onehot = torch.nn.functional.one_hot(arms, K).float()
        H += alpha * (r - baseline)[:, None] * (onehot - pi)
        rewards[t] = r.mean()
    return rewards, torch.softmax(H, 1)


def thompson():
    a = torch.ones(RUNS, K)
    b = torch.ones(RUNS, K)
    rewards = torch.zeros(STEPS)
    for t in range(STEPS):
        theta = Beta(a, b).sample()
        arms = theta.argmax(1)
        r = pull(arms)
        a[torch.arange(RUNS), arms] += r
        b[torch.arange(RUNS), arms] += 1 - r
        rewards[t] = r.mean()
    return rewards, a / (a + b)


for name, fn in [("eps=0.0", lambda: eps_greedy(0.0)), ("eps=0.1", lambda: eps_greedy(0.1)),
                 ("ucb", ucb), ("gradient", gradient_bandit), ("thompson", thompson)]:
    rewards, stats = fn()
    regret = (true_p.max() - rewards).cumsum(0)
    print(f"{name:9s} mean reward {rewards.mean().item():.4f} "
          f"last-50 {rewards[-50:].mean().item():.4f} regret {regret[-1].item():.3f}")
    print("   per-arm stat (run 0)", stats[0])
    if name == "thompson":
        post = Beta(torch.ones(K) + 3, torch.ones(K) + 7)
        print("   Beta mean/var", post.mean, post.variance)
        print("   Beta entropy", post.entropy())
