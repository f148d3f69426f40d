# Models: REINFORCE with a learned value baseline and a Gaussian policy on a deterministic
# 1-D "reach the target" environment: Normal(mu, exp(log_std)) with rsample vs sample,
# log_prob summed over actions, entropy bonus, discounted returns computed backwards,
# advantage normalisation, and separate actor/critic optimizers.
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.manual_seed(0)


class ReachEnv:
    def __init__(self):
        self.target = 1.0

    def reset(self):
        self.pos = torch.tensor([-1.0])
        self.t = 0
        return torch.cat([self.pos, torch.tensor([self.target])])

    def step(self, action):
        self.pos = (self.pos + action.clamp(-0.5, 0.5)).detach()
        self.t += 1
        reward = -abs(self.pos.item() - self.target)
        done = self.t >= 8
        return torch.cat([self.pos, torch.tensor([self.target])]), reward, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
        self.log_std = nn.Parameter(torch.full((1,), -0.5))

    def forward(self, s):
        return Normal(self.mu(s), self.log_std.exp())


policy = Policy()
value = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
opt_pi = torch.optim.Adam(policy.parameters(), lr=0.01)
opt_v = torch.optim.Adam(value.parameters(), lr=0.02)
env = ReachEnv()
gamma = 0.95
for episode in range(40):
    s = env.reset()
    logps, rewards, states, ents = [], [], [], []
    done = False
    while not done:
        dist = policy(s)
        a = dist.sample()
        logps.append(dist.log_prob(a).sum())
        ents.append(dist.entropy().sum())
        states.append(s)
        s, r, done = env.step(a)
        rewards.append(r)
    returns = []
    G = 0.0
    for r in reversed(rewards):
        G = r + gamma * G
        returns.insert(0, G)
    returns = torch.tensor(returns)
    S = torch.stack(states)
    v = value(S).squeeze(-1)
    adv = returns - v.detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    loss_pi = -(torch.stack(logps) * adv).sum() - 0.01 * torch.stack(ents).sum()
    loss_v = nn.functional.mse_loss(v, returns)
    opt_pi.zero_grad()
    loss_pi.backward()
    opt_pi.step()
    opt_v.zero_grad()
    loss_v.backward()
    opt_v.step()
    if episode % 8 == 0:
        print(
            f"ep {episode:2d} return {sum(rewards):8.4f} pi_loss {loss_pi.item():8.4f} v_loss "
            f"{loss_v.item():8.4f} std {policy.log_std.exp().item():.4f}"
        )

d = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
x = d.rsample((3,))
print(x, x.requires_grad, d.log_prob(x).shape, d.entropy(), d.cdf(torch.tensor([0.0, 1.0])))
print(d.batch_shape, d.event_shape, d.mean, d.stddev, d.variance)
with torch.no_grad():
    print("final mu at start", policy(env.reset()).mean)
