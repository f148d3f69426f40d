# Models: the sampling-and-grouping utilities of PointNet++ reimplementations in pure PyTorch
# (Pointnet2_PyTorch's CPU fallbacks): farthest point sampling with a running min-distance,
# batched index_points by advanced indexing, ball query (sort the in-radius indices, pad with
# the first), kNN grouping with topk, relative coordinates, a set-abstraction layer (shared MLP
# + max-pool), feature propagation by inverse-distance interpolation, and a tiny classifier.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def square_distance(src, dst):
    return (
        -2 * src @ dst.transpose(1, 2)
        + src.pow(2).sum(-1, keepdim=True)
        + dst.pow(2).sum(-1).unsqueeze(1)
    )


def index_points(points, idx):
    b = points.shape[0]
    view_shape = [b] + [1] * (idx.dim() - 1)
    batch = torch.arange(b).view(view_shape).expand_as(idx)
    return points[batch, idx, :]


def farthest_point_sample(xyz, npoint):
    b, n, _ = xyz.shape
    centroids = torch.zeros(b, npoint, dtype=torch.long)
    distance = torch.full((b, n), 1e10)
    farthest = torch.zeros(b, dtype=torch.long)
    batch = torch.arange(b)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch, farthest, :].view(b, 1, 3)
        dist = ((xyz - centroid) ** 2).sum(-1)
        distance = torch.minimum(distance, dist)
        farthest = distance.max(-1)[1]
    return centroids


def query_ball_point(radius, nsample, xyz, new_xyz):
    b, n, _ = xyz.shape
    s = new_xyz.shape[1]
    group_idx = torch.arange(n).view(1, 1, n).repeat(b, s, 1)
    sqr = square_distance(new_xyz, xyz)
    group_idx[sqr > radius**2] = n
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    first = group_idx[:, :, 0].view(b, s, 1).repeat(1, 1, nsample)
    mask = group_idx == n
    group_idx[mask] = first[mask]
    return group_idx


def knn_group(k, xyz, new_xyz):
    return square_distance(new_xyz, xyz).topk(k, dim=-1, largest=False)[1]


xyz = torch.rand(2, 64, 3)
fps = farthest_point_sample(xyz, 8)
print("fps indices:", fps.tolist())
new_xyz = index_points(xyz, fps)
print(
    "sampled:",
    tuple(new_xyz.shape),
    "min pairwise distance:",
    torch.pdist(new_xyz[0]).min() > torch.pdist(xyz[0, :8]).min(),
)
ball = query_ball_point(0.3, 6, xyz, new_xyz)
print("ball query:", tuple(ball.shape), ball[0, :2].tolist())
grouped = index_points(xyz, ball) - new_xyz.unsqueeze(2)
print("all within radius:", bool((grouped.norm(dim=-1) <= 0.3 + 1e-6).all()))
knn = knn_group(4, xyz, new_xyz)
print("knn:", knn[0, :2].tolist(), "self first:", bool((knn[..., 0] == fps).all()))
print(
    "square_distance vs cdist:",
    torch.allclose(square_distance(xyz, xyz).clamp_min(0), torch.cdist(xyz, xyz).pow(2), atol=1e-5),
)


class SetAbstraction(nn.Module):
    def __init__(self, npoint, radius, nsample, in_ch, mlp):
        super().__init__()
        self.npoint, self.radius, self.nsample = npoint, radius, nsample
        layers, last = [], in_ch + 3
        for out in mlp:
            layers += [nn.Conv2d(last, out, 1, bias=False), nn.BatchNorm2d(out), nn.ReLU()]
            last = out
        self.mlp = nn.Sequential(*layers)

    def forward(self, xyz, feats):
        idx = farthest_point_sample(xyz, self.npoint)
        centres = index_points(xyz, idx)
        group = query_ball_point(self.radius, self.nsample, xyz, centres)
        rel = index_points(xyz, group) - centres.unsqueeze(2)
        if feats is not None:
            rel = torch.cat([rel, index_points(feats, group)], dim=-1)
        h = self.mlp(rel.permute(0, 3, 2, 1))
        return centres, torch.max(h, 2)[0].transpose(1, 2)


def interpolate(xyz1, xyz2, feats2, k=3):
    d = square_distance(xyz1, xyz2).clamp_min(0)
    d, idx = d.sort(dim=-1)
    d, idx = d[:, :, :k], idx[:, :, :k]
    w = 1.0 / (d + 1e-8)
    w = w / w.sum(-1, keepdim=True)
    return (index_points(feats2, idx) * w.unsqueeze(-1)).sum(2)


sa1 = SetAbstraction(16, 0.4, 8, 0, [16, 32])
sa2 = SetAbstraction(4, 0.8, 8, 32, [32, 64])
c1, f1 = sa1(xyz, None)
c2, f2 = sa2(c1, f1)
print("SA1:", tuple(c1.shape), tuple(f1.shape), "SA2:", tuple(c2.shape), tuple(f2.shape))
up = interpolate(xyz, c1, f1)
print(
    "propagated features:",
    tuple(up.shape),
    "exact at sampled points:",
    torch.allclose(interpolate(c1, c1, f1), f1, atol=1e-4),
)


def make_shape(kind, n=64):
    p = torch.randn(n, 3)
    if kind == 0:
        p = p / p.norm(dim=1, keepdim=True)
    else:
        p = torch.rand(n, 3) * 2 - 1
        p[:, 2] *= 0.05
    return p * 0.5 + 0.5


labels = torch.arange(2).repeat(12)
data = torch.stack([make_shape(int(k)) for k in labels])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.sa1 = SetAbstraction(16, 0.4, 8, 0, [16, 32])
        self.head = nn.Linear(32, 2)

    def forward(self, x):
        _, f = self.sa1(x, None)
        return self.head(f.max(1)[0])


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(6):
    loss = F.cross_entropy(net(data), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
net.eval()
with torch.no_grad():
    print("train accuracy:", (net(data).argmax(1) == labels).float().mean().item())
