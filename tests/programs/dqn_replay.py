# Models: the DQN tutorial pattern (replay buffer in a deque sampled with Python's random,
# policy and target networks, epsilon-greedy actions, gather of Q-values, SmoothL1Loss,
# soft target updates through state_dict, gradient value clipping) on a toy chain MDP.
import math
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.optim as optim

random.seed(0)
torch.manual_seed(0)
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))
N_STATES, N_ACTIONS = 6, 2


def one_hot(s):
    v = torch.zeros(N_STATES)
    v[s] = 1.0
    return v


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = 1.0 if s2 == N_STATES - 1 else -0.01
    return s2, r, s2 == N_STATES - 1


class DQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(N_STATES, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, N_ACTIONS)

    def forward(self, x):
        x = torch.relu(self.layer1(x))
        x = torch.relu(self.layer2(x))
        return self.layer3(x)


policy, target = DQN(), DQN()
target.load_state_dict(policy.state_dict())
opt = optim.AdamW(policy.parameters(), lr=1e-3, amsgrad=True)
memory = deque(maxlen=500)
steps = 0
for episode in range(25):
    s, total = 0, 0.0
    for t in range(30):
        eps = 0.05 + 0.85 * math.exp(-steps / 100)
        steps += 1
        if random.random() > eps:
            with torch.no_grad():
                a = policy(one_hot(s).unsqueeze(0)).max(1).indices.item()
        else:
            a = random.randrange(N_ACTIONS)
        s2, r, done = env_step(s, a)
        total += r
        memory.append(Transition(one_hot(s), torch.tensor([a]), one_hot(s2), torch.tensor([r]),
                                 torch.tensor([float(done)])))
        s = s2
        if len(memory) >= 32:
            batch = Transition(*zip(*random.sample(memory, 32)))
            states = torch.stack(batch.state)
            actions = torch.stack(batch.action)
            rewards = torch.cat(batch.reward)
            nexts = torch.stack(batch.next_state)
            dones = torch.cat(batch.done)
            q = policy(states).gather(1, actions).squeeze(1)
            with torch.no_grad():
                nq = target(nexts).max(1).values
            expected = rewards + 0.9 * nq * (1 - dones)
            loss = nn.SmoothL1Loss()(q, expected)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_value_(policy.parameters(), 100)
            opt.step()
            tsd, psd = target.state_dict(), policy.state_dict()
            for k in psd:
                tsd[k] = psd[k] * 0.05 + tsd[k] * 0.95
            target.load_state_dict(tsd)
        if done:
            break
    if episode % 5 == 0:
        print(f"episode {episode} steps {t + 1} return {total:.2f} eps {eps:.3f}")
with torch.no_grad():
    q = policy(torch.eye(N_STATES))
print(q)
print("greedy actions", q.argmax(1).tolist())
