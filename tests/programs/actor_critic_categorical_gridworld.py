# Models: one-step advantage actor-critic (A2C-style) on a deterministic 4x4 gridworld with a
# shared body and two heads: Categorical(logits=...) policy, log_prob, entropy, sample from
# torch's RNG, TD(0) targets with bootstrapping, smooth_l1 critic loss, and a greedy rollout.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
N = 4
GOAL = (3, 3)
PIT = (1, 2)
MOVES = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def encode(pos):
    v = torch.zeros(N * N)
    v[pos[0] * N + pos[1]] = 1.0
    return v


def step(pos, a):
    r, c = pos[0] + MOVES[a][0], pos[1] + MOVES[a][1]
    r, c = min(max(r, 0), N - 1), min(max(c, 0), N - 1)
    if (r, c) == GOAL:
        return (r, c), 1.0, True
    if (r, c) == PIT:
        return (r, c), -1.0, True
    return (r, c), -0.04, False


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N * N, 32), nn.ReLU())
        self.pi = nn.Linear(32, 4)
        self.v = nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


net = ActorCritic()
opt = torch.optim.RMSprop(net.parameters(), lr=0.005, alpha=0.99, eps=1e-5)
gamma = 0.9
for episode in range(60):
    pos, done, steps, ret = (0, 0), False, 0, 0.0
    while not done and steps < 20:
        logits, v = net(encode(pos))
        dist = Categorical(logits=logits)
        a = dist.sample()
        nxt, r, done = step(pos, a.item())
        with torch.no_grad():
            _, v_next = net(encode(nxt))
            target = torch.tensor(r) + gamma * v_next * (0.0 if done else 1.0)
        adv = target - v
        loss = (
            -dist.log_prob(a) * adv.detach() + F.smooth_l1_loss(v, target) - 0.01 * dist.entropy()
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        pos, steps, ret = nxt, steps + 1, ret + r
    if episode % 10 == 0:
        print(f"episode {episode} steps {steps} return {ret:.2f} loss {loss.item():.4f}")

with torch.no_grad():
    pos, path = (0, 0), [(0, 0)]
    for _ in range(10):
        logits, v = net(encode(pos))
        pos, r, done = step(pos, logits.argmax().item())
        path.append(pos)
        if done:
            break
    print("greedy path", path)
    values = torch.stack([net(encode((i, j)))[1] for i in range(N) for j in range(N)]).view(N, N)
    print(values)
    probs = F.softmax(net(encode((0, 0)))[0], -1)
    print("probs at start", probs, Categorical(probs=probs).entropy())
c = Categorical(logits=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
print(
    c.probs, c.sample((2,)), c.log_prob(torch.tensor([2, 0])), c.param_shape, c.enumerate_support()
)
