# Models: a forum recipe for variable-length text batches: a custom BatchSampler that buckets by
# length, a collate_fn that pads with pad_sequence and returns lengths, SubsetRandomSampler and
# SequentialSampler, drop_last counts, and a seeded generator for reproducible order.
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
)

torch.manual_seed(5)


class Seqs(Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(1)
        self.lens = torch.randint(2, 9, (14,), generator=g).tolist()
        self.items = [torch.arange(n) + 10 * i for i, n in enumerate(self.lens)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i], i % 3


class BucketSampler(Sampler):
    def __init__(self, lens, batch_size, generator):
        self.lens, self.bs, self.g = lens, batch_size, generator

    def __iter__(self):
        order = sorted(range(len(self.lens)), key=lambda i: self.lens[i])
        batches = [order[i:i + self.bs] for i in range(0, len(order), self.bs)]
        perm = torch.randperm(len(batches), generator=self.g).tolist()
        return iter([batches[p] for p in perm])

    def __len__(self):
        return (len(self.lens) + self.bs - 1) // self.bs


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=-1), lengths, torch.tensor(labels)


ds = Seqs()
print("lens", ds.lens)
g = torch.Generator().manual_seed(42)
dl = DataLoader(ds, batch_sampler=BucketSampler(ds.lens, 4, g), collate_fn=collate)
print("num batches", len(dl))
for padded, lengths, labels in dl:
    print(padded.shape, lengths.tolist(), labels.tolist())
print(padded)
bs = BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)
print(list(bs), len(bs))
bs2 = BatchSampler(RandomSampler(range(10), generator=torch.Generator().manual_seed(0)), 4, False)
print(list(bs2), len(bs2))
sub = SubsetRandomSampler([1, 3, 5, 7, 9], generator=torch.Generator().manual_seed(3))
print(list(sub))
dl2 = DataLoader(ds, batch_size=5, sampler=sub, collate_fn=collate)
for padded, lengths, labels in dl2:
    print(padded, lengths)
try:
    DataLoader(ds, batch_size=4, shuffle=True, sampler=sub)
except ValueError as e:
    print("ValueError:", e)
try:
    DataLoader(ds, batch_sampler=bs, batch_size=2)
except ValueError as e:
    print("ValueError:", e)
