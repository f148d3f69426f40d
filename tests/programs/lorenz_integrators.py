# Models: a numerical-methods course notebook on ODE integrators in PyTorch: the Lorenz system
# stepped with explicit Euler, Heun and classical RK4 (a step-size convergence table against
# a fine RK4 reference), the largest Lyapunov exponent from two nearby trajectories with
# renormalisation, and a pendulum integrated with symplectic leapfrog vs Euler to compare
# energy drift.
import torch

torch.set_default_dtype(torch.float64)
sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0


def lorenz(s):
    x, y, z = s.unbind(-1)
    return torch.stack([sigma * (y - x), x * (rho - z) - y, x * y - beta * z], -1)


def euler(f, s, h):
    return s + h * f(s)


def heun(f, s, h):
    k1 = f(s)
    k2 = f(s + h * k1)
    return s + h / 2 * (k1 + k2)


def rk4(f, s, h):
    k1 = f(s)
    k2 = f(s + h / 2 * k1)
    k3 = f(s + h / 2 * k2)
    k4 = f(s + h * k3)
    return s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def integrate(step, s0, h, T):
    s = s0
    for _ in range(round(T / h)):
        s = step(lorenz, s, h)
    return s


s0 = torch.tensor([1.0, 1.0, 1.0])
T = 0.5
ref = integrate(rk4, s0, 1e-4, T)
print("reference state at t=0.5", ref)
print(" h        euler        heun         rk4")
for h in [0.01, 0.005, 0.0025]:
    errs = [(integrate(m, s0, h, T) - ref).norm().item() for m in (euler, heun, rk4)]
    print(f" {h:<7} {errs[0]:.4e}  {errs[1]:.4e}  {errs[2]:.4e}")

h, steps = 0.01, 1500
a = torch.tensor([1.0, 1.0, 1.0])
for _ in range(200):
    a = rk4(lorenz, a, h)
d0 = 1e-8
b = a + torch.tensor([d0, 0.0, 0.0])
log_sum = 0.0
traj = []
for i in range(steps):
    a, b = rk4(lorenz, a, h), rk4(lorenz, b, h)
    d = (b - a).norm()
    log_sum += torch.log(d / d0).item()
    b = a + (b - a) * (d0 / d)
    traj.append(a)
traj = torch.stack(traj)
print("largest Lyapunov exponent estimate", round(log_sum / (steps * h), 4))
print("attractor bounds min", traj.min(0).values, "max", traj.max(0).values)
print("time in right lobe", (traj[:, 0] > 0).float().mean().item())

g, L = 9.81, 1.0


def energy(q, p):
    return 0.5 * p**2 - g / L * torch.cos(q)


q_e = q_l = torch.tensor(1.2)
p_e = p_l = torch.tensor(0.0)
dt = 0.05
E0 = energy(q_e, p_e)
for n in range(1, 401):
    q_e, p_e = q_e + dt * p_e, p_e - dt * g / L * torch.sin(q_e)
    p_half = p_l - dt / 2 * g / L * torch.sin(q_l)
    q_l = q_l + dt * p_half
    p_l = p_half - dt / 2 * g / L * torch.sin(q_l)
    if n % 100 == 0:
        print(
            f"t={n * dt:5.1f} euler energy drift {(energy(q_e, p_e) - E0).item():+.5f} "
            f"leapfrog drift {(energy(q_l, p_l) - E0).item():+.3e}"
        )
