# Models: differentiable physics notebooks (an n-body / molecular-dynamics toy): a softened
# gravitational potential energy whose forces come from torch.autograd.grad, velocity-Verlet
# integration, conservation of energy and momentum, a Lennard-Jones cluster relaxed by
# gradient descent, and a Hessian of the pair potential via torch.autograd.functional.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

n = 5
pos = torch.randn(n, 3)
vel = 0.1 * torch.randn(n, 3)
mass = torch.rand(n) + 0.5
vel = vel - (mass[:, None] * vel).sum(0) / mass.sum()  # zero total momentum
eps = 0.1


def potential(p):
    diff = p[:, None, :] - p[None, :, :]
    r = torch.sqrt((diff**2).sum(-1) + eps**2)
    mm = mass[:, None] * mass[None, :]
    iu = torch.triu_indices(n, n, offset=1)
    return -(mm / r)[iu[0], iu[1]].sum()


def forces(p):
    p = p.detach().requires_grad_(True)
    u = potential(p)
    (g,) = torch.autograd.grad(u, p)
    return -g, u.detach()


def energy(p, v):
    kin = 0.5 * (mass[:, None] * v**2).sum()
    return kin + potential(p), kin


f, u0 = forces(pos)
print(f"initial potential {u0.item():.6f}")
print("net force (should be ~0):", f.sum(0).abs().max().item() < 1e-12)
print("force on body 0", f[0])
e0, _ = energy(pos, vel)
dt = 0.01
for step in range(1, 201):
    acc = f / mass[:, None]
    pos = pos + vel * dt + 0.5 * acc * dt**2
    f_new, u = forces(pos)
    vel = vel + 0.5 * (acc + f_new / mass[:, None]) * dt
    f = f_new
    if step % 50 == 0:
        e, kin = energy(pos, vel)
        p_tot = (mass[:, None] * vel).sum(0)
        print(
            f"step {step}: E={e.item():.6f} K={kin.item():.6f} drift={(e - e0).item():.2e} "
            f"|p|={p_tot.norm().item():.1e}"
        )
com = (mass[:, None] * pos).sum(0) / mass.sum()
print("centre of mass", com)

# Lennard-Jones cluster relaxation
torch.manual_seed(1)
x = (torch.rand(6, 3) * 2.0).requires_grad_(True)


def lj(p, sigma=1.0, epsilon=1.0):
    iu = torch.triu_indices(p.shape[0], p.shape[0], offset=1)
    r = torch.linalg.vector_norm(p[iu[0]] - p[iu[1]], dim=-1)
    sr6 = (sigma / r) ** 6
    return (4 * epsilon * (sr6**2 - sr6)).sum()


opt = torch.optim.LBFGS([x], lr=0.5, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    e = lj(x)
    e.backward()
    return e


for it in range(3):
    e = opt.step(closure)
    print(f"LBFGS round {it}: energy {lj(x).item():.4f}")
dists = torch.pdist(x.detach())
print(f"min pair distance {dists.min().item():.3f} (2^(1/6)={2 ** (1 / 6):.3f})")
print("grad norm at minimum small:", x.grad.norm().item() < 1e-3)

pair = torch.tensor([0.0, 0.0, 0.0, 1.2, 0.0, 0.0])
H = torch.autograd.functional.hessian(lambda q: lj(q.view(2, 3)), pair)
print("pair Hessian diagonal", H.diagonal())
print("Hessian symmetric:", torch.allclose(H, H.T))
eig = torch.linalg.eigvalsh(H)
print("eigenvalues", eig.round(decimals=4))
print("zero modes", int((eig.abs() < 1e-8).sum()))
torch.set_default_dtype(torch.float32)
print("default dtype restored", torch.get_default_dtype())
