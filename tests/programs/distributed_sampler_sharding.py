# Models: a "multi-GPU data loading explained" blog post run on one CPU: DistributedSampler
# for simulated ranks (padding, drop_last, shuffle with set_epoch), an IterableDataset that
# shards itself by rank, ChainDataset and StackDataset, a BatchSampler over a
# SubsetRandomSampler, a collate_fn for dict samples, and the resulting per-rank batches.
import torch
from torch.utils.data import (
    BatchSampler,
    ChainDataset,
    DataLoader,
    Dataset,
    DistributedSampler,
    IterableDataset,
    SequentialSampler,
    StackDataset,
    SubsetRandomSampler,
    TensorDataset,
)
from torch.utils.data.dataloader import default_collate

torch.manual_seed(0)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([i, i * i], dtype=torch.float32), "id": i}


ds = Squares(10)
for world in (3, 4):
    for drop_last in (False, True):
        shards = []
        for rank in range(world):
            s = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False,
                                   drop_last=drop_last)
            shards.append(list(s))
        print(f"world={world} drop_last={drop_last} len={len(s)} shards={shards}")

for epoch in range(2):
    s0 = DistributedSampler(ds, num_replicas=2, rank=0, shuffle=True, seed=42)
    s1 = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=42)
    s0.set_epoch(epoch)
    s1.set_epoch(epoch)
    a, b = list(s0), list(s1)
    print(f"epoch {epoch} rank0 {a} rank1 {b} disjoint {not set(a) & set(b)}")

try:
    DistributedSampler(ds, num_replicas=2, rank=5)
except ValueError as e:
    print("ValueError:", e)

sampler = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=0)
loader = DataLoader(ds, batch_size=2, sampler=sampler)
for batch in loader:
    print(batch["id"].tolist(), batch["x"].tolist())


class ShardedStream(IterableDataset):
    def __init__(self, start, end, rank, world):
        self.start, self.end, self.rank, self.world = start, end, rank, world

    def __iter__(self):
        for i in range(self.start + self.rank, self.end, self.world):
            yield torch.tensor(i)


for rank in range(2):
    stream = ShardedStream(0, 9, rank, 2)
    print("rank", rank, [t.item() for t in DataLoader(stream, batch_size=None)],
          [b.tolist() for b in DataLoader(stream, batch_size=2)])

chain = ChainDataset([ShardedStream(0, 4, 0, 1), ShardedStream(100, 103, 0, 1)])
print("chain", [int(t) for t in chain])

xs = TensorDataset(torch.arange(6.0).view(3, 2))
stacked = StackDataset(xs, torch.arange(3) * 10)
print("stack item", stacked[1], len(stacked))
named = StackDataset(image=torch.randn(3, 2), label=torch.tensor([0, 1, 1]))
print("named stack", sorted(named[2].keys()), default_collate([named[0], named[1]])["label"])

bs = BatchSampler(SubsetRandomSampler(range(10), generator=torch.Generator().manual_seed(1)),
                  batch_size=3, drop_last=False)
print("batch sampler", list(bs), len(bs))
print("sequential", list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=True)))


def collate_pad(batch):
    lengths = torch.tensor([len(b) for b in batch])
    padded = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=-1)
    return padded, lengths


seqs = [torch.arange(n) for n in (3, 1, 4, 2, 5)]
dl = DataLoader(seqs, batch_size=2, shuffle=True, collate_fn=collate_pad,
                generator=torch.Generator().manual_seed(2))
for padded, lengths in dl:
    print(padded, lengths)
