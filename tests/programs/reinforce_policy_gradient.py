# Models: pytorch/examples reinforcement_learning/reinforce.py -- a Policy MLP with dropout,
# torch.distributions.Categorical sampling, saved log_probs, discounted returns normalised with
# eps, and the REINFORCE loss, on a hand-written corridor environment (no gym).
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

gamma = 0.99
eps = np.finfo(np.float32).eps.item()
print(eps)


class Corridor:
    """Start in cell 0 of 6; reward 1 on reaching cell 5; actions 0 left / 1 right."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)

    def reset(self):
        self.pos = 0
        return self.obs()

    def obs(self):
        v = np.zeros(6, dtype=np.float32)
        v[self.pos] = 1.0
        return v

    def step(self, action):
        if self.rng.rand() < 0.1:
            action = 1 - action
        self.pos = max(0, self.pos + (1 if action == 1 else -1))
        done = self.pos == 5
        return self.obs(), (1.0 if done else -0.01), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(6, 32)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        return F.softmax(self.affine2(x), dim=1)


torch.manual_seed(543)
env = Corridor(543)
policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss.item()


running_reward = -1.0
for i_episode in range(1, 21):
    state, ep_reward = env.reset(), 0
    for t in range(1, 40):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % 5 == 0:
        print(f"Episode {i_episode}\tLast length: {t:3d}\tLast reward: {ep_reward:.2f}"
              f"\tAverage reward: {running_reward:.4f}\tloss {loss:.4f}")

policy.eval()
with torch.no_grad():
    probs = policy(torch.eye(6))
print(probs)
d = Categorical(probs=probs)
print(d.entropy(), d.probs.shape, d.logits[0])
print(d.sample((2,)))
