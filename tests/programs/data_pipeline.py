# Models: a "datasets and dataloaders" tutorial (custom Dataset, random_split with a seeded
# generator, Subset, ConcatDataset, WeightedRandomSampler for class imbalance, a collate_fn
# padding variable-length sequences with pad_sequence, drop_last, BatchSampler).
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)

torch.manual_seed(2024)


class VarLen(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.items = [torch.randint(1, 9, (int(torch.randint(2, 7, (1,), generator=g)),),
                                    generator=g) for _ in range(n)]
        self.labels = [int(x.sum()) % 3 for x in self.items]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i], self.labels[i]


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=0), lengths, torch.tensor(labels)


ds = VarLen(40)
train, val = random_split(ds, [0.75, 0.25], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), train.indices[:8])
loader = DataLoader(train, batch_size=8, shuffle=True, collate_fn=collate, drop_last=True)
for x, lengths, y in loader:
    print(tuple(x.shape), lengths.tolist(), y.tolist())
counts = torch.bincount(torch.tensor(ds.labels), minlength=3)
weights = (1.0 / counts.float())[torch.tensor(ds.labels)]
sampler = WeightedRandomSampler(weights, num_samples=30, replacement=True)
drawn = torch.tensor([ds.labels[i] for i in sampler])
print("class counts", counts.tolist(), "resampled", torch.bincount(drawn, minlength=3).tolist())
td = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
both = ConcatDataset([td, Subset(td, [4, 0])])
print(len(both), both[5], both[6])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(RandomSampler(range(7)), batch_size=3, drop_last=True)))
for xb, yb in DataLoader(both, batch_size=3):
    print(xb.tolist(), yb.tolist())
g = torch.Generator()
g.manual_seed(7)
print(list(DataLoader(range(10), batch_size=4, shuffle=True, generator=g)))
