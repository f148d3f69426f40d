# Models: data-loading patterns from public training scripts -- a map-style Dataset with a
# custom collate_fn that pads variable-length sequences (pad_sequence) and returns lengths,
# an IterableDataset streaming chunks, random_split with a seeded generator, ConcatDataset,
# WeightedRandomSampler for class imbalance, BatchSampler with drop_last, a sampler passed
# as batch_sampler, default_collate on nested dicts/tuples, and the worker_init_fn/seeding
# idiom (num_workers=0 here).
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    WeightedRandomSampler,
    random_split,
)
from torch.utils.data.dataloader import default_collate

torch.manual_seed(0)


class SeqDataset(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.lengths = torch.randint(2, 7, (n,), generator=g)
        self.seqs = [torch.randint(1, 20, (int(k),), generator=g) for k in self.lengths]
        self.labels = (self.lengths > 4).long()

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.labels[i]


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lengths, torch.stack(labels)


ds = SeqDataset(20)
print(len(ds), ds[0], ds.lengths.tolist())
loader = DataLoader(ds, batch_size=4, shuffle=True, collate_fn=pad_collate)
for i, (x, lengths, y) in enumerate(loader):
    if i < 2:
        print(x, lengths, y)
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print("packed", packed.batch_sizes, packed.sorted_indices)

train, val, test = random_split(ds, [12, 5, 3], generator=torch.Generator().manual_seed(42))
print("split", len(train), len(val), len(test), train.indices[:5], val.indices)
frac = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
print("fractional split", [list(s) for s in frac])
both = ConcatDataset([train, test])
print("concat", len(both), both.cumulative_sizes, both[13][1])

class_counts = torch.bincount(ds.labels)
sample_weights = (1.0 / class_counts.float())[ds.labels]
sampler = WeightedRandomSampler(sample_weights, num_samples=40, replacement=True,
                                generator=torch.Generator().manual_seed(3))
drawn = torch.tensor(list(sampler))
print("weighted", class_counts.tolist(), torch.bincount(ds.labels[drawn]).tolist())
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=False)))
rs = RandomSampler(range(8), generator=torch.Generator().manual_seed(5))
print("random sampler", list(rs), list(RandomSampler(range(8), replacement=True,
                                                    num_samples=4,
                                                    generator=torch.Generator().manual_seed(5))))
bl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 6, False),
                collate_fn=pad_collate)
print("batch_sampler", [b[0].shape for b in bl], len(bl))


class Stream(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        for i in range(self.start, self.end):
            yield torch.tensor([i, i * i]), i % 2


stream = DataLoader(Stream(0, 7), batch_size=3)
for xb, yb in stream:
    print("stream", xb.tolist(), yb)

batch = [{"x": torch.tensor([1.0, 2.0]), "meta": (3, "a"), "id": 7},
         {"x": torch.tensor([3.0, 4.0]), "meta": (4, "b"), "id": 8}]
print(default_collate(batch))
print(default_collate([(1.5, True), (2.5, False)]))
dl = DataLoader(list(range(10)), batch_size=4, shuffle=True,
                generator=torch.Generator().manual_seed(11), drop_last=True)
print("seeded shuffle", [b.tolist() for b in dl], len(dl))
dl2 = DataLoader(torch.arange(6.0).view(3, 2), batch_size=2)
print([b for b in dl2])
