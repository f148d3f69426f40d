# Models: Rainbow-lite DQN code: a dueling Q-network (value and advantage streams, mean
# advantage subtracted), Double-DQN targets (online argmax, target evaluation), n-step
# returns, and prioritized experience replay with a sum tree (proportional sampling,
# importance-sampling weights annealed by beta, priorities updated from TD errors) on a
# hand-written grid-corridor environment.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)


class Corridor:
    """Positions 0..N-1; start at 3; reward 1 at the right end, 0.1 at the left end."""

    def __init__(self, n=8):
        self.n = n

    def reset(self):
        self.pos, self.t = 3, 0
        return self.obs()

    def obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1
        return o

    def step(self, a):
        self.t += 1
        self.pos = max(0, min(self.n - 1, self.pos + (1 if a == 1 else -1)))
        done = self.pos in (0, self.n - 1) or self.t >= 20
        r = 1.0 if self.pos == self.n - 1 else 0.1 if self.pos == 0 else -0.01
        return self.obs(), r, done


class SumTree:
    def __init__(self, cap):
        self.cap, self.tree, self.data = cap, np.zeros(2 * cap), [None] * cap
        self.ptr = self.size = 0

    def add(self, p, item):
        self.data[self.ptr] = item
        self.update(self.ptr, p)
        self.ptr = (self.ptr + 1) % self.cap
        self.size = min(self.size + 1, self.cap)

    def update(self, i, p):
        j = i + self.cap
        self.tree[j] = p
        j //= 2
        while j >= 1:
            self.tree[j] = self.tree[2 * j] + self.tree[2 * j + 1]
            j //= 2

    def find(self, s):
        j = 1
        while j < self.cap:
            left = 2 * j
            if s <= self.tree[left]:
                j = left
            else:
                s -= self.tree[left]
                j = left + 1
        return j - self.cap


class Dueling(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU())
        self.value = nn.Linear(32, 1)
        self.adv = nn.Linear(32, n_act)

    def forward(self, x):
        h = self.body(x)
        a = self.adv(h)
        return self.value(h) + a - a.mean(1, keepdim=True)


env, GAMMA, NSTEP, ALPHA = Corridor(), 0.95, 3, 0.6
online, target = Dueling(8, 2), Dueling(8, 2)
target.load_state_dict(online.state_dict())
opt = torch.optim.Adam(online.parameters(), lr=5e-3)
tree = SumTree(256)
max_p = 1.0
returns, step = [], 0
for ep in range(60):
    s, done, ep_ret, window = env.reset(), False, 0.0, []
    eps = max(0.05, 1 - ep / 30)
    while not done:
        if random.random() < eps:
            a = random.randrange(2)
        else:
            with torch.no_grad():
                a = online(s[None]).argmax(1).item()
        s2, r, done = env.step(a)
        ep_ret += r
        window.append((s, a, r))
        if len(window) == NSTEP or done:
            while window:
                R = sum(GAMMA ** i * w[2] for i, w in enumerate(window))
                tree.add(max_p ** ALPHA, (window[0][0], window[0][1], R, s2, done, len(window)))
                window.pop(0)
                if not done:
                    break
        s = s2
        step += 1
        if tree.size >= 32:
            beta = min(1.0, 0.4 + step * 0.002)
            seg = tree.tree[1] / 32
            idx = [tree.find(random.uniform(seg * i, seg * (i + 1))) for i in range(32)]
            batch = [tree.data[i] for i in idx]
            probs = torch.tensor([tree.tree[i + tree.cap] for i in idx]) / tree.tree[1]
            w = (tree.size * probs) ** (-beta)
            w = (w / w.max()).float()
            S = torch.stack([b[0] for b in batch])
            A = torch.tensor([b[1] for b in batch])
            R = torch.tensor([b[2] for b in batch], dtype=torch.float32)
            S2 = torch.stack([b[3] for b in batch])
            Dn = torch.tensor([float(b[4]) for b in batch])
            Nn = torch.tensor([b[5] for b in batch], dtype=torch.float32)
            with torch.no_grad():
                a2 = online(S2).argmax(1, keepdim=True)
                q2 = target(S2).gather(1, a2).squeeze(1)
                y = R + GAMMA ** Nn * q2 * (1 - Dn)
            q = online(S).gather(1, A[:, None]).squeeze(1)
            td = y - q
            loss = (w * F.smooth_l1_loss(q, y, reduction="none")).mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(online.parameters(), 10.0)
            opt.step()
            for i, e in zip(idx, td.detach().abs().tolist()):
                tree.update(i, (e + 1e-3) ** ALPHA)
                max_p = max(max_p, e + 1e-3)
        if step % 50 == 0:
            target.load_state_dict(online.state_dict())
    returns.append(ep_ret)
    if ep % 15 == 14:
        print(f"episode {ep + 1} mean return {np.mean(returns[-15:]):.4f} "
              f"loss {loss.item():.5f} beta {beta:.3f}")
with torch.no_grad():
    Q = online(torch.eye(8))
print("Q table:\n", Q)
print("greedy policy:", Q.argmax(1).tolist())
print("sum tree total:", round(float(tree.tree[1]), 4))
