# Models: a differentiable-rendering tutorial (the "sphere tracing a signed distance field"
# notebooks): an SDF scene of a sphere and a box combined with a smooth minimum, rays from a
# pinhole camera marched a fixed number of steps, normals from autograd.grad of the SDF,
# Lambertian shading of the hits, and the sphere's centre and radius recovered by gradient
# descent on the image loss.
import torch
import torch.nn.functional as F


def sd_sphere(p, c, r):
    return (p - c).norm(dim=-1) - r


def sd_box(p, b):
    q = p.abs() - b
    return q.clamp(min=0).norm(dim=-1) + q.max(dim=-1).values.clamp(max=0)


def smooth_min(a, b, k=0.2):
    h = torch.clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return torch.lerp(b, a, h) - k * h * (1 - h)


def scene(p, centre, radius):
    box = sd_box(p - torch.tensor([0.0, -0.9, 0.0]), torch.tensor([1.5, 0.1, 1.5]))
    return smooth_min(sd_sphere(p, centre, radius), box)


H = W = 24
ys, xs = torch.meshgrid(torch.linspace(1, -1, H), torch.linspace(-1, 1, W), indexing="ij")
origin = torch.tensor([0.0, 0.0, 3.0])
dirs = F.normalize(torch.stack([xs, ys, -1.5 * torch.ones_like(xs)], -1), dim=-1).reshape(-1, 3)
light = F.normalize(torch.tensor([0.6, 1.0, 0.8]), dim=0)
print("rays", dirs.shape, dirs[0], dirs[-1])


def render(centre, radius, steps=40):
    t = torch.zeros(dirs.shape[0])
    for _ in range(steps):
        p = origin + t[:, None] * dirs
        d = scene(p, centre, radius)
        t = t + d
    p = origin + t[:, None] * dirs
    d = scene(p, centre, radius)
    hit = (d.abs() < 1e-2) & (t < 10)
    if not p.requires_grad:
        p = p.detach().requires_grad_(True)
    with torch.enable_grad():
        dp = scene(p, centre, radius)
        (n,) = torch.autograd.grad(dp.sum(), p, create_graph=True)
    n = F.normalize(n, dim=-1)
    shade = (n @ light).clamp(min=0) * 0.9 + 0.1
    return torch.where(hit, shade, torch.zeros_like(shade)).reshape(H, W), hit.reshape(H, W), t


target_c, target_r = torch.tensor([0.3, -0.1, 0.0]), torch.tensor(0.6)
target, hit, depth = render(target_c, target_r)
print("target coverage", hit.float().mean().item(), "mean shade", target.mean().item())
print("depth range", depth.min().item(), depth[hit.flatten()].max().item())
for row in target[::3].tolist():
    print("".join(" .:-=+*#%@"[min(int(v * 10), 9)] for v in row))

centre = torch.tensor([0.0, 0.2, 0.0], requires_grad=True)
radius = torch.tensor(0.45, requires_grad=True)
opt = torch.optim.Adam([centre, radius], lr=0.03)
for it in range(40):
    img, _, _ = render(centre, radius)
    loss = F.mse_loss(img, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0 or it == 39:
        print(
            f"iter {it:2d} loss {loss.item():.6f} centre {[round(v, 4) for v in centre.tolist()]} "
            f"radius {radius.item():.4f}"
        )
print(
    "centre error",
    (centre.detach() - target_c).norm().item(),
    "radius error",
    abs(radius.item() - 0.6),
)
