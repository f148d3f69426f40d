# Models: non-contrastive self-supervised losses from public reimplementations: Barlow Twins
# (cross-correlation of batch-normalised embeddings pushed to the identity, off-diagonal terms
# via the flatten/view trick) and VICReg (variance hinge on the std, invariance MSE, covariance
# off-diagonal penalty), with two augmented views of toy vectors, a projector with
# BatchNorm1d(affine=False), and a linear probe of the frozen encoder afterwards.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def off_diagonal(x):
    n, m = x.shape
    assert n == m
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


m = torch.arange(16.0).view(4, 4)
print("off-diagonal", off_diagonal(m))


class Net(nn.Module):
    def __init__(self, d_in=8, d_rep=8, d_proj=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, 32), nn.BatchNorm1d(32), nn.ReLU(),
                                     nn.Linear(32, d_rep))
        self.projector = nn.Sequential(nn.Linear(d_rep, d_proj), nn.BatchNorm1d(d_proj),
                                       nn.ReLU(), nn.Linear(d_proj, d_proj, bias=False))
        self.bn = nn.BatchNorm1d(d_proj, affine=False)

    def forward(self, x):
        return self.projector(self.encoder(x))


def barlow_loss(net, z1, z2, lambd=5e-3):
    c = net.bn(z1).T @ net.bn(z2) / z1.shape[0]
    on = torch.diagonal(c).add_(-1).pow_(2).sum()
    off = off_diagonal(c).pow_(2).sum()
    return on + lambd * off, c


def vicreg_loss(z1, z2, sim=25.0, var=25.0, cov=1.0):
    inv = F.mse_loss(z1, z2)
    z1 = z1 - z1.mean(0)
    z2 = z2 - z2.mean(0)
    std1 = torch.sqrt(z1.var(0) + 1e-4)
    std2 = torch.sqrt(z2.var(0) + 1e-4)
    v = torch.mean(F.relu(1 - std1)) / 2 + torch.mean(F.relu(1 - std2)) / 2
    n, d = z1.shape
    c1 = (z1.T @ z1) / (n - 1)
    c2 = (z2.T @ z2) / (n - 1)
    c = off_diagonal(c1).pow(2).sum() / d + off_diagonal(c2).pow(2).sum() / d
    return sim * inv + var * v + cov * c, (inv.item(), v.item(), c.item())


labels = torch.randint(0, 4, (256,))
protos = torch.randn(4, 8) * 2
data = protos[labels] + 0.5 * torch.randn(256, 8)


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask * (1 + 0.1 * torch.randn(x.shape[0], 1)) + 0.2 * torch.randn_like(x)


for name in ("barlow", "vicreg"):
    torch.manual_seed(1)
    net = Net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    for step in range(40):
        idx = torch.randint(0, 256, (64,))
        z1, z2 = net(augment(data[idx])), net(augment(data[idx]))
        if name == "barlow":
            loss, c = barlow_loss(net, z1, z2)
            parts = (torch.diagonal(c).mean().item(), off_diagonal(c).abs().mean().item())
        else:
            loss, parts = vicreg_loss(z1, z2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"{name} step {step:2d} loss {loss.item():.5f} parts "
                  + " ".join(f"{p:.5f}" for p in parts))
    net.eval()
    with torch.no_grad():
        reps = net.encoder(data)
    probe = nn.Linear(8, 4)
    popt = torch.optim.LBFGS(probe.parameters(), lr=0.5, max_iter=30)

    def closure(popt=popt, probe=probe, reps=reps):
        popt.zero_grad()
        loss = F.cross_entropy(probe(reps), labels)
        loss.backward()
        return loss

    popt.step(closure)
    acc = (probe(reps).argmax(1) == labels).float().mean()
    print(f"{name} linear probe acc {acc.item():.4f} running var {net.bn.running_var[:4]}")
