# Models: 3D-geometry / robotics notebooks: the so(3) hat map, the exponential map by Rodrigues'
# formula and by torch.linalg.matrix_exp, the log map, quaternion <-> matrix conversions, slerp,
# chordal L2 rotation averaging, and gradient-based pose estimation (Kabsch by SVD vs optimising
# an axis-angle vector through matrix_exp's backward).
import math

import torch

torch.manual_seed(0)
torch.set_printoptions(precision=5, sci_mode=False)


def hat(w):
    zero = torch.zeros_like(w[..., 0])
    return torch.stack([torch.stack([zero, -w[..., 2], w[..., 1]], -1),
                        torch.stack([w[..., 2], zero, -w[..., 0]], -1),
                        torch.stack([-w[..., 1], w[..., 0], zero], -1)], -2)


def rodrigues(w):
    theta = w.norm(dim=-1, keepdim=True)[..., None]
    K = hat(w / theta[..., 0])
    eye = torch.eye(3).expand_as(K)
    return eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * K @ K


def log_map(R):
    cos = ((R.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2).clamp(-1, 1)
    theta = torch.acos(cos)
    vee = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0],
                       R[..., 1, 0] - R[..., 0, 1]], -1)
    return vee * (theta / (2 * torch.sin(theta)))[..., None]


def matrix_to_quat(R):
    w = torch.sqrt((1 + R.diagonal(dim1=-2, dim2=-1).sum(-1)).clamp(min=1e-12)) / 2
    x = (R[..., 2, 1] - R[..., 1, 2]) / (4 * w)
    y = (R[..., 0, 2] - R[..., 2, 0]) / (4 * w)
    z = (R[..., 1, 0] - R[..., 0, 1]) / (4 * w)
    return torch.stack([w, x, y, z], -1)


def quat_to_matrix(q):
    q = q / q.norm(dim=-1, keepdim=True)
    w, x, y, z = q.unbind(-1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        -1).view(*q.shape[:-1], 3, 3)


def slerp(q0, q1, t):
    dot = (q0 * q1).sum(-1, keepdim=True)
    q1 = torch.where(dot < 0, -q1, q1)
    omega = torch.acos(dot.abs().clamp(max=1.0))
    so = torch.sin(omega)
    return (torch.sin((1 - t) * omega) / so) * q0 + (torch.sin(t * omega) / so) * q1


w = torch.randn(4, 3)
R1 = rodrigues(w)
R2 = torch.linalg.matrix_exp(hat(w))
print("Rodrigues vs matrix_exp max diff < 1e-5:", (R1 - R2).abs().max().item() < 1e-5)
eye = torch.eye(3).expand(4, 3, 3)
print("orthogonal:", torch.allclose(R2 @ R2.transpose(-1, -2), eye, atol=1e-5),
      "det:", torch.linalg.det(R2))
w_wrapped = w * torch.where(w.norm(dim=-1, keepdim=True) > math.pi,
                            1 - 2 * math.pi / w.norm(dim=-1, keepdim=True), torch.ones(4, 1))
print("log(exp(w)):", log_map(R2))
print("w (wrapped):", w_wrapped)
q = matrix_to_quat(R2)
print("quaternions:", q)
print("quat round trip max diff < 1e-5:", (quat_to_matrix(q) - R2).abs().max().item() < 1e-5)
ts = torch.linspace(0, 1, 5)[:, None]
path = slerp(q[0].expand(5, 4), q[1].expand(5, 4), ts)
angles = [log_map(quat_to_matrix(path[i]).T @ quat_to_matrix(path[i + 1])).norm().item()
          for i in range(4)]
print("slerp step angles (equal):", [round(a, 4) for a in angles])

# chordal L2 average of noisy rotations: project the mean matrix back onto SO(3) with an SVD
center = torch.linalg.matrix_exp(hat(torch.tensor([0.3, -0.2, 0.5])))
noisy = center @ torch.linalg.matrix_exp(hat(0.1 * torch.randn(50, 3)))
U, S, Vh = torch.linalg.svd(noisy.mean(0))
D = torch.diag(torch.tensor([1.0, 1.0, torch.linalg.det(U @ Vh).item()]))
avg = U @ D @ Vh
print("singular values of the mean:", S)
print("average error angle:", log_map(center.T @ avg).norm().item())

# pose estimation: Kabsch (closed form) vs gradient descent on the axis-angle vector
P = torch.randn(30, 3)
R_true = torch.linalg.matrix_exp(hat(torch.tensor([0.4, 0.9, -0.3])))
t_true = torch.tensor([0.5, -1.0, 2.0])
Q = P @ R_true.T + t_true + 0.01 * torch.randn(30, 3)
Pc, Qc = P - P.mean(0), Q - Q.mean(0)
U, _, Vh = torch.linalg.svd(Qc.T @ Pc)
d = torch.sign(torch.linalg.det(U @ Vh))
R_kabsch = U @ torch.diag(torch.tensor([1.0, 1.0, d.item()])) @ Vh
t_kabsch = Q.mean(0) - R_kabsch @ P.mean(0)
print("Kabsch rotation error:", log_map(R_true.T @ R_kabsch).norm().item(),
      "translation:", t_kabsch)

omega = torch.zeros(3, requires_grad=True)
trans = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([omega, trans], lr=0.05)
for step in range(150):
    R = torch.linalg.matrix_exp(hat(omega))
    loss = (P @ R.T + trans - Q).pow(2).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"step {step + 1} loss {loss.item():.6f} omega {omega.detach()}")
print("gradient-based rotation error:", log_map(R_true.T @ R.detach()).norm().item())
