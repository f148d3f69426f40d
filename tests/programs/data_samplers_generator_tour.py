# Models: a torch.utils.data tour for reproducible input pipelines: DataLoader(generator=...)
# shuffling, SubsetRandomSampler, WeightedRandomSampler (with and without replacement),
# BatchSampler with drop_last, SequentialSampler, random_split with fractions and a seeded
# generator, Subset/ConcatDataset indexing and a custom collate_fn that pads.
import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)

torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.0).unsqueeze(1), torch.arange(10) % 3)
g = torch.Generator().manual_seed(42)
dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
for epoch in range(2):
    print("epoch", epoch, [b[1].tolist() for b in dl])
g.manual_seed(42)
print("replay:", [b[0].squeeze(1).tolist() for b in dl][0])

print(list(SequentialSampler(range(5))))
print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(1))))
print(
    list(
        RandomSampler(
            range(6), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(1)
        )
    )
)
print(list(SubsetRandomSampler([10, 20, 30, 40], generator=torch.Generator().manual_seed(3))))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
print(len(BatchSampler(range(10), 3, False)), len(BatchSampler(range(10), 3, True)))

weights = torch.tensor([0.1, 0.1, 0.1, 5.0, 0.1, 2.0])
ws = WeightedRandomSampler(
    weights, num_samples=10, replacement=True, generator=torch.Generator().manual_seed(7)
)
print("weighted:", list(ws))
ws2 = WeightedRandomSampler(
    weights.tolist(), num_samples=4, replacement=False, generator=torch.Generator().manual_seed(7)
)
print("without replacement:", list(ws2))
labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 2])
class_count = torch.bincount(labels)
sample_w = 1.0 / class_count[labels].double()
print("sample weights", sample_w)
sampler = WeightedRandomSampler(
    sample_w, num_samples=len(labels), generator=torch.Generator().manual_seed(0)
)
bal = DataLoader(TensorDataset(labels), batch_size=5, sampler=sampler)
print([b[0].tolist() for b in bal])

a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print(list(a), list(b), list(c))
tr, va = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
print(type(tr).__name__, len(tr), tr.indices, va[0])
sub = Subset(ds, [9, 0, 4])
print(sub[0], len(sub))
cat = ConcatDataset([sub, Subset(ds, [1, 2])])
print(len(cat), cat.cumulative_sizes, cat[3], cat[-1])


class Sentences(Dataset):
    def __init__(self):
        self.data = [[1, 2, 3], [4, 5], [6], [7, 8, 9, 10]]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return torch.tensor(self.data[i]), len(self.data[i])


def pad_collate(batch):
    seqs, lens = zip(*batch)
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, torch.tensor(lens)


for x, lens in DataLoader(Sentences(), batch_size=3, collate_fn=pad_collate):
    print(x, lens)
dl2 = DataLoader(
    Sentences(),
    batch_size=2,
    shuffle=True,
    collate_fn=pad_collate,
    generator=torch.Generator().manual_seed(5),
)
print([l.tolist() for _, l in dl2])
print(len(dl2), dl2.batch_size, type(dl2.sampler).__name__, type(dl2.batch_sampler).__name__)
default = DataLoader(
    [{"a": torch.tensor(1.0), "b": (1, "x")}, {"a": torch.tensor(2.0), "b": (2, "y")}], batch_size=2
)
print(next(iter(default)))
