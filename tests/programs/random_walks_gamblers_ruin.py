# Models: a stochastic-processes exercise sheet simulated with torch's RNG: simple random walks
# (cumsum of +-1 steps), the expected maximum and return-to-origin counts, the gambler's ruin
# probability with absorbing barriers against its closed form, a 2-D lattice walk's mean squared
# displacement, first-passage times, and a Markov chain's stationary distribution.
import torch

torch.manual_seed(7)
n_walks, n_steps = 2000, 400
steps = torch.randint(0, 2, (n_walks, n_steps)) * 2 - 1
paths = torch.cumsum(steps, dim=1)
print("steps dtype", steps.dtype, "first path start", paths[0, :12].tolist())
final = paths[:, -1].float()
print(f"final mean {final.mean().item():.4f} var {final.var().item():.2f} (theory {n_steps})")
print("max of path, mean:", paths.max(dim=1).values.float().mean().item())
returns = (paths == 0).sum(1).float()
print("returns to origin, mean:", returns.mean().item())
print("histogram of final positions:",
      torch.histc(final, bins=8, min=-80, max=80).long().tolist())

# gambler's ruin: start at k, absorb at 0 or N, win prob p
N, k, p = 10, 3, 0.45
n = 4000
pos = torch.full((n,), k)
alive = torch.ones(n, dtype=torch.bool)
t = 0
while alive.any():
    move = torch.where(torch.rand(n) < p, 1, -1)
    pos = torch.where(alive, pos + move, pos)
    alive = (pos > 0) & (pos < N)
    t += 1
win = (pos == N).float().mean().item()
r = (1 - p) / p
print(f"ruin sim: P(reach {N}) = {win:.4f}, theory {(1 - r ** k) / (1 - r ** N):.4f}, "
      f"all absorbed after {t} rounds")

# 2-D lattice walk: MSD grows linearly
dirs = torch.tensor([[1, 0], [-1, 0], [0, 1], [0, -1]])
choice = torch.randint(0, 4, (1000, 100))
xy = torch.cumsum(dirs[choice], dim=1)
msd = (xy.float() ** 2).sum(-1).mean(0)
print("MSD at t=10,50,100:", [round(msd[i].item(), 2) for i in (9, 49, 99)])

# first passage to +5
hit = (paths >= 5)
first = torch.where(hit.any(1), hit.int().argmax(1), torch.tensor(-1))
ok = first[first >= 0]
print(f"reached +5: {len(ok)} of {n_walks}, median first-passage {ok.median().item()}")

# Markov chain: power iteration and simulation
P = torch.tensor([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]])
pi = torch.ones(3) / 3
for _ in range(200):
    pi = pi @ P
print("stationary (power):", pi)
evals, evecs = torch.linalg.eig(P.T)
i = torch.argmin((evals - 1).abs())
v = evecs[:, i].real
print("stationary (eig):  ", v / v.sum())
state = torch.zeros(500, dtype=torch.long)
for t in range(1, 500):
    state[t] = torch.multinomial(P[state[t - 1]], 1)
print("empirical:", torch.bincount(state, minlength=3).float() / 500)
