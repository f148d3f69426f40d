# Models: differentiable-physics demos (DiffTaichi / "differentiable simulation" notebooks in
# PyTorch): a mass-spring cloth grid with structural and shear springs built by index
# arithmetic, gravity, damping, pinned corners, semi-implicit Euler integration with forces
# accumulated by index_add_, energy bookkeeping, and gradient-based optimisation of the
# initial velocity of a thrown particle system to hit a target.
import torch

torch.manual_seed(0)
N = 6
ij = torch.cartesian_prod(torch.arange(N), torch.arange(N))
rest_pos = torch.stack([ij[:, 1].float(), torch.zeros(N * N), ij[:, 0].float()], 1) * 0.2
idx = torch.arange(N * N).view(N, N)
springs = torch.cat([
    torch.stack([idx[:, :-1].flatten(), idx[:, 1:].flatten()], 1),
    torch.stack([idx[:-1, :].flatten(), idx[1:, :].flatten()], 1),
    torch.stack([idx[:-1, :-1].flatten(), idx[1:, 1:].flatten()], 1),
    torch.stack([idx[:-1, 1:].flatten(), idx[1:, :-1].flatten()], 1),
])
rest_len = (rest_pos[springs[:, 0]] - rest_pos[springs[:, 1]]).norm(dim=1)
print("particles", N * N, "springs", len(springs),
      "rest lengths", torch.unique(rest_len.round(decimals=4)))
pinned = torch.zeros(N * N, dtype=torch.bool)
pinned[idx[0, 0]] = pinned[idx[0, -1]] = True
GRAV = torch.tensor([0.0, -9.8, 0.0])
K, DAMP, DT, MASS = 60.0, 0.05, 0.005, 0.05


def forces(x, v):
    d = x[springs[:, 1]] - x[springs[:, 0]]
    length = d.norm(dim=1, keepdim=True)
    f = K * (length - rest_len[:, None]) * d / length
    F = torch.zeros_like(x).index_add_(0, springs[:, 0], f).index_add_(0, springs[:, 1], -f)
    return F + MASS * GRAV - DAMP * v


def energy(x, v):
    d = (x[springs[:, 1]] - x[springs[:, 0]]).norm(dim=1)
    elastic = 0.5 * K * ((d - rest_len) ** 2).sum()
    return elastic, 0.5 * MASS * (v ** 2).sum(), -(MASS * x[:, 1] * GRAV[1]).sum()


x, v = rest_pos.clone(), torch.zeros(N * N, 3)
for step in range(240):
    v = v + DT * forces(x, v) / MASS
    v[pinned] = 0
    x = x + DT * v
    if step % 80 == 79:
        e, kin, pot = energy(x, v)
        print(f"step {step + 1} elastic {e:.4f} kinetic {kin:.4f} potential {pot:.4f} "
              f"lowest y {x[:, 1].min():.4f}")
print("final corner positions:\n", x[idx[-1, [0, -1]]])
lengths = (x[springs[:, 1]] - x[springs[:, 0]]).norm(dim=1)
print("max spring strain:", (lengths / rest_len - 1).max().item())

# throw a small free-floating patch: optimise its initial velocity to land its centre on a target
target = torch.tensor([1.2, 0.0, 0.8])
M = 3
sub = idx[:M, :M].flatten()
sub_springs = springs[(torch.isin(springs, sub)).all(1)]
remap = torch.full((N * N,), -1)
remap[sub] = torch.arange(len(sub))
sub_springs = remap[sub_springs]
sub_rest = rest_len[(torch.isin(springs, sub)).all(1)]
v0 = torch.tensor([0.5, 2.0, 0.0], requires_grad=True)
opt = torch.optim.Adam([v0], lr=0.1)
for it in range(30):
    x = rest_pos[sub] + torch.tensor([0.0, 0.5, 0.0])
    v = v0.expand(len(sub), 3)
    for step in range(40):
        d = x[sub_springs[:, 1]] - x[sub_springs[:, 0]]
        length = d.norm(dim=1, keepdim=True)
        f = K * (length - sub_rest[:, None]) * d / length
        F = torch.zeros_like(x).index_add(0, sub_springs[:, 0], f)
        F = F.index_add(0, sub_springs[:, 1], -f)
        v = v + DT * (F / MASS + GRAV)
        x = x + DT * v
    loss = (x.mean(0) - target).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 9:
        print(f"iter {it + 1} miss {loss.sqrt().item():.5f} v0 {v0.detach()}")
print("landing centre:", x.mean(0).detach())
