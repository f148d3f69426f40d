# Models: an optimal-control course notebook in PyTorch: a cart-pole's dynamics linearised
# with torch.autograd.functional.jacobian, discretised, an infinite-horizon LQR gain from the
# discrete Riccati iteration (linalg.solve), the closed-loop rollout and its cost, then a
# shooting-method MPC that optimises an open-loop control sequence by backpropagating through
# the nonlinear simulation with Adam.
import torch
from torch.autograd.functional import jacobian

torch.set_default_dtype(torch.float64)
g, mc, mp, l = 9.81, 1.0, 0.1, 0.5


def dynamics(state, u):
    x, xd, th, thd = state.unbind(-1)
    s, c = torch.sin(th), torch.cos(th)
    temp = (u[..., 0] + mp * l * thd**2 * s) / (mc + mp)
    thacc = (g * s - c * temp) / (l * (4.0 / 3.0 - mp * c**2 / (mc + mp)))
    xacc = temp - mp * l * thacc * c / (mc + mp)
    return torch.stack([xd, xacc, thd, thacc], -1)


x0 = torch.zeros(4)
u0 = torch.zeros(1)
A_c = jacobian(lambda s: dynamics(s, u0), x0)
B_c = jacobian(lambda u: dynamics(x0, u), u0)
print("A_c\n", A_c)
print("B_c\n", B_c)
dt = 0.02
A = torch.eye(4) + dt * A_c
B = dt * B_c
Q = torch.diag(torch.tensor([1.0, 0.1, 10.0, 0.1]))
R = torch.tensor([[0.01]])

P = Q.clone()
for it in range(2000):
    K = torch.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    P_new = Q + A.T @ P @ (A - B @ K)
    if (P_new - P).abs().max() < 1e-10:
        P = P_new
        break
    P = P_new
print("riccati iterations", it + 1)
print("K", K)
eig = torch.linalg.eigvals(A - B @ K)
print("closed-loop |eig|", eig.abs().sort().values)
print("stable:", bool((eig.abs() < 1).all()))


def rollout(policy, s0, steps):
    s, cost, traj = s0, 0.0, [s0]
    for _ in range(steps):
        u = policy(s)
        cost = cost + s @ Q @ s + u @ R @ u
        s = s + dt * dynamics(s, u)
        traj.append(s)
    return torch.stack(traj), cost


s0 = torch.tensor([0.0, 0.0, 0.2, 0.0])
traj, cost = rollout(lambda s: -K @ s, s0, 150)
print("LQR cost", cost.item(), "final state", traj[-1])
print(
    "max |theta|",
    traj[:, 2].abs().max().item(),
    "cart range",
    traj[:, 0].min().item(),
    traj[:, 0].max().item(),
)
print("quadratic value x0'Px0", (s0 @ P @ s0).item())

H = 30
U = torch.zeros(H, 1, requires_grad=True)
opt = torch.optim.Adam([U], lr=0.5)
for it in range(60):
    s, cost = s0, 0.0
    for t in range(H):
        cost = cost + s @ Q @ s + U[t] @ R @ U[t]
        s = s + dt * dynamics(s, U[t])
    cost = cost + 10 * s @ P @ s
    opt.zero_grad()
    cost.backward()
    opt.step()
    if it % 15 == 0 or it == 59:
        print(f"mpc iter {it:2d} cost {cost.item():.6f} |grad| {U.grad.norm().item():.6f}")
print("first controls", U.detach()[:5, 0])
print("LQR first controls", torch.stack([-(K @ traj[i]) for i in range(5)])[:, 0])
