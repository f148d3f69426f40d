# Models: a computer-vision geometry lab without OpenCV: pinhole projection of 3-D points with
# an intrinsic matrix, homography estimation by the normalised direct linear transform (SVD null
# vector), reprojection error, RANSAC over random 4-point samples with torch's RNG to reject
# outliers, and rigid point-cloud registration by iterative closest point with the SVD
# (Kabsch) solution and torch.cdist nearest neighbours.
import math

import torch

torch.manual_seed(3)
torch.set_default_dtype(torch.float64)

K = torch.tensor([[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]])
pts3d = torch.rand(6, 3) * torch.tensor([2.0, 2.0, 4.0]) + torch.tensor([-1.0, -1.0, 4.0])
proj = (K @ pts3d.T).T
pix = proj[:, :2] / proj[:, 2:]
print("projected pixels\n", pix)


def to_h(p):
    return torch.cat([p, torch.ones(len(p), 1)], 1)


def normalise(p):
    c = p.mean(0)
    s = math.sqrt(2) / (p - c).norm(dim=1).mean()
    T = torch.tensor([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])
    return (T @ to_h(p).T).T[:, :2], T


def dlt(src, dst):
    ns, Ts = normalise(src)
    nd, Td = normalise(dst)
    rows = []
    for (x, y), (u, v) in zip(ns.tolist(), nd.tolist()):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    A = torch.tensor(rows)
    _, S, Vh = torch.linalg.svd(A)
    Hn = Vh[-1].reshape(3, 3)
    H = torch.linalg.inv(Td) @ Hn @ Ts
    return H / H[2, 2], S[-1].item()


def apply_h(H, p):
    q = (H @ to_h(p).T).T
    return q[:, :2] / q[:, 2:]


H_true = torch.tensor([[1.1, 0.05, 30.0], [-0.08, 0.95, -12.0], [1e-4, -2e-4, 1.0]])
src = torch.rand(40, 2) * 400
dst = apply_h(H_true, src) + 0.5 * torch.randn(40, 2)
H, smallest = dlt(src, dst)
print("estimated H\n", H)
err = (apply_h(H, src) - dst).norm(dim=1)
print(f"mean reprojection error {err.mean().item():.4f} px, smallest singular value {smallest:.2e}")

outliers = torch.randperm(40)[:10]
dst_bad = dst.clone()
dst_bad[outliers] = torch.rand(10, 2) * 400
H_ls, _ = dlt(src, dst_bad)
print(f"least squares with 25% outliers: error vs true H on inliers "
      f"{(apply_h(H_ls, src) - apply_h(H_true, src)).norm(dim=1).mean().item():.2f} px")
best_inliers, best_H = torch.zeros(40, dtype=torch.bool), None
for it in range(60):
    sample = torch.randperm(40)[:4]
    Hs, _ = dlt(src[sample], dst_bad[sample])
    inl = (apply_h(Hs, src) - dst_bad).norm(dim=1) < 3.0
    if inl.sum() > best_inliers.sum():
        best_inliers, best_H = inl, Hs
H_r, _ = dlt(src[best_inliers], dst_bad[best_inliers])
true_mask = torch.ones(40, dtype=torch.bool)
true_mask[outliers] = False
print("RANSAC inliers", int(best_inliers.sum()), "all true inliers found:",
      bool((best_inliers & true_mask).sum() == true_mask.sum()), "outliers kept:",
      int((best_inliers & ~true_mask).sum()))
refit_err = (apply_h(H_r, src) - apply_h(H_true, src)).norm(dim=1).mean().item()
print(f"RANSAC + refit error vs true H {refit_err:.3f} px")


def kabsch(P, Q):
    cp, cq = P.mean(0), Q.mean(0)
    Hm = (P - cp).T @ (Q - cq)
    U, _, Vt = torch.linalg.svd(Hm)
    d = torch.sign(torch.linalg.det(Vt.T @ U.T))
    D = torch.diag(torch.tensor([1.0, 1.0, d.item()]))
    R = Vt.T @ D @ U.T
    return R, cq - R @ cp


def rot(axis, angle):
    a = torch.tensor(axis) / torch.tensor(axis).norm()
    Kx = torch.tensor([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return torch.eye(3) + math.sin(angle) * Kx + (1 - math.cos(angle)) * Kx @ Kx


cloud = torch.randn(80, 3) * torch.tensor([1.0, 0.6, 0.3])
R_true, t_true = rot([0.2, 1.0, 0.3], 0.35), torch.tensor([0.3, -0.2, 0.1])
moved = cloud @ R_true.T + t_true + 0.005 * torch.randn(80, 3)
R_k, t_k = kabsch(cloud, moved)
print("kabsch with known correspondences: rotation error",
      (R_k - R_true).norm().item() < 0.02, "det", round(torch.linalg.det(R_k).item(), 6))

perm = torch.randperm(80)
target = moved[perm]
R_acc, t_acc = torch.eye(3), torch.zeros(3)
current = cloud.clone()
for it in range(30):
    nn_idx = torch.cdist(current, target).argmin(1)
    R_i, t_i = kabsch(current, target[nn_idx])
    current = current @ R_i.T + t_i
    R_acc, t_acc = R_i @ R_acc, R_i @ t_acc + t_i
    rmse = (current - target[nn_idx]).pow(2).sum(1).mean().sqrt().item()
    if it % 10 == 9:
        print(f"ICP iteration {it + 1}: rmse {rmse:.5f}")
angle = math.degrees(math.acos(((torch.trace(R_acc.T @ R_true) - 1) / 2).clamp(-1, 1).item()))
print(f"ICP rotation error {angle:.3f} deg, translation error {(t_acc - t_true).norm().item():.4f}")
