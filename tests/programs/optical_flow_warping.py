# Models: the warping utilities of public optical-flow code (PWC-Net / RAFT / unsupervised flow
# repos): a backward warp with F.grid_sample from a pixel-offset flow field (base grid from
# meshgrid, normalisation to [-1, 1], align_corners choices, padding modes, a validity mask),
# photometric + smoothness losses, estimating a global translation by gradient descent, and
# RAFT-style convex upsampling of flow with unfold.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, C, H, W = 1, 1, 12, 12
yy, xx = torch.meshgrid(
    torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij"
)
img1 = (torch.sin(xx / 2.0) + torch.cos(yy / 3.0)).view(B, C, H, W)
img1 = img1 + 0.05 * torch.randn_like(img1)


def warp(x, flo, align_corners=True, padding_mode="zeros", mode="bilinear"):
    b, _, h, w = x.size()
    gy, gx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    grid = torch.stack((gx, gy), 0).float().unsqueeze(0).repeat(b, 1, 1, 1)
    vgrid = grid + flo
    vgrid_x = 2.0 * vgrid[:, 0] / max(w - 1, 1) - 1.0
    vgrid_y = 2.0 * vgrid[:, 1] / max(h - 1, 1) - 1.0
    vgrid = torch.stack((vgrid_x, vgrid_y), dim=3)
    out = F.grid_sample(x, vgrid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    mask = F.grid_sample(torch.ones_like(x), vgrid, align_corners=align_corners)
    return out, (mask > 0.999).float()


zero_flow = torch.zeros(B, 2, H, W)
same, mask = warp(img1, zero_flow)
print(
    "zero flow reproduces the image:",
    torch.allclose(same, img1, atol=1e-5),
    "valid:",
    mask.sum().item(),
)

shift = torch.zeros(B, 2, H, W)
shift[:, 0] = 2.0  # sample two pixels to the right
shifted, mask = warp(img1, shift)
print("integer shift equals slicing:", torch.allclose(shifted[..., :-2], img1[..., 2:], atol=1e-5))
print("mask columns:", mask[0, 0, 0])
for pm in ["zeros", "border", "reflection"]:
    out, _ = warp(img1, shift * 1.25, padding_mode=pm)
    print(f"{pm:10s} last column: {out[0, 0, :3, -1]}")
out_nn, _ = warp(img1, shift * 0.6, mode="nearest")
out_bc, _ = warp(img1, shift * 0.6, mode="bicubic")
print("nearest/bicubic:", out_nn[0, 0, 0, :4], out_bc[0, 0, 0, :4])
out_ac, _ = warp(img1, shift * 0.5, align_corners=False)
print("align_corners=False:", out_ac[0, 0, 5, :4])

# a translated second frame; recover the flow by minimising photometric error
true_u, true_v = 1.5, -0.75
theta = torch.tensor([[[1.0, 0.0, 2 * true_u / (W - 1)], [0.0, 1.0, 2 * true_v / (H - 1)]]])
grid = F.affine_grid(theta, (B, C, H, W), align_corners=True)
img2 = F.grid_sample(img1, grid, align_corners=True, padding_mode="border")
print("affine grid:", tuple(grid.shape), grid[0, 0, :2])

uv = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([uv], lr=0.1)
for step in range(80):
    flow = uv.view(1, 2, 1, 1).expand(B, 2, H, W)
    warped, valid = warp(img1, flow, padding_mode="border")
    photo = ((warped - img2).abs() * valid).sum() / valid.sum()
    opt.zero_grad()
    photo.backward()
    opt.step()
    if step % 20 == 0 or step == 79:
        print(f"step {step:2d} photometric {photo.item():.5f} flow {uv.detach()}")


def smoothness(flow):
    dx = flow[..., :, 1:] - flow[..., :, :-1]
    dy = flow[..., 1:, :] - flow[..., :-1, :]
    return dx.abs().mean() + dy.abs().mean()


dense = torch.randn(B, 2, H, W, requires_grad=True)
s = smoothness(dense)
s.backward()
print("smoothness:", s, dense.grad.abs().sum())


def upsample_flow(flow, mask, factor=2):
    n, _, h, w = flow.shape
    mask = mask.view(n, 1, 9, factor, factor, h, w).softmax(dim=2)
    up = F.unfold(factor * flow, [3, 3], padding=1).view(n, 2, 9, 1, 1, h, w)
    up = torch.sum(mask * up, dim=2).permute(0, 1, 4, 2, 5, 3)
    return up.reshape(n, 2, factor * h, factor * w)


coarse = torch.randn(1, 2, 4, 4)
logits = torch.randn(1, 9 * 4, 4, 4)
up = upsample_flow(coarse, logits)
print("convex upsampling:", tuple(up.shape), up[0, 0, :2, :4])
bil = 2 * F.interpolate(coarse, scale_factor=2, mode="bilinear", align_corners=True)
print("bilinear upsampling:", bil[0, 0, :2, :4])
