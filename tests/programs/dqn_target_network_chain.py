# Models: the DQN tutorial's ingredients on a deterministic chain MDP: a ReplayMemory of
# namedtuple Transitions in a deque with random.sample, epsilon-greedy with exponential decay,
# policy/target networks with soft (tau) updates via state_dict arithmetic, gather of the
# taken actions' Q values, max(1).values of next states with a non-final mask, SmoothL1Loss
# and clip_grad_value_, then the greedy policy per state.
import math
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))
N_STATES = 6


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


def one_hot(s):
    return torch.nn.functional.one_hot(torch.tensor([s]), N_STATES).float()


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    if s2 == N_STATES - 1:
        return None, 1.0
    return s2, -0.01


policy_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))
target_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
memory = ReplayMemory(500)
BATCH, GAMMA, TAU = 32, 0.9, 0.05
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 200
steps_done = 0


def select_action(state):
    global steps_done
    eps = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
    steps_done += 1
    if random.random() > eps:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(2)]], dtype=torch.long)


def optimize():
    if len(memory) < BATCH:
        return None
    batch = Transition(*zip(*memory.sample(BATCH)))
    non_final_mask = torch.tensor(tuple(s is not None for s in batch.next_state), dtype=torch.bool)
    non_final_next = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    q = policy_net(state_batch).gather(1, action_batch)
    next_values = torch.zeros(BATCH)
    with torch.no_grad():
        next_values[non_final_mask] = target_net(non_final_next).max(1).values
    expected = next_values * GAMMA + reward_batch
    loss = nn.SmoothL1Loss()(q, expected.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss.item()


for episode in range(30):
    s = 0
    state = one_hot(s)
    for t in range(20):
        action = select_action(state)
        s2, r = env_step(s, action.item())
        next_state = None if s2 is None else one_hot(s2)
        memory.push(state, action, next_state, torch.tensor([r]))
        state, s = next_state, s2
        loss = optimize()
        tsd, psd = target_net.state_dict(), policy_net.state_dict()
        for key in psd:
            tsd[key] = psd[key] * TAU + tsd[key] * (1 - TAU)
        target_net.load_state_dict(tsd)
        if s is None:
            break
    if episode % 5 == 0:
        print(
            f"episode {episode} length {t + 1} loss {loss if loss is None else round(loss, 5)} "
            f"memory {len(memory)}"
        )

with torch.no_grad():
    q = policy_net(torch.eye(N_STATES))
    print(q)
    print("greedy actions", q.argmax(1).tolist())
