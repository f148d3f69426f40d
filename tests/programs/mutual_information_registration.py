# Models: a medical-image registration notebook: the joint histogram of two images with
# torch.histogramdd / histc / bincount, entropy, mutual information and normalised MI as the
# similarity, a brute-force search over integer shifts with torch.roll, then a differentiable
# Parzen-window MI optimised over a translation with grid_sample.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=5)

H = W = 16
yy, xx = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
fixed = torch.exp(-((xx - 7) ** 2 + (yy - 8) ** 2) / 18) + 0.5 * (xx > 10).float()
fixed = fixed + 0.02 * torch.randn(H, W)
moving = torch.roll(1.0 - 0.8 * fixed, shifts=(2, -3), dims=(0, 1))  # inverted contrast


def joint_hist(a, b, bins=8):
    pts = torch.stack([a.flatten(), b.flatten()], 1)
    hist, edges = torch.histogramdd(pts, bins=[bins, bins],
                                    range=[float(a.min()), float(a.max()), float(b.min()),
                                           float(b.max())])
    return hist, edges


def entropy(p):
    p = p[p > 0]
    return -(p * p.log()).sum()


def mutual_info(a, b, bins=8):
    hist, _ = joint_hist(a, b, bins)
    p = hist / hist.sum()
    return entropy(p.sum(1)) + entropy(p.sum(0)) - entropy(p), p


hist, edges = joint_hist(fixed, moving)
print("joint histogram\n", hist.int())
print("edges", [e[:3] for e in edges])
h1 = torch.histc(fixed, bins=8, min=float(fixed.min()), max=float(fixed.max()))
print("histc marginal", h1, "matches", torch.equal(h1, hist.sum(1)))
q = torch.bucketize(fixed.flatten(), torch.linspace(float(fixed.min()), float(fixed.max()),
                                                    9)[1:-1])
print("bincount marginal", torch.bincount(q, minlength=8))
counts, bin_edges = torch.histogram(moving.flatten(), bins=5)
print("torch.histogram", counts, bin_edges)

mi0, p = mutual_info(fixed, moving)
print("MI misaligned", mi0.item())
best = None
for dy in range(-3, 4):
    for dx in range(-4, 5):
        mi, _ = mutual_info(fixed, torch.roll(moving, shifts=(dy, dx), dims=(0, 1)))
        if best is None or mi > best[0]:
            best = (mi, dy, dx)
print("best shift", best[1], best[2], "MI", round(best[0].item(), 5))
aligned = torch.roll(moving, shifts=(best[1], best[2]), dims=(0, 1))
mi_a, p = mutual_info(fixed, aligned)
nmi = (entropy(p.sum(1)) + entropy(p.sum(0))) / entropy(p)
print("aligned MI", mi_a.item(), "NMI", nmi.item())
print("correlation aligned", torch.corrcoef(torch.stack([fixed.flatten(), aligned.flatten()]))[0,
                                                                                               1].item())


def parzen_mi(a, b, bins=8, sigma=0.1):
    centers = torch.linspace(0, 1, bins)
    na = (a - a.min()) / (a.max() - a.min())
    nb = (b - b.min()) / (b.max() - b.min())
    wa = torch.softmax(-(na.flatten()[:, None] - centers) ** 2 / (2 * sigma ** 2), dim=1)
    wb = torch.softmax(-(nb.flatten()[:, None] - centers) ** 2 / (2 * sigma ** 2), dim=1)
    pj = wa.T @ wb / a.numel()
    pa, pb = pj.sum(1), pj.sum(0)
    return (pj * (torch.log(pj + 1e-10) - torch.log(pa[:, None] * pb[None, :] + 1e-10))).sum()


shift = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([shift], lr=0.05)
start = moving.view(1, 1, H, W)
for it in range(40):
    theta = torch.cat([torch.eye(2), shift.view(2, 1)], 1).unsqueeze(0)
    grid = F.affine_grid(theta, (1, 1, H, W), align_corners=False)
    warped = F.grid_sample(start, grid, padding_mode="border", align_corners=False)
    loss = -parzen_mi(fixed, warped[0, 0])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 8 == 0:
        px = shift.detach() * torch.tensor([W, H]) / 2
        print(f"it {it:2d} -MI {loss.item():.6f} shift(px) {px}")
