# Models: inverse kinematics of a planar robot arm with autograd, as robotics tutorials do it:
# forward kinematics as cumulative sums of joint angles, the 2x3 Jacobian from
# torch.autograd.functional.jacobian, damped least-squares (Levenberg-Marquardt) updates with
# torch.linalg.solve, many targets at once with torch.func.jacrev + vmap, joint-limit
# handling with clamp, and gradient-descent IK with a manipulability penalty for comparison.
import torch
from torch.func import jacrev, vmap

links = torch.tensor([1.0, 0.8, 0.5])
limits = torch.tensor([3.0, 2.5, 2.5])


def forward_kinematics(q):
    angles = torch.cumsum(q, -1)
    x = (links * torch.cos(angles)).sum(-1)
    y = (links * torch.sin(angles)).sum(-1)
    return torch.stack([x, y], -1)


q0 = torch.tensor([0.3, -0.2, 0.5])
print("end effector", forward_kinematics(q0))
J = torch.autograd.functional.jacobian(forward_kinematics, q0)
print("jacobian", J)
print("manipulability", torch.sqrt(torch.det(J @ J.T)).item())

target = torch.tensor([1.2, 1.1])
q = q0.clone()
lam = 0.1
for it in range(12):
    err = target - forward_kinematics(q)
    J = torch.autograd.functional.jacobian(forward_kinematics, q)
    dq = J.T @ torch.linalg.solve(J @ J.T + lam ** 2 * torch.eye(2), err)
    q = torch.clamp(q + dq, -limits, limits)
    if it % 3 == 0 or it == 11:
        print(f"DLS iter {it:2d} error {err.norm().item():.8f} q {q.tolist()}")

torch.manual_seed(0)
targets = torch.randn(6, 2) * 0.8 + torch.tensor([0.8, 0.6])
Q = torch.zeros(6, 3) + 0.1
batched_jac = vmap(jacrev(forward_kinematics))
for it in range(15):
    E = targets - forward_kinematics(Q)
    Js = batched_jac(Q)
    A = Js @ Js.transpose(1, 2) + lam ** 2 * torch.eye(2)
    Q = torch.clamp(Q + (Js.transpose(1, 2) @ torch.linalg.solve(A, E.unsqueeze(-1))).squeeze(-1),
                    -limits, limits)
final = (targets - forward_kinematics(Q)).norm(dim=1)
print("batched jacobians", tuple(Js.shape), "final errors", final)
print("reachable", (targets.norm(dim=1) <= links.sum()).tolist())

q = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([q], lr=0.05)
for it in range(150):
    pos = forward_kinematics(q)
    J = torch.autograd.functional.jacobian(forward_kinematics, q, create_graph=True)
    manip = torch.sqrt(torch.det(J @ J.T) + 1e-9)
    loss = (pos - target).pow(2).sum() - 1e-3 * manip
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 50 == 49:
        print(f"GD iter {it} loss {loss.item():.7f} manipulability {manip.item():.5f}")
print("GD solution", q.detach(), "reach error", (forward_kinematics(q) - target).norm().item())
