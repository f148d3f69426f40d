# Models: the pieces of continuous-control actor-critic code (TD3 and SAC from public
# implementations such as CleanRL / spinning-up): twin Q networks, target networks updated by
# Polyak averaging with torch.no_grad and mul_/add_, target policy smoothing with clipped
# noise, delayed actor updates, a tanh-squashed Gaussian policy with the log-prob correction,
# automatic entropy tuning through log_alpha, and a replay buffer of tensors.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

torch.manual_seed(0)
OBS, ACT, MAX_A = 3, 2, 1.0


def mlp(i, o, h=32):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, o))


class TwinQ(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1, self.q2 = mlp(OBS + ACT, 1), mlp(OBS + ACT, 1)

    def forward(self, s, a):
        sa = torch.cat([s, a], 1)
        return self.q1(sa), self.q2(sa)


class SquashedGaussianActor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU())
        self.mu, self.log_std = nn.Linear(32, ACT), nn.Linear(32, ACT)

    def forward(self, s, deterministic=False):
        h = self.body(s)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-20, 2)
        dist = Normal(mu, log_std.exp())
        u = mu if deterministic else dist.rsample()
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1) - (
            2 * (torch.log(torch.tensor(2.0)) - u - F.softplus(-2 * u))
        ).sum(-1)
        return a * MAX_A, logp


class ReplayBuffer:
    def __init__(self, size):
        self.s = torch.zeros(size, OBS)
        self.a = torch.zeros(size, ACT)
        self.r = torch.zeros(size, 1)
        self.s2 = torch.zeros(size, OBS)
        self.d = torch.zeros(size, 1)
        self.ptr, self.size, self.max = 0, 0, size

    def add(self, s, a, r, s2, d):
        i = self.ptr
        self.s[i], self.a[i], self.r[i], self.s2[i], self.d[i] = s, a, r, s2, d
        self.ptr = (self.ptr + 1) % self.max
        self.size = min(self.size + 1, self.max)

    def sample(self, n):
        idx = torch.randint(0, self.size, (n,))
        return self.s[idx], self.a[idx], self.r[idx], self.s2[idx], self.d[idx]


def env_step(s, a):
    # a toy point-mass: reward for steering the state to zero with small actions
    s2 = s.clone()
    s2[:ACT] = s[:ACT] + 0.1 * a
    s2[ACT:] = 0.9 * s[ACT:]
    r = -(s2.pow(2).sum() + 0.01 * a.pow(2).sum())
    return s2, r, float(s2.abs().max() > 3)


def polyak(target, source, tau=0.05):
    with torch.no_grad():
        for tp, p in zip(target.parameters(), source.parameters()):
            tp.mul_(1 - tau).add_(p, alpha=tau)


buf = ReplayBuffer(500)
s = torch.randn(OBS)
for t in range(300):
    a = (torch.rand(ACT) * 2 - 1) * MAX_A
    s2, r, d = env_step(s, a)
    buf.add(s, a, r, s2, d)
    s = torch.randn(OBS) if d or t % 25 == 24 else s2
print("buffer:", buf.size, buf.ptr, "mean reward:", buf.r[: buf.size].mean())

# ---- TD3 -----------------------------------------------------------------------------------
actor = nn.Sequential(mlp(OBS, ACT), nn.Tanh())
critic = TwinQ()
actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
for p in list(actor_t.parameters()) + list(critic_t.parameters()):
    p.requires_grad_(False)
a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
gamma, policy_noise, noise_clip = 0.9, 0.2, 0.5
for it in range(60):
    s, a, r, s2, d = buf.sample(32)
    with torch.no_grad():
        noise = (torch.randn_like(a) * policy_noise).clamp(-noise_clip, noise_clip)
        a2 = (actor_t(s2) * MAX_A + noise).clamp(-MAX_A, MAX_A)
        q1_t, q2_t = critic_t(s2, a2)
        y = r + gamma * (1 - d) * torch.min(q1_t, q2_t)
    q1, q2 = critic(s, a)
    c_loss = F.mse_loss(q1, y) + F.mse_loss(q2, y)
    c_opt.zero_grad()
    c_loss.backward()
    c_opt.step()
    if it % 2 == 0:
        a_loss = -critic(s, actor(s) * MAX_A)[0].mean()
        a_opt.zero_grad()
        a_loss.backward()
        a_opt.step()
        polyak(actor_t, actor)
        polyak(critic_t, critic)
    if it % 20 == 19:
        print(f"TD3 it {it + 1} critic {c_loss.item():.4f} actor {a_loss.item():.4f}")
print("target lags online:", (actor_t[0][0].weight - actor[0][0].weight).abs().mean())
print("critic grads in actor step:", critic.q1[0].weight.grad.abs().sum())

# ---- SAC -----------------------------------------------------------------------------------
torch.manual_seed(1)
pi = SquashedGaussianActor()
q, q_t = TwinQ(), None
q_t = copy.deepcopy(q).requires_grad_(False)
log_alpha = torch.zeros(1, requires_grad=True)
target_entropy = -float(ACT)
pi_opt = torch.optim.Adam(pi.parameters(), lr=1e-3)
q_opt = torch.optim.Adam(q.parameters(), lr=1e-3)
al_opt = torch.optim.Adam([log_alpha], lr=1e-2)
a_test, logp_test = pi(torch.zeros(2, OBS))
print("squashed actions:", a_test, "log probs:", logp_test)
for it in range(60):
    s, a, r, s2, d = buf.sample(32)
    alpha = log_alpha.exp().detach()
    with torch.no_grad():
        a2, logp2 = pi(s2)
        qt = torch.min(*q_t(s2, a2)) - alpha * logp2[:, None]
        y = r + gamma * (1 - d) * qt
    q1, q2 = q(s, a)
    q_loss = 0.5 * ((q1 - y).pow(2).mean() + (q2 - y).pow(2).mean())
    q_opt.zero_grad()
    q_loss.backward()
    q_opt.step()
    new_a, logp = pi(s)
    pi_loss = (alpha * logp[:, None] - torch.min(*q(s, new_a))).mean()
    pi_opt.zero_grad()
    pi_loss.backward()
    pi_opt.step()
    alpha_loss = -(log_alpha * (logp + target_entropy).detach()).mean()
    al_opt.zero_grad()
    alpha_loss.backward()
    al_opt.step()
    polyak(q_t, q, tau=0.01)
    if it % 20 == 19:
        print(
            f"SAC it {it + 1} q {q_loss.item():.4f} pi {pi_loss.item():.4f} "
            f"alpha {log_alpha.exp().item():.4f} entropy {-logp.mean().item():.4f}"
        )
with torch.no_grad():
    det, _ = pi(torch.tensor([[1.0, -1.0, 0.0]]), deterministic=True)
    print("deterministic action for state (1,-1,0):", det)
