# Models: the grokking experiments (Power et al. 2022, Nanda et al. progress measures) in
# miniature: all pairs (a, b) for a + b mod p, a random train/test split, a one-layer MLP on
# concatenated token embeddings trained full-batch with AdamW and strong weight decay, train
# vs test accuracy over time, the weight norm, and the Fourier spectrum of the learned
# embedding (torch.fft.rfft over the token axis) showing a few key frequencies.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
p = 13
a, b = torch.meshgrid(torch.arange(p), torch.arange(p), indexing="ij")
pairs = torch.stack([a.flatten(), b.flatten()], 1)
targets = (pairs[:, 0] + pairs[:, 1]) % p
perm = torch.randperm(len(pairs))
n_train = int(0.5 * len(pairs))
train_idx, test_idx = perm[:n_train], perm[n_train:]
print("pairs", len(pairs), "train", n_train, "first", pairs[:3].tolist(), targets[:3].tolist())


class ModAdd(nn.Module):
    def __init__(self, p, d=24, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(p, d)
        self.mlp = nn.Sequential(nn.Linear(2 * d, hidden), nn.ReLU(), nn.Linear(hidden, p))

    def forward(self, x):
        return self.mlp(self.embed(x).flatten(1))


model = ModAdd(p)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1.0, betas=(0.9, 0.98))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(step / 10, 1))


def accuracy(idx):
    with torch.no_grad():
        return (model(pairs[idx]).argmax(1) == targets[idx]).float().mean().item()


for step in range(150):
    loss = F.cross_entropy(model(pairs[train_idx]), targets[train_idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 25 == 0 or step == 149:
        norm = torch.sqrt(sum((q ** 2).sum() for q in model.parameters()))
        with torch.no_grad():
            test_loss = F.cross_entropy(model(pairs[test_idx]), targets[test_idx])
        print(f"step {step:3d} lr {sched.get_last_lr()[0]:.4f} train loss {loss.item():.5f} "
              f"test loss {test_loss.item():.5f} train acc {accuracy(train_idx):.3f} "
              f"test acc {accuracy(test_idx):.3f} |w| {norm.item():.3f}")

E = model.embed.weight.detach()
spectrum = torch.fft.rfft(E - E.mean(0), dim=0).abs().pow(2).sum(1)
print("embedding power by frequency", spectrum / spectrum.sum())
print("top frequencies", spectrum.topk(3).indices.tolist())
wrong = (model(pairs[test_idx]).argmax(1) != targets[test_idx]).nonzero().squeeze(1)
print("misclassified test pairs", pairs[test_idx][wrong][:5].tolist())
