# Models: a minimal PPO (CleanRL ppo.py style) -- an actor-critic MLP with orthogonal init,
# Categorical and Normal policies, rollouts from a hand-written environment, generalized advantage
# estimation in a reversed loop, minibatches from randperm, clipped surrogate, clipped value loss,
# entropy bonus, approx_kl, and clip_grad_norm_.
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical
from torch.distributions.normal import Normal

SQRT2 = np.sqrt(2)


def layer_init(layer, std=SQRT2, bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
            layer_init(nn.Linear(32, 1), std=1.0))
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
            layer_init(nn.Linear(32, n_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


class LineWorld:
    """Vectorised: N walkers on positions 0..6; reach 6 for +1, each step -0.02."""

    def __init__(self, n):
        self.n = n
        self.pos = torch.zeros(n, dtype=torch.long)

    def obs(self):
        return nn.functional.one_hot(self.pos, 7).float()

    def step(self, action):
        self.pos = (self.pos + action * 2 - 1).clamp(min=0)
        done = self.pos == 6
        reward = torch.where(done, 1.0, -0.02)
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return self.obs(), reward, done.float()


torch.manual_seed(1)
num_envs, num_steps = 4, 16
gamma, gae_lambda, clip_coef = 0.99, 0.95, 0.2
ent_coef, vf_coef, max_grad_norm = 0.01, 0.5, 0.5
envs = LineWorld(num_envs)
agent = Agent(7, 2)
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
print(agent.actor[2].weight.norm(), agent.critic[0].weight.std())

obs = torch.zeros((num_steps, num_envs, 7))
actions = torch.zeros((num_steps, num_envs))
logprobs = torch.zeros((num_steps, num_envs))
rewards = torch.zeros((num_steps, num_envs))
dones = torch.zeros((num_steps, num_envs))
values = torch.zeros((num_steps, num_envs))

next_obs = envs.obs()
next_done = torch.zeros(num_envs)
batch_size = num_envs * num_steps
minibatch_size = batch_size // 4
for update in range(1, 5):
    frac = 1.0 - (update - 1.0) / 4
    optimizer.param_groups[0]["lr"] = frac * 2.5e-3
    for step in range(num_steps):
        obs[step] = next_obs
        dones[step] = next_done
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
        actions[step] = action
        logprobs[step] = logprob
        next_obs, reward, next_done = envs.step(action)
        rewards[step] = reward.view(-1)

    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1, -1)
        advantages = torch.zeros_like(rewards)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[t + 1]
                nextvalues = values[t + 1]
            delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = (
                delta + gamma * gae_lambda * nextnonterminal * lastgaelam)
        returns = advantages + values

    b_obs = obs.reshape((-1, 7))
    b_logprobs = logprobs.reshape(-1)
    b_actions = actions.reshape(-1)
    b_advantages = advantages.reshape(-1)
    b_returns = returns.reshape(-1)
    b_values = values.reshape(-1)

    clipfracs = []
    for epoch in range(2):
        b_inds = torch.randperm(batch_size)
        for start in range(0, batch_size, minibatch_size):
            mb_inds = b_inds[start:start + minibatch_size]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                b_obs[mb_inds], b_actions.long()[mb_inds])
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = logratio.exp()
            with torch.no_grad():
                old_approx_kl = (-logratio).mean()
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
            mb_advantages = b_advantages[mb_inds]
            mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
            pg_loss1 = -mb_advantages * ratio
            pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
            pg_loss = torch.max(pg_loss1, pg_loss2).mean()
            newvalue = newvalue.view(-1)
            v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
            v_clipped = b_values[mb_inds] + torch.clamp(
                newvalue - b_values[mb_inds], -clip_coef, clip_coef)
            v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
            v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
            entropy_loss = entropy.mean()
            loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
            optimizer.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(agent.parameters(), max_grad_norm)
            optimizer.step()

    y_pred, y_true = b_values.numpy(), b_returns.numpy()
    var_y = np.var(y_true)
    explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
    print(f"update {update} reward {rewards.sum().item():.3f} pg {pg_loss.item():.4f} "
          f"v {v_loss.item():.4f} ent {entropy_loss.item():.4f} kl {approx_kl.item():.5f} "
          f"oldkl {old_approx_kl.item():.5f} clipfrac {np.mean(clipfracs):.4f} "
          f"gn {gn.item():.4f} ev {explained_var:.4f}")

# continuous-action head: a diagonal Normal policy with a state-independent log std
torch.manual_seed(2)
actor_mean = nn.Sequential(layer_init(nn.Linear(3, 16)), nn.Tanh(),
                           layer_init(nn.Linear(16, 2), std=0.01))
actor_logstd = nn.Parameter(torch.zeros(1, 2))
x = torch.randn(5, 3)
action_mean = actor_mean(x)
action_logstd = actor_logstd.expand_as(action_mean)
probs = Normal(action_mean, torch.exp(action_logstd))
act = probs.sample()
print("normal sample", act)
print("log_prob", probs.log_prob(act).sum(1))
print("entropy", probs.entropy().sum(1))
(-probs.log_prob(act).sum(1).mean()).backward()
print("logstd grad", actor_logstd.grad)
