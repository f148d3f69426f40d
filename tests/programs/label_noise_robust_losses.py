# Models: a "learning with noisy labels" notebook: symmetric label noise injected into a
# 3-class toy set, and the same MLP trained with plain cross-entropy, label smoothing,
# generalized cross-entropy (Lq), symmetric cross-entropy (CE + reverse CE), and co-teaching's
# small-loss sample selection with a forget-rate schedule; clean-test accuracy for each, and the
# fraction of truly clean samples among those co-teaching keeps.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(8)
n, d, C = 300, 2, 3
centers = torch.tensor([[0.0, 2.0], [-1.8, -1.0], [1.8, -1.0]])
y_clean = torch.randint(0, C, (n,))
X = centers[y_clean] + 0.8 * torch.randn(n, d)
noise_rate = 0.4
flip = torch.rand(n) < noise_rate
y_noisy = torch.where(flip, (y_clean + torch.randint(1, C, (n,))) % C, y_clean)
print("actual noise rate", (y_noisy != y_clean).float().mean().item())
X_test = centers[torch.arange(C).repeat(50)] + 0.8 * torch.randn(150, d)
y_test = torch.arange(C).repeat(50)


def make():
    return nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, C))


def gce(logits, y, q=0.7):
    p = F.softmax(logits, 1).gather(1, y[:, None]).squeeze(1)
    return ((1 - p.clamp(min=1e-7) ** q) / q).mean()


def sce(logits, y, alpha=0.1, beta=1.0):
    ce = F.cross_entropy(logits, y)
    p = F.softmax(logits, 1).clamp(min=1e-7, max=1.0)
    onehot = F.one_hot(y, C).float().clamp(min=1e-4, max=1.0)
    rce = -(p * onehot.log()).sum(1).mean()
    return alpha * ce + beta * rce


losses = {
    "cross-entropy": lambda lo, y: F.cross_entropy(lo, y),
    "label smoothing 0.3": lambda lo, y: F.cross_entropy(lo, y, label_smoothing=0.3),
    "generalized CE q=0.7": gce,
    "symmetric CE": sce,
}


def accuracy(net):
    with torch.no_grad():
        return (net(X_test).argmax(1) == y_test).float().mean().item()


for name, fn in losses.items():
    torch.manual_seed(0)
    net = make()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for epoch in range(20):
        perm = torch.randperm(n)
        for i in range(0, n, 50):
            b = perm[i:i + 50]
            loss = fn(net(X[b]), y_noisy[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
    fit_noisy = (net(X).argmax(1) == y_noisy).float().mean().item()
    print(f"{name:<21} test acc {accuracy(net):.4f} fits noisy labels {fit_noisy:.4f}")

torch.manual_seed(0)
net1, net2 = make(), make()
opt1 = torch.optim.Adam(net1.parameters(), lr=0.01)
opt2 = torch.optim.Adam(net2.parameters(), lr=0.01)
epochs, Tk = 24, 6
for epoch in range(epochs):
    forget = noise_rate * min(epoch / Tk, 1.0)
    perm = torch.randperm(n)
    kept_clean = []
    for i in range(0, n, 50):
        b = perm[i:i + 50]
        l1 = F.cross_entropy(net1(X[b]), y_noisy[b], reduction="none")
        l2 = F.cross_entropy(net2(X[b]), y_noisy[b], reduction="none")
        keep = int(round((1 - forget) * len(b)))
        idx1 = l1.detach().argsort()[:keep]
        idx2 = l2.detach().argsort()[:keep]
        loss1 = l1[idx2].mean()
        loss2 = l2[idx1].mean()
        opt1.zero_grad()
        loss1.backward()
        opt1.step()
        opt2.zero_grad()
        loss2.backward()
        opt2.step()
        kept_clean.append((y_noisy[b][idx1] == y_clean[b][idx1]).float().mean())
    if epoch % 8 == 7:
        print(f"co-teaching epoch {epoch + 1}: forget rate {forget:.2f} "
              f"label precision of kept samples {torch.stack(kept_clean).mean().item():.4f}")
print(f"co-teaching test acc net1 {accuracy(net1):.4f} net2 {accuracy(net2):.4f}")
