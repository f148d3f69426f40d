# Models: model-based RL / MPC notebooks: a batched pendulum simulator written with tensors,
# the cross-entropy method (CEM) planner (sample action sequences, keep top-k elites by
# return, refit a diagonal Gaussian with momentum), receding-horizon control, a random-
# shooting baseline, and a learned dynamics model (MLP on state deltas) planned through.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
DT, G, MAX_TORQUE = 0.05, 10.0, 2.0


def step(state, u):
    th, thdot = state[..., 0], state[..., 1]
    u = u.clamp(-MAX_TORQUE, MAX_TORQUE)
    angle = torch.remainder(th + math.pi, 2 * math.pi) - math.pi
    cost = angle ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2
    thdot = (thdot + (3 * G / 2 * torch.sin(th) + 3.0 * u) * DT).clamp(-8, 8)
    th = th + thdot * DT
    return torch.stack([th, thdot], -1), -cost


def rollout(dyn, state, actions):
    """Total reward of each of the K action sequences (K, H) from one state."""
    s = state.expand(actions.shape[0], 2)
    total = torch.zeros(actions.shape[0])
    for t in range(actions.shape[1]):
        s, r = dyn(s, actions[:, t])
        total += r
    return total


def cem(dyn, state, horizon=12, pop=64, elites=8, iters=3, gen=None, init=None):
    mean = torch.zeros(horizon) if init is None else init
    std = torch.full((horizon,), 1.0)
    for _ in range(iters):
        samples = mean + std * torch.randn(pop, horizon, generator=gen)
        samples = samples.clamp(-MAX_TORQUE, MAX_TORQUE)
        returns = rollout(dyn, state, samples)
        top = returns.topk(elites).indices
        elite = samples[top]
        mean = 0.1 * mean + 0.9 * elite.mean(0)
        std = 0.1 * std + 0.9 * elite.std(0)
    return mean


def random_shooting(dyn, state, horizon=12, pop=256, gen=None):
    samples = (torch.rand(pop, horizon, generator=gen) * 2 - 1) * MAX_TORQUE
    return samples[rollout(dyn, state, samples).argmax()]


def control(planner, dyn, steps=25, seed=0):
    gen = torch.Generator().manual_seed(seed)
    state = torch.tensor([math.pi, 0.0])
    total, plan = 0.0, None
    for t in range(steps):
        if planner == "cem":
            warm = None if plan is None else torch.cat([plan[1:], plan[-1:]])
            plan = cem(dyn, state, gen=gen, init=warm)
        else:
            plan = random_shooting(dyn, state, gen=gen)
        state, r = step(state, plan[0])
        total += r.item()
    return total, state


for planner in ["cem", "random"]:
    ret, final = control(planner, step)
    print(f"{planner:6s} return {ret:.3f} final state {final}")

# learn a dynamics model from random transitions, then plan through it
S = torch.stack([torch.rand(2000) * 2 * math.pi - math.pi, torch.rand(2000) * 16 - 8], 1)
U = torch.rand(2000) * 4 - 2
S2, R = step(S, U)
inputs = torch.stack([torch.sin(S[:, 0]), torch.cos(S[:, 0]), S[:, 1] / 8, U / 2], 1)
targets = (S2 - S) / torch.tensor([0.5, 1.0])
model = nn.Sequential(nn.Linear(4, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(15):
    for idx in torch.randperm(2000).split(100):
        loss = nn.functional.mse_loss(model(inputs[idx]), targets[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        print(f"dynamics epoch {epoch + 1} loss {loss.item():.6f}")


@torch.no_grad()
def learned_step(s, u):
    u = u.clamp(-MAX_TORQUE, MAX_TORQUE)
    x = torch.stack([torch.sin(s[..., 0]), torch.cos(s[..., 0]), s[..., 1] / 8, u / 2], -1)
    angle = torch.remainder(s[..., 0] + math.pi, 2 * math.pi) - math.pi
    r = -(angle ** 2 + 0.1 * s[..., 1] ** 2 + 0.001 * u ** 2)
    return s + model(x) * torch.tensor([0.5, 1.0]), r


ret, final = control("cem", learned_step, steps=20, seed=1)
print(f"CEM with learned model: return {ret:.3f} final state {final}")
