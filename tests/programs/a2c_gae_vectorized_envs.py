# Models: a synchronous advantage actor-critic (A2C) with several environments stepped in
# lockstep (the "vectorized env" pattern): batched observations, Categorical over a batch of
# logits, n-step rollouts stored in preallocated tensors, Generalized Advantage Estimation
# computed backwards with done masks, value-loss/entropy coefficients, grad-norm clipping
# and explained variance.
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
N_ENVS, N_STEPS, N_STATES = 4, 6, 5


class LineWorld:
    """Move left/right on a line; reward 1 at the right end, episode resets."""

    def __init__(self, n):
        self.pos = torch.zeros(n, dtype=torch.long)

    def obs(self):
        return nn.functional.one_hot(self.pos, N_STATES).float()

    def step(self, actions):
        self.pos = (self.pos + actions * 2 - 1).clamp(0, N_STATES - 1)
        done = self.pos == N_STATES - 1
        reward = done.float() - 0.05
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return self.obs(), reward, done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(N_STATES, 32), nn.Tanh())
        self.actor = nn.Linear(32, 2)
        self.critic = nn.Linear(32, 1)

    def forward(self, x):
        h = self.shared(x)
        return self.actor(h), self.critic(h).squeeze(-1)


envs = LineWorld(N_ENVS)
net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=7e-3, eps=1e-5)
gamma, lam, vf_coef, ent_coef = 0.95, 0.9, 0.5, 0.01
obs = envs.obs()
for update in range(40):
    log_probs = torch.zeros(N_STEPS, N_ENVS)
    values = torch.zeros(N_STEPS, N_ENVS)
    rewards = torch.zeros(N_STEPS, N_ENVS)
    dones = torch.zeros(N_STEPS, N_ENVS)
    entropies = torch.zeros(N_STEPS, N_ENVS)
    lp_list, v_list, ent_list = [], [], []
    for t in range(N_STEPS):
        logits, v = net(obs)
        dist = Categorical(logits=logits)
        a = dist.sample()
        lp_list.append(dist.log_prob(a))
        v_list.append(v)
        ent_list.append(dist.entropy())
        obs, r, d = envs.step(a)
        rewards[t], dones[t] = r, d.float()
    log_probs, values, entropies = torch.stack(lp_list), torch.stack(v_list), torch.stack(ent_list)
    with torch.no_grad():
        _, next_value = net(obs)
        advantages = torch.zeros(N_STEPS, N_ENVS)
        last = torch.zeros(N_ENVS)
        for t in reversed(range(N_STEPS)):
            nv = next_value if t == N_STEPS - 1 else values[t + 1]
            nonterminal = 1.0 - dones[t]
            delta = rewards[t] + gamma * nv * nonterminal - values[t]
            last = delta + gamma * lam * nonterminal * last
            advantages[t] = last
        returns = advantages + values
    policy_loss = -(log_probs * advantages).mean()
    value_loss = (returns - values).pow(2).mean()
    entropy = entropies.mean()
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()
    if update % 8 == 0:
        ev = 1 - (returns - values.detach()).var() / returns.var()
        print(
            f"update {update:2d} loss {loss.item():.4f} pi {policy_loss.item():.4f} v "
            f"{value_loss.item():.4f} ent {entropy.item():.4f} gn {gn.item():.4f} ev "
            f"{ev.item():.3f} reward {rewards.sum().item():.2f}"
        )

with torch.no_grad():
    logits, v = net(torch.eye(N_STATES))
    print("p(right)", torch.softmax(logits, -1)[:, 1])
    print("values", v)
