# Models: a tiny-NeRF notebook: Fourier positional encoding of 3-D points and view directions,
# camera rays from a pinhole model (meshgrid with indexing="xy"), stratified sampling along
# rays, alpha compositing with cumprod-based transmittance (exclusive cumprod by roll),
# hierarchical sampling by inverse-CDF with searchsorted, and fitting a toy radiance field.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def positional_encoding(x, n_freqs=4, include_input=True):
    freqs = 2.0 ** torch.arange(n_freqs, dtype=x.dtype)
    xb = x[..., None, :] * freqs[:, None]
    enc = torch.cat([torch.sin(xb), torch.cos(xb)], dim=-1).flatten(-2)
    return torch.cat([x, enc], -1) if include_input else enc


pe = positional_encoding(torch.tensor([[0.5, -1.0, 2.0]]))
print("encoding shape:", tuple(pe.shape))
print(pe[0, :9])


def get_rays(h, w, focal, c2w):
    i, j = torch.meshgrid(
        torch.arange(w, dtype=torch.float32), torch.arange(h, dtype=torch.float32), indexing="xy"
    )
    dirs = torch.stack([(i - w * 0.5) / focal, -(j - h * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


c2w = torch.eye(4)
c2w[2, 3] = 3.0
rays_o, rays_d = get_rays(6, 6, 5.0, c2w)
print("rays:", tuple(rays_o.shape), tuple(rays_d.shape))
print(rays_d[0, 0], rays_d[3, 3], rays_o[0, 0])


def true_density(pts):  # a sphere of radius 1 at the origin
    return 10.0 * torch.sigmoid(20 * (1.0 - pts.norm(dim=-1)))


def true_color(pts):
    return torch.sigmoid(3 * pts)


def render(rays_o, rays_d, field, near=1.0, far=5.0, n_samples=16, perturb=True):
    t = torch.linspace(near, far, n_samples).expand(*rays_o.shape[:-1], n_samples)
    if perturb:
        mids = 0.5 * (t[..., 1:] + t[..., :-1])
        upper = torch.cat([mids, t[..., -1:]], -1)
        lower = torch.cat([t[..., :1], mids], -1)
        t = lower + (upper - lower) * torch.rand(t.shape)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * t[..., :, None]
    sigma, rgb = field(pts)
    dists = torch.cat([t[..., 1:] - t[..., :-1], torch.full_like(t[..., :1], 1e10)], -1)
    dists = dists * rays_d[..., None, :].norm(dim=-1)
    alpha = 1.0 - torch.exp(-F.relu(sigma) * dists)
    trans = torch.cumprod(1.0 - alpha + 1e-10, -1)
    trans = torch.roll(trans, 1, -1)
    trans[..., 0] = 1.0
    weights = alpha * trans
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    depth = torch.sum(weights * t, -1)
    return rgb_map, depth, weights, t


def oracle(pts):
    return true_density(pts), true_color(pts)


with torch.no_grad():
    rgb_gt, depth_gt, weights, t_vals = render(rays_o, rays_d, oracle, perturb=False)
print("depth map:\n", depth_gt)
print("weights sum (centre ray):", weights[3, 3].sum())


def sample_pdf(bins, weights, n_samples):
    weights = weights + 1e-5
    pdf = weights / torch.sum(weights, -1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    u = torch.linspace(0.0, 1.0, n_samples).expand(*cdf.shape[:-1], n_samples).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    matched = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(-2).expand(matched), -1, inds_g)
    bins_g = torch.gather(bins.unsqueeze(-2).expand(matched), -1, inds_g)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    return bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])


mids = 0.5 * (t_vals[..., 1:] + t_vals[..., :-1])
fine = sample_pdf(mids.reshape(-1, 15), weights[..., 1:-1].reshape(-1, 14), 8)
print("fine samples (centre ray):", fine.view(6, 6, 8)[3, 3])


class TinyNeRF(nn.Module):
    def __init__(self, n_freqs=4, width=32):
        super().__init__()
        self.n_freqs = n_freqs
        d_in = 3 + 3 * 2 * n_freqs
        self.net = nn.Sequential(
            nn.Linear(d_in, width),
            nn.ReLU(),
            nn.Linear(width, width),
            nn.ReLU(),
            nn.Linear(width, 4),
        )

    def forward(self, pts):
        out = self.net(positional_encoding(pts, self.n_freqs))
        return F.softplus(out[..., 0] + 1.0), torch.sigmoid(out[..., 1:])


model = TinyNeRF()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(40):
    rgb, depth, _, _ = render(rays_o, rays_d, model)
    loss = F.mse_loss(rgb, rgb_gt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        psnr = -10.0 * torch.log10(loss)
        print(f"step {step:2d} loss {loss.item():.5f} psnr {psnr.item():.2f}")
with torch.no_grad():
    rgb, depth, w, _ = render(rays_o, rays_d, model, perturb=False)
    print("rendered centre pixel:", rgb[3, 3], "truth:", rgb_gt[3, 3])
    print("depth error:", (depth - depth_gt).abs().mean())
