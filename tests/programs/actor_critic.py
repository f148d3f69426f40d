# Models: pytorch/examples reinforcement_learning/actor_critic.py -- a shared-body Policy with
# an action head and a value head, Categorical sampling, SavedAction named tuples, discounted
# returns standardised with eps, smooth_l1_loss for the critic, the advantage-weighted log-prob
# loss for the actor, and a running reward, on a hand-written 1-d "reach the goal" world.
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
rng = np.random.RandomState(543)
SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
gamma = 0.9
eps = np.finfo(np.float32).eps.item()


class LineWorld:
    """Positions 0..6, start at 3; action 0 moves left, 1 right; reward 1 at 6, -1 at 0."""

    def reset(self):
        self.pos = 3 if rng.rand() < 0.5 else 2
        return self.obs()

    def obs(self):
        s = np.zeros(7, dtype=np.float32)
        s[self.pos] = 1.0
        return s

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        done = self.pos in (0, 6)
        reward = 1.0 if self.pos == 6 else (-1.0 if self.pos == 0 else -0.05)
        return self.obs(), reward, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(7, 32)
        self.action_head = nn.Linear(32, 2)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values


model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)


def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses, value_losses, returns = [], [], []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps) if len(returns) > 1 \
        else returns * 0
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss.item()


env = LineWorld()
running_reward = 0.0
for i_episode in range(1, 41):
    state, ep_reward = env.reset(), 0.0
    for t in range(1, 30):
        action = select_action(state)
        state, reward, done = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % 5 == 0:
        print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tsteps {t}\t"
              f"Average reward: {running_reward:.3f}\tloss {loss:.4f}")

with torch.no_grad():
    probs, values = model(torch.eye(7))
print("P(right) by position", probs[:, 1])
print("state values", values.squeeze(1))
