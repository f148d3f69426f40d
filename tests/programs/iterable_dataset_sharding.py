# Models: the torch.utils.data IterableDataset recipes: a streaming dataset that shards itself
# with get_worker_info (single-process here, so the info is None), a custom Sampler and
# BatchSampler, batch_size=None loading, collate_fn returning a namedtuple, default_collate on
# nested dicts/namedtuples and default_convert, Subset, ConcatDataset, random_split by
# fractions with a generator, and a training loop over the stream.
import collections
import math

import numpy as np
import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    Sampler,
    Subset,
    get_worker_info,
    random_split,
)
from torch.utils.data.dataloader import default_collate, default_convert


class RangeStream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            lo = self.start + info.id * per
            hi = min(lo + per, self.end)
        for i in range(lo, hi):
            x = torch.tensor([i / 10.0, (i % 3) / 2.0])
            yield x, torch.tensor(float(2 * i % 5))


stream = RangeStream(3, 17)
print(get_worker_info())
print(list(DataLoader(stream, batch_size=4))[-1])
print(len(list(DataLoader(stream, batch_size=4, drop_last=True))))
print(next(iter(DataLoader(stream, batch_size=None))))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), float(i * i)]), "meta": {"id": i, "odd": i % 2}}


class EvensFirst(Sampler):
    def __init__(self, data_source):
        self.n = len(data_source)

    def __iter__(self):
        return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))

    def __len__(self):
        return self.n


ds = Squares(7)
bs = BatchSampler(EvensFirst(ds), batch_size=3, drop_last=False)
print(list(bs))
for batch in DataLoader(ds, batch_sampler=bs):
    print(batch["x"].tolist(), batch["meta"]["id"], batch["meta"]["odd"])
Point = collections.namedtuple("Point", ["x", "y"])
print(default_collate([Point(torch.tensor(1.0), 2), Point(torch.tensor(3.0), 4)]))
print(default_collate([(1, 2.5, "a"), (3, 4.5, "b")]))
print(default_convert(np.arange(3)), default_convert([np.float64(1.5), "s"]))

Batch = collections.namedtuple("Batch", ["inputs", "targets", "lengths"])


def pad_collate(items):
    seqs = [torch.arange(1, n + 1, dtype=torch.float32) for n, _ in items]
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    return Batch(padded, torch.tensor([t for _, t in items]), lengths)


pairs = [(n, n % 2) for n in [3, 1, 4, 1, 5, 2]]
for b in DataLoader(pairs, batch_size=3, collate_fn=pad_collate):
    print(b.inputs, b.targets, b.lengths)

big = ConcatDataset([Squares(4), Squares(3)])
print(len(big), big.cumulative_sizes, big[5]["meta"])
sub = Subset(big, [6, 0, 2])
print([s["x"].tolist() for s in sub])
g = torch.Generator().manual_seed(42)
train, val, test = random_split(range(20), [0.6, 0.25, 0.15], generator=g)
print(list(train), list(val), list(test))

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(4):
    total = 0.0
    for x, y in DataLoader(RangeStream(0, 30), batch_size=8):
        loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.5f}")
print(model.weight.data, model.bias.data)
