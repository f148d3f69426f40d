# Models: a PointNet classification tutorial on random point clouds: shared MLPs as Conv1d with
# kernel size 1, a T-Net predicting a 3x3 transform (initialised to identity, applied with
# bmm), max-pooling symmetric aggregation checked for permutation invariance, the orthogonality
# regulariser, and training to tell spheres, cubes and planes apart.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_POINTS = 64


def make_cloud(kind, n=N_POINTS):
    if kind == 0:  # sphere
        p = torch.randn(n, 3)
        p = p / p.norm(dim=1, keepdim=True)
    elif kind == 1:  # cube surface
        p = torch.rand(n, 3) * 2 - 1
        axis = torch.randint(0, 3, (n,))
        p[torch.arange(n), axis] = torch.sign(p[torch.arange(n), axis])
    else:  # plane with noise
        p = torch.rand(n, 3) * 2 - 1
        p[:, 2] = 0.05 * torch.randn(n)
    return p * torch.empty(1).uniform_(0.8, 1.2) + 0.1 * torch.randn(1, 3)


labels = torch.arange(3).repeat(20)
clouds = torch.stack([make_cloud(int(k)) for k in labels])
print("dataset:", tuple(clouds.shape), labels.bincount())


class TNet(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.k = k
        self.conv1, self.conv2 = nn.Conv1d(k, 32, 1), nn.Conv1d(32, 64, 1)
        self.fc1, self.fc2 = nn.Linear(64, 32), nn.Linear(32, k * k)
        nn.init.zeros_(self.fc2.weight)
        nn.init.zeros_(self.fc2.bias)

    def forward(self, x):
        b = x.size(0)
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 64)
        x = self.fc2(F.relu(self.fc1(x)))
        iden = torch.eye(self.k).flatten().repeat(b, 1)
        return (x + iden).view(-1, self.k, self.k)


class PointNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.stn = TNet()
        self.mlp1 = nn.Sequential(nn.Conv1d(3, 32, 1, bias=False), nn.BatchNorm1d(32), nn.ReLU())
        self.mlp2 = nn.Sequential(
            nn.Conv1d(32, 64, 1, bias=False), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1)
        )
        self.head = nn.Sequential(
            nn.Linear(128, 64, bias=False),
            nn.BatchNorm1d(64),
            nn.ReLU(),
            nn.Dropout(0.3),
            nn.Linear(64, n_classes),
        )

    def forward(self, x):  # x: (B, N, 3)
        x = x.transpose(2, 1)
        trans = self.stn(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        feats = self.mlp2(self.mlp1(x))
        glob, argmax = feats.max(dim=2)
        return F.log_softmax(self.head(glob), dim=1), trans, argmax


def orthogonality_reg(trans):
    d = trans.size(1)
    eye = torch.eye(d)[None]
    return torch.mean(torch.norm(torch.bmm(trans, trans.transpose(2, 1)) - eye, dim=(1, 2)))


model = PointNet()
print(model.stn.fc2, "identity init:", model.stn(torch.randn(2, 3, 5))[0])
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(4):
    model.train()
    perm = torch.randperm(len(labels))
    total, correct = 0.0, 0
    for i in range(0, len(labels), 12):
        idx = perm[i : i + 12]
        out, trans, _ = model(clouds[idx])
        loss = F.nll_loss(out, labels[idx]) + 0.001 * orthogonality_reg(trans)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        correct += (out.argmax(1) == labels[idx]).sum().item()
    sched.step()
    if epoch % 1 == 0:
        print(
            f"epoch {epoch} loss {total / len(labels):.4f} acc {correct}/{len(labels)} "
            f"lr {sched.get_last_lr()[0]:.5f}"
        )

model.eval()
with torch.no_grad():
    test_labels = torch.tensor([0, 1, 2, 2, 1, 0])
    test = torch.stack([make_cloud(int(k)) for k in test_labels])
    out, trans, crit = model(test)
    print("test predictions:", out.argmax(1).tolist(), "truth:", test_labels.tolist())
    perm_pts = test[:, torch.randperm(N_POINTS)]
    out2, _, _ = model(perm_pts)
    print("permutation invariant:", torch.allclose(out, out2, atol=1e-5))
    print("critical point indices:", crit.shape, crit.dtype, bool((crit < N_POINTS).all()))
    print("transform det:", torch.linalg.det(trans))
    print("probabilities:", out.exp()[:2])
