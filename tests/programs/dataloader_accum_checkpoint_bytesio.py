# Models: a training script's data and checkpoint plumbing: a map-style Dataset of
# variable-length sequences, a custom collate_fn padding them (pad_sequence) and returning a
# dict, a WeightedRandomSampler for class balance, a BatchSampler over a SubsetRandomSampler
# for validation, gradient accumulation over micro-batches with clip_grad_norm_, and a
# checkpoint (model, optimizer, scheduler, RNG state, epoch) written with torch.save to an
# io.BytesIO and reloaded to resume with identical results.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

torch.manual_seed(0)


class Sequences(Dataset):
    """Label 1 (rare, 25 %) iff the sequence's mean exceeds 0.3."""

    def __init__(self, n, g):
        self.items = []
        for _ in range(n):
            L = int(torch.randint(3, 10, (1,), generator=g))
            shift = 0.6 if torch.rand(1, generator=g).item() < 0.25 else 0.0
            x = torch.randn(L, generator=g) * 0.5 + shift
            self.items.append((x, int(x.mean().item() > 0.3)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    xs, ys = zip(*batch)
    lengths = torch.tensor([len(x) for x in xs])
    return {"x": pad_sequence(xs, batch_first=True), "lengths": lengths,
            "y": torch.tensor(ys)}


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(1, 12, batch_first=True)
        self.out = nn.Linear(12, 2)

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x.unsqueeze(-1), lengths, batch_first=True,
                                                   enforce_sorted=False)
        _, h = self.rnn(packed)
        return self.out(h[-1])


g = torch.Generator().manual_seed(3)
train, val = Sequences(160, g), Sequences(60, g)
labels = torch.tensor([y for _, y in train.items])
counts = torch.bincount(labels)
print("class counts:", counts.tolist())
weights = (1.0 / counts.float())[labels]
sampler = WeightedRandomSampler(weights, num_samples=160, replacement=True,
                                generator=torch.Generator().manual_seed(4))
loader = DataLoader(train, batch_size=8, sampler=sampler, collate_fn=collate)
val_sampler = BatchSampler(
    SubsetRandomSampler(range(60), generator=torch.Generator().manual_seed(5)),
    batch_size=16, drop_last=False)
val_loader = DataLoader(val, batch_sampler=val_sampler, collate_fn=collate)
first = next(iter(loader))
print("batch keys:", sorted(first), "x shape:", tuple(first["x"].shape),
      "lengths:", first["lengths"].tolist())
seen = torch.cat([b["y"] for b in loader])
print("sampled label balance:", torch.bincount(seen).tolist())

ACCUM = 4


def run_epoch(model, opt, sched):
    model.train()
    total, steps = 0.0, 0
    opt.zero_grad()
    for i, b in enumerate(loader):
        loss = F.cross_entropy(model(b["x"], b["lengths"]), b["y"]) / ACCUM
        loss.backward()
        total += loss.item()
        if (i + 1) % ACCUM == 0:
            norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            steps += 1
    return total * ACCUM / len(loader), norm.item(), steps


def evaluate(model):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for b in val_loader:
            correct += (model(b["x"], b["lengths"]).argmax(1) == b["y"]).sum().item()
            n += len(b["y"])
    return correct / n


model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for epoch in range(2):
    loss, norm, steps = run_epoch(model, opt, sched)
    print(f"epoch {epoch} loss {loss:.5f} last grad norm {norm:.5f} optimizer steps {steps} "
          f"val acc {evaluate(model):.4f} lr {sched.get_last_lr()[0]:.5f}")

buf = io.BytesIO()
torch.save({"epoch": 2, "model": model.state_dict(), "opt": opt.state_dict(),
            "sched": sched.state_dict(), "rng": torch.get_rng_state(),
            "sampler_rng": sampler.generator.get_state()}, buf)
print("checkpoint bytes > 0:", buf.tell() > 0)

loss_a, _, _ = run_epoch(model, opt, sched)
after_a = model.out.weight.detach().clone()

buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print("checkpoint keys:", sorted(ckpt), "epoch", ckpt["epoch"])
model2 = Model()
opt2 = torch.optim.AdamW(model2.parameters(), lr=0.01)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=10, gamma=0.5)
model2.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["opt"])
sched2.load_state_dict(ckpt["sched"])
torch.set_rng_state(ckpt["rng"])
sampler.generator.set_state(ckpt["sampler_rng"])
print("optimizer state step:", opt2.state_dict()["state"][0]["step"])
model, opt, sched = model2, opt2, sched2
loss_b, _, _ = run_epoch(model, opt, sched)
print(f"resumed epoch loss {loss_b:.6f} vs original {loss_a:.6f}")
print("identical weights after resume:", torch.equal(after_a, model.out.weight.detach()))
print("final val acc:", f"{evaluate(model):.4f}")
